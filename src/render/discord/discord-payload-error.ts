/**
 * A rendered Discord payload breaks one of Discord's limits (see `limits.ts`), so Discord would refuse it. The
 * message names each limit broken and where (`embedDescription: at most 4096 characters, got 4097 (at
 * embeds[0].description)`); `cause` is the `ZodError` with every issue. Thrown by `assertDiscordMessage` /
 * `assertDiscordModal`, which the renderers call before returning: it means a renderer bug or an input the question
 * limits should have refused, never something to show a person.
 * Constructed like `Error`: `new DiscordPayloadError(message, { cause })`.
 */
export class DiscordPayloadError extends Error {
  override readonly name = 'DiscordPayloadError';
}
