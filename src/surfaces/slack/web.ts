/**
 * The Web API as ask-later uses it: one way to build a client (base URL and retries from the config), and one way
 * to read what went wrong (Slack's error code, e.g. `msg_blocks_too_long`), for the one error sink and the places
 * that handle a specific code.
 */
import { type Logger as SlackLogger, webApi } from '@slack/bolt';
import { errorFields } from '../../core/logger.js';

export type RetryOptions = webApi.RetryOptions;
export type WebClient = webApi.WebClient;

/**
 * Retries for the long-running bridge: a few attempts within about a minute (429s wait out Retry-After on top).
 * web-api's default (ten retries over ~30 minutes) would stall the bridge's event loop on one message; the bridge
 * retries and finally leaves the event for a live bridge to reclaim instead.
 */
export const SERVE_RETRY_CONFIG: RetryOptions = Object.freeze({
  retries: 4,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 15_000,
  randomize: true,
});

export interface WebClientSettings {
  readonly token: string;
  /** Web API base URL ending with `/` (default Slack's). */
  readonly apiUrl?: string;
  readonly retryConfig?: RetryOptions;
  /** Per-request time-out in ms (default 10 s). */
  readonly timeoutMs?: number;
}

/** The options Bolt's and our own WebClients get: base URL, retries, a per-request time-out. */
export function webClientOptions(
  settings: Omit<WebClientSettings, 'token'>,
): Omit<webApi.WebClientOptions, 'logger' | 'logLevel'> {
  return {
    ...(settings.apiUrl !== undefined ? { slackApiUrl: settings.apiUrl } : {}),
    retryConfig: settings.retryConfig ?? SERVE_RETRY_CONFIG,
    timeout: settings.timeoutMs ?? 10_000,
  };
}

/** A WebClient logging through `logger` (see `bolt-logger.ts`: web-api may quote URLs and bodies at debug). */
export function createWebClient(settings: WebClientSettings & { readonly logger?: SlackLogger }): WebClient {
  return new webApi.WebClient(settings.token, {
    ...webClientOptions(settings),
    ...(settings.logger !== undefined ? { logger: settings.logger } : { logLevel: webApi.LogLevel.ERROR }),
  });
}

/** Slack's error code of a failed call (`channel_not_found`, `msg_blocks_too_long`, …), if the platform answered one. */
export function slackErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const data = (error as { data?: unknown }).data;
  const code = data !== null && typeof data === 'object' ? (data as { error?: unknown }).error : undefined;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
}

/** What may be logged about a Slack call's failure: error name and code, Slack's code, HTTP status. Never text. */
export function slackErrorFields(error: unknown): Record<string, unknown> {
  const fields = errorFields(error);
  const slackError = slackErrorCode(error);
  const status = error instanceof Error ? (error as { statusCode?: unknown }).statusCode : undefined;
  return {
    ...fields,
    ...(slackError !== undefined ? { slackError } : {}),
    ...(typeof status === 'number' ? { status } : {}),
  };
}

/**
 * Call a Web API method; the answer is JSON from the edge, returned as an untyped record for the guards in
 * `payload.ts` to read. A refused call (`ok: false`) throws web-api's platform error (see {@link slackErrorCode}).
 */
export async function callSlack(
  client: WebClient,
  method: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result: unknown = await client.apiCall(method, args);
  return result !== null && typeof result === 'object' ? (result as Record<string, unknown>) : {};
}
