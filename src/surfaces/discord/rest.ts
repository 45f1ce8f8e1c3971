/**
 * Discord's REST API as the bridge uses it: a client made from the settings, and what may be said about its errors.
 * discord.js's `REST` queues requests per route and waits out rate limits (429) by itself, and retries 5xx and
 * network errors a few times before it throws.
 */
import { DiscordAPIError, HTTPError, RateLimitError, REST } from 'discord.js';
import { errorFields } from '../../core/logger.js';

export interface DiscordRestOptions {
  readonly token: string;
  /** REST base without a version (default `https://discord.com/api`). */
  readonly apiUrl?: string;
  /** Retries of a 5xx or network failure (default discord.js's 3). */
  readonly retries?: number;
  /** Per-request time-out in ms (default discord.js's 15 s). */
  readonly timeoutMs?: number;
}

export function createDiscordRest(options: DiscordRestOptions): REST {
  return new REST({
    version: '10',
    ...(options.apiUrl !== undefined ? { api: options.apiUrl } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  }).setToken(options.token);
}

/** Discord's JSON error code (10008 Unknown Message, 50001 Missing Access, …) of a REST failure, if any. */
export function discordErrorCode(error: unknown): number | undefined {
  return error instanceof DiscordAPIError && typeof error.code === 'number' ? error.code : undefined;
}

/** The HTTP status of a REST failure, if any. */
export function discordStatus(error: unknown): number | undefined {
  if (error instanceof DiscordAPIError || error instanceof HTTPError) return error.status;
  if (error instanceof RateLimitError) return 429;
  return undefined;
}

/**
 * What may be logged about a Discord failure: the error's kind, Discord's code and the HTTP status. Never the
 * message (it can quote the request), never the URL (an interaction's URL carries its token).
 */
export function discordErrorFields(error: unknown): Record<string, unknown> {
  if (error instanceof DiscordAPIError) {
    return { error: 'DiscordAPIError', code: error.code, status: error.status, method: error.method };
  }
  if (error instanceof HTTPError) return { error: 'HTTPError', status: error.status, method: error.method };
  if (error instanceof RateLimitError) return { error: 'RateLimitError', route: error.route };
  return errorFields(error);
}
