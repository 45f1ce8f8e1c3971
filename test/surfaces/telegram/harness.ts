/**
 * `ask-later serve` in-process against the fake Bot API (`test/support/fake-telegram.ts`) and the test Redis, driven
 * like Telegram drives it: the bot long-polls the fake (or takes its webhook), and a test injects taps and replies.
 */
import { expect, inject } from 'vitest';
import type { ServeConfig, TelegramConfig } from '../../../src/config/serve.js';
import type { Question } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { type CallbackData, formatCallbackData } from '../../../src/render/telegram/ids.js';
import { type ServeDeps, type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { FakeTelegram, type FakeUser, plainText } from '../../support/fake-telegram.js';
import { openTestStore, uniquePrefix } from '../../support/store.js';
import { RecordingLogger } from '../slack/harness.js';

export const CHAT = -1001234567890;
export const ANN: FakeUser = { id: 1111, first_name: 'Ann', username: 'ann' };
export const BOB: FakeUser = { id: 2222, first_name: 'Bob' };
export const STRANGER: FakeUser = { id: 9999, first_name: 'Eve' };

export interface TelegramHarness {
  readonly telegram: FakeTelegram;
  readonly store: RedisStore;
  readonly serve: ServeHandle;
  readonly logger: RecordingLogger;
  readonly config: ServeConfig;
  stop(): Promise<void>;
}

export interface TelegramHarnessOptions {
  readonly existing?: FakeTelegram;
  readonly telegramConfig?: Partial<TelegramConfig>;
  readonly config?: Partial<ServeConfig>;
  readonly deps?: ServeDeps;
  readonly prefix?: string;
}

export function telegramConfig(telegram: FakeTelegram, overrides: Partial<TelegramConfig> = {}): TelegramConfig {
  return { token: telegram.token, chat: String(CHAT), apiUrl: telegram.url, allowedUsers: [], ...overrides };
}

export async function startTelegramHarness(options: TelegramHarnessOptions = {}): Promise<TelegramHarness> {
  const telegram = options.existing ?? (await new FakeTelegram().start());
  if (!telegram.chats.has(CHAT)) telegram.addChat(CHAT, [ANN.id, BOB.id]);
  const logger = new RecordingLogger();
  const prefix = options.prefix ?? uniquePrefix();
  const config: ServeConfig = {
    store: { kind: 'redis', url: inject('redisUrl'), prefix },
    port: 0,
    host: '127.0.0.1',
    telegram: telegramConfig(telegram, options.telegramConfig),
    ...options.config,
  };
  const serve = await startServe(config, {
    logger,
    bridge: { blockMs: 50, retryBaseMs: 10 },
    sweepMs: 0,
    ...options.deps,
    telegram: { leaseMs: 1500, pollSeconds: 1, ...options.deps?.telegram },
  });
  const store = await openTestStore({ prefix });
  return {
    telegram,
    store,
    serve,
    logger,
    config,
    stop: async () => {
      await serve.stop();
      await store.close();
      if (!options.existing) await telegram.stop();
    },
  };
}

export function refOf(question: Pick<Question, 'project' | 'id'>): string {
  return formatQuestionRef(question.project, question.id);
}

export function data(value: CallbackData): string {
  return formatCallbackData(value);
}

/** The id of the question's Telegram message once the bridge posted and recorded it. */
export async function postedMessageId(store: RedisStore, question: Pick<Question, 'project' | 'id'>): Promise<number> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const current = await store.get(question.project, question.id);
      id = current?.messages.find((ref) => ref.platform === 'telegram')?.messageId;
      return id;
    })
    .toBeDefined();
  return Number(id);
}

/** The visible text of a message the fake holds. */
export function textOf(telegram: FakeTelegram, messageId: number): string {
  return plainText(telegram.message(CHAT, messageId)?.text ?? '');
}

/** The button texts of a message's keyboard, row by row. */
export function buttonsOf(telegram: FakeTelegram, messageId: number): string[][] {
  return (telegram.message(CHAT, messageId)?.replyMarkup?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
}
