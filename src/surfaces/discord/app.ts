/**
 * The Discord transport: a discord.js gateway client with the `Guilds` intent only (no privileged intents: it needs
 * interactions, which every bot gets, and the guild's roles for role allow-lists). At start it logs in, waits for
 * the guild, and registers `/questions` (in `DISCORD_GUILD_ID` when set, where it appears at once; else globally).
 * Interactions go through the pipeline (`respond.ts`); nothing is thrown out of a listener. Gateway drops are discord.js's
 * business (it resumes the session, or identifies again); they are logged here with codes only.
 */
import {
  ApplicationCommandType,
  Client,
  type ClientOptions,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  InteractionContextType,
  type REST,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPutAPIApplicationCommandsJSONBody,
  Routes,
  Status,
} from 'discord.js';
import type { DiscordConfig } from '../../config/serve.js';
import { errorFields, type Logger } from '../../core/logger.js';
import type { InteractionService } from '../interactions.js';
import { QUESTIONS_COMMAND } from './parse.js';
import { interactionIds } from './payload.js';
import { DiscordResponder } from './respond.js';
import { discordErrorFields } from './rest.js';

export interface DiscordAppOptions {
  readonly config: DiscordConfig;
  readonly interactions: InteractionService;
  readonly logger: Logger;
  /** Handlers' deferral threshold (default 1500 ms); tests use 0 to take the deferred path. */
  readonly deferAfterMs?: number;
  /** How long `start` waits for the gateway (default 30 s). */
  readonly startTimeoutMs?: number;
  /** REST retries of 5xx / network failures (default discord.js's 3); tests use 0. */
  readonly restRetries?: number;
}

export interface DiscordApp {
  /**
   * Log in, wait for the guild, register `/questions`. Throws what failed (a 401 for a refused token: see
   * {@link isTokenRefused}; a `timeout` when the gateway never got ready).
   */
  start(): Promise<void>;
  /** The bot's user id once started. */
  botUserId(): string | undefined;
  /** Whether the gateway session is up (READY or RESUMED, not reconnecting). */
  connected(): boolean;
  /** Close the gateway connection (interactions stop arriving), then wait for the ones being answered. */
  stop(): Promise<void>;
}

/** `/questions`: in guild channels only (context 0; the inbox lists the projects routed to the channel). */
export const QUESTIONS_COMMAND_JSON: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: QUESTIONS_COMMAND,
  description: 'Questions from coding agents waiting for an answer in this channel',
  type: ApplicationCommandType.ChatInput,
  contexts: [InteractionContextType.Guild],
};

export function createDiscordApp(options: DiscordAppOptions): DiscordApp {
  const { config, logger: log } = options;
  const clientOptions: ClientOptions = {
    intents: [GatewayIntentBits.Guilds],
    rest: {
      ...(config.apiUrl !== undefined ? { api: config.apiUrl } : {}),
      ...(options.restRetries !== undefined ? { retries: options.restRetries } : {}),
    },
    // Nobody is ever pinged by what ask-later writes (question and note texts come from agents and people).
    allowedMentions: { parse: [] },
  };
  const client = new Client(clientOptions);
  const responder = new DiscordResponder({
    interactions: options.interactions,
    logger: log,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
  });

  /** Interactions being answered: `stop` waits for them. */
  const inFlight = new Set<Promise<void>>();
  client.on(Events.InteractionCreate, (interaction) => {
    const running: Promise<void> = responder
      .handle(interaction)
      .catch((error: unknown) => {
        log.error({ ...interactionIds(interaction), ...discordErrorFields(error) }, 'discord: interaction failed');
      })
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  });
  client.on(Events.ShardDisconnect, (event, shard) => {
    log.warn({ shard, code: event.code }, 'discord: gateway closed for good');
  });
  client.on(Events.ShardReconnecting, (shard) => log.warn({ shard }, 'discord: gateway reconnecting'));
  client.on(Events.ShardResume, (shard, replayed) => log.info({ shard, replayed }, 'discord: gateway resumed'));
  client.on(Events.ShardReady, (shard) => log.info({ shard }, 'discord: gateway session ready'));
  client.on(Events.ShardError, (error, shard) => log.warn({ shard, ...errorFields(error) }, 'discord: gateway error'));
  client.on(Events.Error, (error) => log.error(errorFields(error), 'discord: client error'));

  return {
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await withTimeout(
        (async () => {
          await client.login(config.token);
          await ready;
        })(),
        options.startTimeoutMs ?? 30_000,
        'the Discord gateway did not get ready in time',
      );
      const applicationId = client.application?.id;
      if (applicationId === undefined) throw new Error('the gateway READY carried no application');
      await registerCommands(client.rest, applicationId, config.guildId);
      log.info(
        { guild: config.guildId, scope: config.guildId === undefined ? 'global' : 'guild' },
        'discord: /questions registered',
      );
    },
    botUserId: () => client.user?.id,
    // The manager's status stays Ready through reconnects; each shard's says whether its session is up now.
    connected: () => client.isReady() && client.ws.shards.every((shard) => shard.status === Status.Ready),
    async stop() {
      await client.destroy();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Bulk-overwrite the application's commands with `/questions`: in one guild, or globally. */
async function registerCommands(rest: REST, applicationId: string, guildId: string | undefined): Promise<void> {
  const body: RESTPutAPIApplicationCommandsJSONBody = [QUESTIONS_COMMAND_JSON];
  const route =
    guildId === undefined
      ? Routes.applicationCommands(applicationId)
      : Routes.applicationGuildCommands(applicationId, guildId);
  await rest.put(route, { body });
}

/** Whether a start failure means Discord refused the token (401 on REST, or the gateway's 4004). */
export function isTokenRefused(error: unknown): boolean {
  if (error instanceof DiscordAPIError) return error.status === 401;
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'TokenInvalid' || (error instanceof Error && error.message === 'Authentication failed');
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(what), { code: 'timeout' })), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
