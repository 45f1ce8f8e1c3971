/**
 * The Discord checks: the bot token is accepted (`GET /users/@me`), the bot sees every routed channel and it is one
 * questions can be posted in (`GET /channels/{id}`), and `/questions` is registered where the config says
 * (`GET /applications/{app}/guilds/{guild}/commands`, or the global commands). REST v10 with `Bot <token>`, as
 * discord.js sends it (`surfaces/discord/rest.ts`); `DISCORD_API_URL` is the base without a version.
 */
import type { DiscordConfig } from '../../config/serve.js';
import { type CheckLine, fail, ok, warn } from './check.js';
import { describeNetworkError } from './deadline.js';
import { type JsonResponse, record, requestJson, text } from './http.js';

const DISCORD_API = 'https://discord.com/api';

/** Channel types no message can be posted in directly (category, directory, forum, media). */
const NOT_POSTABLE: Readonly<Record<number, string>> = {
  4: 'a category',
  14: 'a directory',
  15: 'a forum',
  16: 'a media channel',
};

type DiscordAnswer = JsonResponse | { readonly network: string };

async function get(config: DiscordConfig, path: string, timeoutMs: number): Promise<DiscordAnswer> {
  try {
    return await requestJson(
      `${config.apiUrl ?? DISCORD_API}/v10${path}`,
      {
        method: 'GET',
        headers: {
          authorization: `Bot ${config.token}`,
          'user-agent': 'DiscordBot (https://github.com/ask-later/ask-later, 1) ask-later doctor',
        },
      },
      timeoutMs,
    );
  } catch (error) {
    return { network: describeNetworkError(error, timeoutMs) };
  }
}

/** Discord's error: `50001 Missing Access`, or the HTTP status. */
function describeRefusal(answer: JsonResponse): string {
  const code = record(answer.body).code;
  const message = text(answer.body, 'message');
  if (typeof code === 'number' && code !== 0 && message !== undefined && /^[\w .'-]{1,60}$/.test(message)) {
    return `${code} ${message}`;
  }
  return `HTTP ${answer.status}`;
}

function apiName(config: DiscordConfig): string {
  return config.apiUrl !== undefined ? 'DISCORD_API_URL' : 'discord.com';
}

function unreachable(config: DiscordConfig, why: string): CheckLine {
  return fail(
    `Discord: no answer from the REST API at ${apiName(config)} (${why}) — check the network, proxy or DISCORD_API_URL`,
  );
}

const REFUSED =
  "Discord refused DISCORD_TOKEN (401) — reset the token on the Developer Portal's Bot page and paste it without 'Bot '";

async function checkChannel(config: DiscordConfig, channel: string, timeoutMs: number): Promise<CheckLine[]> {
  const answer = await get(config, `/channels/${channel}`, timeoutMs);
  if ('network' in answer) return [unreachable(config, answer.network)];
  if (answer.status === 403) {
    return [
      fail(
        `Discord: the bot cannot see channel ${channel} (${describeRefusal(answer)}) — add the bot to that server (README: Discord) and give it View Channel there`,
      ),
    ];
  }
  if (answer.status === 404) {
    return [
      fail(
        `Discord: channel ${channel} does not exist (${describeRefusal(answer)}) — use the channel's id: Developer Mode → right-click the channel → Copy Channel ID`,
      ),
    ];
  }
  if (answer.status !== 200) return [fail(`Discord: cannot read channel ${channel} (${describeRefusal(answer)})`)];
  const name = text(answer.body, 'name');
  const shown = name !== undefined ? `${channel} (#${name})` : channel;
  const type = record(answer.body).type;
  const kind = typeof type === 'number' ? NOT_POSTABLE[type] : undefined;
  if (kind !== undefined) return [fail(`Discord: channel ${shown} is ${kind} — route questions to a text channel`)];
  const lines = [ok(`Discord: the bot sees channel ${shown}`)];
  const guild = text(answer.body, 'guild_id');
  if (config.guildId !== undefined && guild !== undefined && guild !== config.guildId) {
    lines.push(
      warn(
        `Discord: channel ${channel} is in server ${guild}, not DISCORD_GUILD_ID ${config.guildId} — /questions is registered there, not where the questions are: set DISCORD_GUILD_ID to ${guild}`,
      ),
    );
  }
  return lines;
}

async function checkCommand(config: DiscordConfig, applicationId: string, timeoutMs: number): Promise<CheckLine> {
  const where = config.guildId !== undefined ? `in server ${config.guildId}` : 'globally';
  const path =
    config.guildId !== undefined
      ? `/applications/${applicationId}/guilds/${config.guildId}/commands`
      : `/applications/${applicationId}/commands`;
  const answer = await get(config, path, timeoutMs);
  if ('network' in answer) return unreachable(config, answer.network);
  if (answer.status === 403) {
    return fail(
      `Discord: cannot read the commands ${where} (${describeRefusal(answer)}) — add the bot to that server with the bot and applications.commands scopes (README: Discord)`,
    );
  }
  if (answer.status !== 200 || !Array.isArray(answer.body)) {
    return warn(`Discord: cannot check /questions ${where} (${describeRefusal(answer)})`);
  }
  if (answer.body.some((command) => text(command, 'name') === 'questions')) {
    return ok(`Discord: /questions is registered ${where}`);
  }
  const slow = config.guildId === undefined ? ' (global commands can take up to an hour to show)' : '';
  return warn(
    `Discord: /questions is not registered ${where} yet — start ask-later serve: it registers the command when it starts${slow}`,
  );
}

/** @param channels every channel some project is routed to (the default one first). */
export async function checkDiscord(
  config: DiscordConfig,
  channels: readonly string[],
  timeoutMs: number,
): Promise<CheckLine[]> {
  const me = await get(config, '/users/@me', timeoutMs);
  if ('network' in me) return [unreachable(config, me.network)];
  if (me.status === 401) return [fail(REFUSED)];
  if (me.status !== 200) {
    return [
      fail(`Discord: GET /users/@me failed (${describeRefusal(me)}) — check DISCORD_TOKEN and ${apiName(config)}`),
    ];
  }
  const botName = text(me.body, 'username') ?? 'the bot';
  const botId = text(me.body, 'id');
  const lines: CheckLine[] = [ok(`Discord: signed in as ${botName}${botId !== undefined ? ` (${botId})` : ''}`)];
  // The application's id names the command routes; for most bots it equals the bot user's id.
  const application = await get(config, '/applications/@me', timeoutMs);
  const applicationId =
    !('network' in application) && application.status === 200 ? text(application.body, 'id') : botId;
  const [channelLines, command] = await Promise.all([
    Promise.all(channels.map((channel) => checkChannel(config, channel, timeoutMs))),
    applicationId !== undefined ? checkCommand(config, applicationId, timeoutMs) : undefined,
  ]);
  lines.push(...channelLines.flat());
  if (command) lines.push(command);
  return lines;
}
