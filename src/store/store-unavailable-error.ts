/** The store cannot be reached (connection refused, lost, or timed out). Nothing was changed by the call. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';

  constructor(options?: { cause?: unknown }) {
    super('The ask-later inbox (its store) is unreachable', options);
  }
}
