/**
 * One JSON request with a hard time-out, for the Slack and Discord checks. Plain `fetch` rather than the bridge's
 * clients (web-api, discord.js REST): those retry and wait out rate limits, which a doctor must never do, and they
 * would pull Bolt and discord.js into the plugin's bundle, where `doctor` also runs. The URLs and headers are built
 * the way those clients build them (`surfaces/slack/web.ts`, `surfaces/discord/rest.ts`).
 */
import { withDeadline } from './deadline.js';

export interface JsonResponse {
  readonly status: number;
  /** The parsed body, or undefined when it was not JSON. */
  readonly body: unknown;
  /** `Retry-After` in seconds, on a 429. */
  readonly retryAfter?: number;
}

export async function requestJson(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<JsonResponse> {
  const work = (async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      status: response.status,
      body,
      ...(response.status === 429 && Number.isFinite(retryAfter) ? { retryAfter } : {}),
    };
  })();
  // AbortSignal.timeout covers the request and the body; the deadline covers anything else that could hang.
  return withDeadline(work, timeoutMs + 250);
}

/** `value` as a record, or an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A string field of a JSON object, if it is one. */
export function text(value: unknown, field: string): string | undefined {
  const found = record(value)[field];
  return typeof found === 'string' ? found : undefined;
}
