/**
 * How long to wait before the next attempt after `attempt` failures (0 for the first retry): full jitter over an
 * exponential step ("exponential back-off and jitter"), so replicas failing together do not retry together.
 * Between half the step and the whole step, the step doubling from `baseMs` up to `maxMs`.
 */
export function backoff(attempt: number, baseMs: number, maxMs: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return step / 2 + Math.random() * (step / 2);
}
