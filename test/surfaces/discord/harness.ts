/**
 * `ask-later serve` in-process against the fake Discord (REST + gateway) and the test Redis, driven like Discord
 * drives it: INTERACTION_CREATE dispatches on the gateway to a real discord.js client. Optionally with Slack too
 * (the fake Slack Web API and signed requests, as in the Slack harness), for a project routed to both.
 */
import { expect, inject } from 'vitest';
import type { DiscordConfig, ServeConfig, SlackConfig } from '../../../src/config/serve.js';
import type { Question, QuestionSpec } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { formatCustomId } from '../../../src/render/discord/ids.js';
import { type ServeDeps, type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { FakeDiscord, type FakeDiscordOptions, type Member } from '../../fakes/discord.js';
import { FakeSlackApi, interactionBody, postSigned } from '../../fakes/slack-api.js';
import { openTestStore, setSpec, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { RecordingLogger, Responder, SECRET, CHANNEL as SLACK_CHANNEL, TEST_RETRY } from '../slack/harness.js';

export { RecordingLogger };

export interface DiscordHarness {
  readonly discord: FakeDiscord;
  readonly store: RedisStore;
  readonly serve: ServeHandle;
  readonly logger: RecordingLogger;
  readonly config: ServeConfig;
  /** Set when started `withSlack`. */
  readonly slack?: FakeSlackApi;
  readonly responder?: Responder;
  /** POST a signed Slack interactive payload (with Slack only). */
  slackInteract(payload: unknown): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

export interface DiscordHarnessOptions {
  readonly fake?: FakeDiscordOptions;
  /** A fake Discord started before (to schedule failures before the bridge posts); stopped with the harness. */
  readonly existing?: FakeDiscord;
  readonly discordConfig?: Partial<DiscordConfig>;
  readonly deps?: ServeDeps;
  readonly prefix?: string;
  /** Serve Slack as well (HTTP mode against a fake Web API). */
  readonly withSlack?: boolean;
  readonly slackConfig?: Partial<SlackConfig>;
  /** More of serve's config (another platform, routes). */
  readonly config?: Partial<ServeConfig>;
}

export async function startDiscordHarness(options: DiscordHarnessOptions = {}): Promise<DiscordHarness> {
  const discord = options.existing ?? (await new FakeDiscord(options.fake).start());
  const slack = options.withSlack ? await new FakeSlackApi().start() : undefined;
  const responder = options.withSlack ? await new Responder().start() : undefined;
  const logger = new RecordingLogger();
  const prefix = options.prefix ?? uniquePrefix();
  const config: ServeConfig = {
    store: { kind: 'redis', url: inject('redisUrl'), prefix: prefix },
    port: 0,
    host: '127.0.0.1',
    discord: {
      token: discord.token,
      channel: discord.channelId,
      guildId: discord.guildId,
      apiUrl: discord.apiUrl,
      allowedUsers: [],
      allowedRoles: [],
      ...options.discordConfig,
    },
    ...(slack
      ? {
          slack: {
            botToken: 'xoxb-test',
            signingSecret: SECRET,
            channel: SLACK_CHANNEL,
            apiUrl: slack.url,
            allowedUsers: [],
            ...options.slackConfig,
          },
        }
      : {}),
    ...options.config,
  };
  const serve = await startServe(config, {
    logger,
    retryConfig: TEST_RETRY,
    bridge: { blockMs: 50, retryBaseMs: 10 },
    sweepMs: 0,
    ...(responder ? { respond: respondTo } : {}),
    ...options.deps,
    discord: { restRetries: 0, startTimeoutMs: 10_000, ...options.deps?.discord },
  });
  const store = await openTestStore({ prefix });
  return {
    discord,
    store,
    serve,
    logger,
    config,
    ...(slack ? { slack } : {}),
    ...(responder ? { responder } : {}),
    slackInteract: (payload) =>
      postSigned(
        `http://127.0.0.1:${serve.port}/slack/events`,
        interactionBody(payload),
        'application/x-www-form-urlencoded',
        { secret: SECRET },
      ),
    stop: async () => {
      await serve.stop();
      await store.close();
      await responder?.stop();
      await slack?.stop();
      await discord.stop();
    },
  };
}

/** Posts a Slack ephemeral reply to the Responder (the `response_url` stand-in). */
async function respondTo(responseUrl: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
}

export function refOf(question: Pick<Question, 'project' | 'id'>): string {
  return formatQuestionRef(question.project, question.id);
}

/** Custom ids of a question message's controls. */
export function ids(question: Pick<Question, 'project' | 'id'>) {
  const ref = refOf(question);
  return {
    pick: formatCustomId({ kind: 'pick', ref }),
    notes: formatCustomId({ kind: 'notes', ref }),
    send: formatCustomId({ kind: 'send', ref }),
    remove: formatCustomId({ kind: 'remove', ref }),
    removeYes: formatCustomId({ kind: 'remove-yes', ref }),
    notesModal: formatCustomId({ kind: 'notes-modal', ref }),
    /** A set member's select. */
    pickOf: (member: number) => formatCustomId({ kind: 'pick', ref, member }),
    /** The notes menu's select of a set member. */
    notesFor: (member: number) => formatCustomId({ kind: 'notes-for', ref, member }),
    notesMenuModal: formatCustomId({ kind: 'notes-modal', ref, menu: true }),
  };
}

export function member(userId: string, extra: Partial<Member> = {}): Member {
  return { userId, username: `user-${userId.slice(-3)}`, globalName: null, nick: `Nick ${userId.slice(-3)}`, ...extra };
}

/** People, as 17-digit snowflakes. */
export const ANA = '2000000000000000001';
export const BOB = '2000000000000000002';
export const EVE = '2000000000000000003';

/** Park a question and wait for its Discord message; returns both (the message id on Discord). */
export function parkAndPost(h: DiscordHarness, overrides: Parameters<typeof spec>[0] = {}, project = uniqueProject()) {
  return posted(h, project, spec(overrides));
}

/** Park a set (default: `setSpec()`, three members) and wait for its Discord message. */
export function parkSetAndPost(
  h: DiscordHarness,
  overrides: Parameters<typeof setSpec>[0] = {},
  project = uniqueProject(),
) {
  return posted(h, project, setSpec(overrides));
}

async function posted(h: DiscordHarness, project: string, questionSpec: QuestionSpec) {
  const question = await h.store.park(project, questionSpec);
  const onDiscord = async () =>
    (await h.store.get(project, question.id))?.messages.filter((m) => m.platform === 'discord') ?? [];
  await expect.poll(onDiscord).toHaveLength(1);
  const ref = (await onDiscord())[0];
  if (!ref) throw new Error('not posted on Discord');
  return { question, messageId: ref.messageId };
}

/** Text of a message body (content and embeds) for `includes` checks. */
export function textOf(body: unknown): string {
  return JSON.stringify(body);
}

/** The first `custom_id` in a message body that starts with `prefix` (inbox ids carry state; read, not built). */
export function customIdIn(body: unknown, prefix: string): string | undefined {
  const found = new RegExp(`"custom_id":"(${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^"]*)"`).exec(
    JSON.stringify(body),
  );
  return found?.[1];
}
