/** The hook's deadline passed before a step finished. The message is one line: what did not finish in time. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}
