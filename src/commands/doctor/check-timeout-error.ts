/** A call did not answer within doctor's time-out. */
export class CheckTimeoutError extends Error {
  override readonly name = 'CheckTimeoutError';
}
