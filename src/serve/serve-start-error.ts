/** `serve` could not start: the store or Slack cannot be reached, or refused us. The message is one line. */
export class ServeStartError extends Error {
  override readonly name = 'ServeStartError';
}
