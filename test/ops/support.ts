/**
 * `ask-later serve` in-process for the operations tests: a config of the test's own (routes, both platforms, one
 * key prefix shared by several replicas), the fake Slack Web API and the fake Discord, a recording logger per
 * replica, and signed Slack requests.
 */
import { inject } from 'vitest';
import type { RoutingRoute } from '../../src/config/routing.js';
import type { DiscordConfig, ServeConfig, SlackConfig } from '../../src/config/serve.js';
import { type ServeDeps, type ServeHandle, startServe } from '../../src/serve/run.js';
import type { FakeDiscord } from '../fakes/discord.js';
import { commandBody, type FakeSlackApi, interactionBody, postSigned } from '../fakes/slack-api.js';
import { RecordingLogger, TEST_RETRY } from '../surfaces/slack/harness.js';

export const OPS_SECRET = 'ops-signing-secret';

export interface Replica {
  readonly serve: ServeHandle;
  readonly logger: RecordingLogger;
  readonly config: ServeConfig;
  interact(payload: unknown): Promise<{ status: number; text: string }>;
  command(fields: Record<string, string>): Promise<{ status: number; text: string }>;
}

export interface ReplicaOptions {
  readonly prefix: string;
  /** The Redis it runs against (default `inject('redisUrl')`). */
  readonly url?: string;
  readonly slack?: FakeSlackApi;
  readonly discord?: FakeDiscord;
  readonly routes?: readonly RoutingRoute[];
  readonly slackConfig?: Partial<SlackConfig>;
  readonly discordConfig?: Partial<DiscordConfig>;
  readonly deps?: ServeDeps;
  /** Default `OPS_SECRET`. */
  readonly signingSecret?: string;
  /** Leave out `DISCORD_CHANNEL` (projects no route matches stay off Discord). */
  readonly noDiscordDefault?: boolean;
}

export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const logger = new RecordingLogger();
  const secret = options.signingSecret ?? OPS_SECRET;
  const config: ServeConfig = {
    store: { kind: 'redis', url: options.url ?? inject('redisUrl'), prefix: options.prefix },
    port: 0,
    host: '127.0.0.1',
    routes: options.routes ?? [],
    ...(options.slack
      ? {
          slack: {
            botToken: 'xoxb-ops',
            signingSecret: secret,
            channel: 'C0DEFAULT',
            apiUrl: options.slack.url,
            allowedUsers: [],
            ...options.slackConfig,
          },
        }
      : {}),
    ...(options.discord
      ? {
          discord: {
            token: options.discord.token,
            ...(options.noDiscordDefault ? {} : { channel: options.discord.channelId }),
            guildId: options.discord.guildId,
            apiUrl: options.discord.apiUrl,
            allowedUsers: [],
            allowedRoles: [],
            ...options.discordConfig,
          },
        }
      : {}),
  };
  const serve = await startServe(config, {
    logger,
    retryConfig: TEST_RETRY,
    bridge: { blockMs: 50, retryBaseMs: 10 },
    sweepMs: 0,
    ...options.deps,
    discord: { restRetries: 0, startTimeoutMs: 10_000, ...options.deps?.discord },
  });
  const endpoint = () => `http://127.0.0.1:${serve.port}/slack/events`;
  return {
    serve,
    logger,
    config,
    interact: (payload) =>
      postSigned(endpoint(), interactionBody(payload), 'application/x-www-form-urlencoded', { secret }),
    command: (fields) => postSigned(endpoint(), commandBody(fields), 'application/x-www-form-urlencoded', { secret }),
  };
}

/** A `/questions` slash command from `user` in `channel`. */
export function questionsCommand(channel: string, user: string, trigger: string): Record<string, string> {
  return {
    command: '/questions',
    text: '',
    team_id: 'T1',
    channel_id: channel,
    user_id: user,
    user_name: user.toLowerCase(),
    trigger_id: trigger,
    response_url: 'http://127.0.0.1:9/unused',
    api_app_id: 'A1',
    token: 'verification-token',
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
