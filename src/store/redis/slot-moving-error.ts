/**
 * A Redis Cluster kept answering "not now" for a slot (TRYAGAIN, CLUSTERDOWN, a script meeting a key that is
 * moving, or a script's "slot is moving" code) for longer than the store waits. Nothing was written; the same call
 * may succeed once the slot settles. The store reports it as unavailable.
 */
export class SlotMovingError extends Error {
  override readonly name = 'SlotMovingError';

  constructor(what: string, attempts: number, options?: { cause?: unknown }) {
    super(`Expected the Redis Cluster slot of ${what} to settle, got "try again" ${attempts} times`, options);
  }
}
