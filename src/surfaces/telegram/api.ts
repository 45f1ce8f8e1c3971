/**
 * Telegram's Bot API as ask-later calls it: grammY's `Api` on the configured root (`TELEGRAM_API_URL`, a
 * self-hosted Bot API server, a local fake in tests), with Telegram's 429 honoured: a call Telegram answers with
 * `retry_after` is tried again after that wait, a few times, unless the wait is longer than a call may take (then
 * the 429 is thrown, and the bridge's back-off takes over). What may be logged about a failure is said here too.
 */
import { autoRetry } from '@grammyjs/auto-retry';
import { Api, GrammyError, HttpError } from 'grammy';
import { errorFields } from '../../core/logger.js';

export interface TelegramApiOptions {
  readonly token: string;
  /** Bot API root without a trailing slash (default `https://api.telegram.org`). */
  readonly apiUrl?: string;
  /** Waits of a 429 longer than this are not waited out here (default 30 s). */
  readonly retryAfterMaxMs?: number;
  /** 429s waited out per call (default 3). */
  readonly retries?: number;
}

export function createTelegramApi(options: TelegramApiOptions): Api {
  const api = new Api(options.token, {
    ...(options.apiUrl !== undefined ? { apiRoot: options.apiUrl } : {}),
    // A long poll holds a call for up to its own timeout; the client's must be longer.
    timeoutSeconds: 60,
  });
  // grammY's own plugin waits out Telegram's `retry_after`; 5xx and network errors are thrown to the bridge's back-off.
  api.config.use(
    autoRetry({
      maxDelaySeconds: (options.retryAfterMaxMs ?? 30_000) / 1000,
      maxRetryAttempts: options.retries ?? 3,
      rethrowInternalServerErrors: true,
      rethrowHttpErrors: true,
    }),
  );
  return api;
}

/** Telegram's error code (400, 403, 409, 429…) of a failed call, if Telegram answered. */
export function telegramErrorCode(error: unknown): number | undefined {
  return error instanceof GrammyError ? error.error_code : undefined;
}

/** Telegram's description of a failed call (`Bad Request: chat not found`), for matching; never logged whole. */
export function telegramDescription(error: unknown): string {
  return error instanceof GrammyError ? error.description : '';
}

/** The seconds Telegram asked to wait (429), if it did. */
export function telegramRetryAfter(error: unknown): number | undefined {
  return error instanceof GrammyError ? error.parameters.retry_after : undefined;
}

/**
 * What may be logged about a Telegram failure: the method, Telegram's code and the error's kind. Never the
 * description or message (they can quote the request), never the URL (it carries the token).
 */
export function telegramErrorFields(error: unknown): Record<string, unknown> {
  if (error instanceof GrammyError) return { error: 'GrammyError', code: error.error_code, method: error.method };
  if (error instanceof HttpError) {
    const cause = errorFields(error.error);
    return { error: 'HttpError', ...(cause.code !== undefined ? { code: cause.code } : {}) };
  }
  return errorFields(error);
}
