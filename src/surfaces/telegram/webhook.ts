/**
 * Webhook mode, when serve has a public address (`ASK_LATER_PUBLIC_URL`): Telegram POSTs each update to
 * `<public URL>/telegram/webhook` with the `X-Telegram-Bot-Api-Secret-Token` header set at `setWebhook`. Every
 * request's header is checked (in constant time) before its body is read; a wrong or missing one is refused with
 * 401 and nothing else happens. The secret is derived from the bot token, so every replica registers and checks the
 * same one without another setting. An accepted update is answered 200 at once and handled after (Telegram would
 * send it again on a slow answer; `update_id` claims make that harmless anyway).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Update } from 'grammy/types';
import { errorFields, type Logger } from '../../core/logger.js';

export const TELEGRAM_WEBHOOK_PATH = '/telegram/webhook';

/** Telegram's header carrying the webhook's secret token. */
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** Updates are small; a body past this is not one. */
const BODY_MAX = 1_000_000;

/** The webhook's secret for a bot token: 43 url-safe characters of an HMAC of it (Telegram allows 1–256 `A-Za-z0-9_-`). */
export function webhookSecret(token: string): string {
  return createHmac('sha256', token).update('ask-later telegram webhook').digest('base64url');
}

export interface WebhookOptions {
  readonly secret: string;
  readonly handle: (update: Update) => Promise<void>;
  readonly logger: Logger;
}

/** The HTTP handler for {@link TELEGRAM_WEBHOOK_PATH}. */
export function createWebhookHandler(
  options: WebhookOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  const expected = Buffer.from(options.secret);
  return (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const given = Buffer.from(String(request.headers[SECRET_HEADER] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      options.logger.warn({}, 'telegram: webhook request refused (wrong or missing secret token)');
      request.resume();
      response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' }).end('Wrong secret token.');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_MAX) chunks.push(chunk);
    });
    request.on('end', () => {
      let update: unknown;
      try {
        update = size > BODY_MAX ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        update = undefined;
      }
      const id = (update as { update_id?: unknown } | undefined)?.update_id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
        response
          .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Expected a Telegram update (JSON with update_id).');
        return;
      }
      response.writeHead(200).end();
      options
        .handle(update as Update)
        .catch((error: unknown) =>
          options.logger.error({ update: id, ...errorFields(error) }, 'telegram: update failed'),
        );
    });
    request.on('error', () => response.destroy());
  };
}
