/** A payload Telegram would refuse: a renderer bug, or a question the question limits should have refused. */
export class TelegramPayloadError extends Error {
  override readonly name = 'TelegramPayloadError';

  constructor(
    message: string,
    readonly issues: readonly string[],
  ) {
    super(message);
  }
}
