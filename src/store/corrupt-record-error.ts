/** A record read back from the store does not have the shape this version of ask-later expects. */
export class CorruptRecordError extends Error {
  override readonly name = 'CorruptRecordError';

  constructor(
    /** Which record, as `project#id`; never its content. */
    readonly record: string,
    /** What was expected where, e.g. "`status`: expected one of pending, answered, … got \"lost\"". */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Stored question ${record} is unreadable: ${problem}`, options);
  }
}
