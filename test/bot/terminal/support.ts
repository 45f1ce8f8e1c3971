/** What the terminal inbox's tests share. */
import type { SingleSpec } from '../../../src/core/question.js';
import { spec } from '../../support/store.js';

/** A question like `spec()`'s, without a recommended option (so nothing is picked until the person picks). */
export function noRecommendation(overrides: Partial<SingleSpec> = {}): SingleSpec {
  const { recommended: _none, ...rest } = spec(overrides);
  return rest;
}
