/**
 * A rendered Slack payload breaks one of Slack's limits (see `limits.ts`), so Slack would refuse it. The message
 * names each limit broken and where (`sectionText: at most 3000 characters, got 3001 (at blocks[2].text.text)`);
 * `cause` is the `ZodError` with every issue. Thrown by `assertSlackMessage` / `assertSlackView`, which the
 * renderers call before returning: it means a renderer bug or an input the question limits should have refused,
 * never something to show a person.
 * Constructed like `Error`: `new SlackPayloadError(message, { cause })`.
 */
export class SlackPayloadError extends Error {
  override readonly name = 'SlackPayloadError';
}
