/** stdin is not Claude Code's status line JSON. The message says what came, never quoting it. */
export class StatusInputError extends Error {
  override readonly name = 'StatusInputError';
}
