/**
 * The Telegram transport: at start it checks the token (`getMe`, which also gives the bot's id), registers
 * `/questions` in the command menu, and then receives updates either by long polling (one poller per bot token
 * across replicas, `poller.ts`) or, when serve has a public address, by webhook (`webhook.ts`). Updates go through
 * the pipeline (`respond.ts`); nothing is thrown out of a handler.
 */
import type { Update } from 'grammy/types';
import type { Logger } from '../../core/logger.js';
import type { InteractionService } from '../interactions.js';
import { telegramErrorCode, telegramErrorFields } from './api.js';
import { TelegramMembership } from './membership.js';
import { QUESTIONS_COMMAND } from './parse.js';
import { ALLOWED_UPDATES, type PollerLease, TelegramPoller } from './poller.js';
import { TelegramResponder } from './respond.js';
import type { TelegramSender } from './send.js';
import { createWebhookHandler, TELEGRAM_WEBHOOK_PATH, webhookSecret } from './webhook.js';

export interface TelegramAppOptions {
  readonly api: TelegramSender;
  readonly token: string;
  readonly interactions: InteractionService;
  readonly logger: Logger;
  /** Claim an update once across replicas (serve: a store lease per `update_id`). */
  readonly claimUpdate: (updateId: number) => Promise<boolean>;
  /** The poller lease (long polling); unused in webhook mode. */
  readonly lease: PollerLease;
  /** serve's public origin: webhook mode at `<publicUrl>/telegram/webhook`; absent: long polling. */
  readonly publicUrl?: string;
  readonly leaseMs?: number;
  readonly pollSeconds?: number;
}

export interface TelegramApp {
  /** Check the token and start receiving updates. Throws what failed (see {@link isTelegramTokenRefused}). */
  start(): Promise<void>;
  readonly mode: 'polling' | 'webhook';
  /** The webhook's HTTP handler (webhook mode), for serve's server at {@link TELEGRAM_WEBHOOK_PATH}. */
  readonly webhook?: (
    request: import('node:http').IncomingMessage,
    response: import('node:http').ServerResponse,
  ) => void;
  /** Whether updates can arrive: started, and (polling) the token was not refused since. */
  connected(): boolean;
  /** Stop receiving, finish the updates in hand, hand the poller lease over. */
  stop(): Promise<void>;
}

export { TELEGRAM_WEBHOOK_PATH };

export function createTelegramApp(options: TelegramAppOptions): TelegramApp {
  const { api, logger: log } = options;
  let botId: number | undefined;
  let started = false;
  const responder = new TelegramResponder({
    api,
    interactions: options.interactions,
    membership: new TelegramMembership(api, log),
    logger: log,
    claimUpdate: options.claimUpdate,
    botId: () => botId,
  });
  const inFlight = new Set<Promise<void>>();
  const handle = (update: Update): Promise<void> => {
    const running: Promise<void> = responder.handle(update).finally(() => inFlight.delete(running));
    inFlight.add(running);
    return running;
  };
  const poller =
    options.publicUrl === undefined
      ? new TelegramPoller({
          api,
          lease: options.lease,
          handle,
          logger: log,
          ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
          ...(options.pollSeconds !== undefined ? { pollSeconds: options.pollSeconds } : {}),
        })
      : undefined;
  const secret = webhookSecret(options.token);
  let stopped = false;
  return {
    mode: poller === undefined ? 'webhook' : 'polling',
    ...(poller === undefined
      ? {
          webhook: createWebhookHandler({
            secret,
            logger: log,
            handle: (update) => (stopped ? Promise.resolve() : handle(update)),
          }),
        }
      : {}),
    async start() {
      const me = await api.getMe();
      botId = me.id;
      await api
        .setMyCommands([{ command: QUESTIONS_COMMAND, description: 'Questions from coding agents waiting here' }])
        .catch((error: unknown) => log.warn(telegramErrorFields(error), 'telegram: /questions not registered'));
      if (poller === undefined) {
        await api.setWebhook(`${options.publicUrl}${TELEGRAM_WEBHOOK_PATH}`, {
          secret_token: secret,
          allowed_updates: [...ALLOWED_UPDATES],
        });
        log.info({ bot: botId }, 'telegram: webhook set');
      } else {
        poller.start();
        log.info({ bot: botId }, 'telegram: long polling (one replica polls at a time)');
      }
      started = true;
    },
    connected: () => started && !stopped,
    async stop() {
      stopped = true;
      await poller?.stop();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Whether a start failure means Telegram refused the token (401 Unauthorized, 404 for a malformed one). */
export function isTelegramTokenRefused(error: unknown): boolean {
  const code = telegramErrorCode(error);
  return code === 401 || code === 404;
}
