/** A Surface that records what the bridge asked of it, and can be told to fail. Our own port, not a mock. */

import type { MessageRef, Platform, Question } from '../../src/core/question.js';
import type { Surface, SurfaceFailure } from '../../src/surfaces/surface.js';

export class RecordingSurface implements Surface {
  readonly posts: { question: Question; channel: string; maybePostedBefore: boolean }[] = [];
  readonly updates: { question: Question; ref: MessageRef }[] = [];
  /** Calls to fail from now on (`Infinity`: a platform refusing everything). */
  failNext = 0;
  /** Every post and update asked for, failed ones included. */
  calls = 0;
  /** What its failures mean to the bridge (default: transient). */
  failure: SurfaceFailure = { kind: 'transient', code: 'Error' };
  #counter = 0;

  constructor(
    readonly platform: Platform,
    readonly routes: (project: string) => readonly string[],
  ) {}

  channelsFor(project: string): readonly string[] {
    return this.routes(project);
  }

  async post(question: Question, channel: string, options: { maybePostedBefore: boolean }): Promise<MessageRef> {
    this.calls++;
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('platform unavailable');
    }
    this.posts.push({ question, channel, maybePostedBefore: options.maybePostedBefore });
    return { platform: this.platform, channel, messageId: `m${++this.#counter}` };
  }

  classifyFailure(_error: unknown): SurfaceFailure {
    return this.failure;
  }

  async update(question: Question, ref: MessageRef): Promise<void> {
    this.calls++;
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('platform unavailable');
    }
    this.updates.push({ question, ref });
  }
}
