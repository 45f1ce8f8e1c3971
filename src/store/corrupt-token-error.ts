/** A token record read back from the store does not have the shape this version of ask-later expects. */
export class CorruptTokenError extends Error {
  override readonly name = 'CorruptTokenError';

  constructor(
    /** The token's id (its public part); never the record's content. */
    readonly tokenId: string,
    /** Which field, and what was wrong with it. */
    readonly problem: string,
  ) {
    super(`Stored token ${tokenId} is unreadable: ${problem}`);
  }
}
