/**
 * Discord's failures as the bridge acts on them: which REST errors can never succeed on a retry (a token Discord
 * refuses, a channel the bot cannot see) and what a person does about each, by Discord's JSON error code and the
 * HTTP status; which may pass (a rate limit, Discord's own trouble, the network). discord.js has already waited
 * out 429s and retried 5xx and network failures by the time an error reaches here.
 */
import type { SurfaceFailure } from '../surface.js';
import { discordErrorCode, discordStatus } from './rest.js';

type Permanent = Omit<Extract<SurfaceFailure, { kind: 'permanent' }>, 'kind' | 'code'>;

const TOKEN: Permanent = {
  reach: 'platform',
  fix: "Discord refuses DISCORD_TOKEN: set the bot token from the Developer Portal's Bot page (reset it if it was revoked)",
};
const PAYLOAD: Permanent = {
  reach: 'event',
  fix: "Discord refused this message itself: a fault in ask-later's rendering; report it with the code",
};

/** Discord's JSON error codes no retry can change, and the fix a person applies. */
const PERMANENT: Readonly<Record<number, Permanent>> = {
  0: TOKEN, // 401: Unauthorized carries code 0
  40001: TOKEN, // Unauthorized
  10003: {
    reach: 'channel',
    fix: 'the channel does not exist: check the channel id in DISCORD_CHANNEL or the route (Developer Mode → Copy Channel ID)',
  },
  50001: {
    reach: 'channel',
    fix: 'the bot cannot see the channel: add it to the server and allow it View Channel in that channel',
  },
  50013: {
    reach: 'channel',
    fix: 'give the bot Send Messages, Embed Links and Read Message History in the channel',
  },
  50008: { reach: 'channel', fix: 'the channel is not a text channel: route the project to a text channel' },
  50024: { reach: 'channel', fix: 'the channel is not a text channel: route the project to a text channel' },
  50083: { reach: 'channel', fix: 'the thread is archived: route the project to an open channel' },
  50006: PAYLOAD, // Cannot send an empty message
  50035: PAYLOAD, // Invalid Form Body
  50109: PAYLOAD, // The request body contains invalid JSON
};

/**
 * What a failed REST call means, coded as `HTTP 403 (50001)`: permanent for the codes above, for 401 (the token),
 * for any other 403 / 404 (the channel) and any other 4xx but 408 and 429 (this message); transient otherwise.
 */
export function classifyDiscordFailure(error: unknown): SurfaceFailure {
  const status = discordStatus(error);
  const errorCode = discordErrorCode(error);
  if (status === undefined) {
    const name = error instanceof Error ? error.name : typeof error;
    const errno = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    return { kind: 'transient', code: typeof errno === 'string' && errno !== '' ? `${name} ${errno}` : name };
  }
  const code = `HTTP ${status}${errorCode !== undefined ? ` (${errorCode})` : ''}`;
  if (status === 401) return { kind: 'permanent', code, ...TOKEN };
  const known = errorCode !== undefined ? PERMANENT[errorCode] : undefined;
  if (known && status >= 400 && status < 500) return { kind: 'permanent', code, ...known };
  if (status === 403) {
    return {
      kind: 'permanent',
      code,
      reach: 'channel',
      fix: 'the bot lacks a permission in the channel: check its role',
    };
  }
  if (status === 404) {
    return { kind: 'permanent', code, reach: 'channel', fix: 'Discord does not know the channel: check its id' };
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { kind: 'permanent', code, ...PAYLOAD };
  return { kind: 'transient', code };
}
