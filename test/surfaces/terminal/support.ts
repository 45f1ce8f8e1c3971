/** What the terminal inbox's tests share. */
import type { SingleSpec } from '../../../src/core/question.js';
import { spec } from '../../support/store.js';

/** A question like `spec()`'s, without a recommended option (so nothing is picked until the person picks). */
export function noRecommendation(overrides: Partial<SingleSpec> = {}): SingleSpec {
  const { recommended: _none, ...rest } = spec(overrides);
  return rest;
}

/** What a command printed and its exit code. */
export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Streams that keep what a command writes. */
export function commandIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } },
    result: (code: number): CommandRun => ({ code, stdout: out.join(''), stderr: err.join('') }),
  };
}
