/**
 * The Slack checks: the bot token is accepted (`auth.test`), the bot is a member of every routed channel
 * (`conversations.info` → `is_member`; with no `channels:read` scope, `conversations.history`, which answers
 * `not_in_channel`), the Home tab's scopes (`users.conversations`), and in Socket Mode the app-level token opens
 * connections (`apps.connections.open`).
 */
import type { SlackConfig } from '../../config/serve.js';
import { type CheckLine, fail, ok, warn } from './check.js';
import { describeNetworkError } from './deadline.js';
import { record, requestJson, text } from './http.js';

const SLACK_API = 'https://slack.com/api/';

/** Codes meaning "this token is no good". */
const REFUSED = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
]);

type SlackAnswer = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly error: string };

/** One Web API call, form-encoded with a Bearer token, as web-api sends it. Never throws. */
async function callSlack(
  config: SlackConfig,
  token: string,
  method: string,
  args: Record<string, string>,
  timeoutMs: number,
): Promise<SlackAnswer> {
  try {
    const response = await requestJson(
      `${config.apiUrl ?? SLACK_API}${method}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(args).toString(),
      },
      timeoutMs,
    );
    if (response.status === 429) return { error: 'ratelimited' };
    if (response.status !== 200) return { error: `HTTP ${response.status}` };
    const body = record(response.body);
    if (body.ok === true) return { ok: true, body };
    const code = text(body, 'error');
    return { error: code !== undefined && /^[a-z_]{1,64}$/.test(code) ? code : 'an unreadable answer' };
  } catch (error) {
    return { error: `network: ${describeNetworkError(error, timeoutMs)}` };
  }
}

function apiName(config: SlackConfig): string {
  return config.apiUrl !== undefined ? 'SLACK_API_URL' : 'slack.com';
}

function unreachable(config: SlackConfig, error: string): CheckLine {
  return fail(
    `Slack: no answer from the Web API at ${apiName(config)} (${error.replace(/^network: /, '')}) — check the network, proxy or SLACK_API_URL`,
  );
}

function isNetwork(answer: SlackAnswer): answer is { error: string } {
  return 'error' in answer && answer.error.startsWith('network: ');
}

async function checkChannel(
  config: SlackConfig,
  channel: string,
  botName: string,
  timeoutMs: number,
): Promise<CheckLine> {
  const invite = `invite it: /invite @${botName}`;
  const notFound = fail(
    `Slack: channel ${channel} was not found — use the id from the channel's details (C…); for a private channel, invite the bot first: /invite @${botName}`,
  );
  const info = await callSlack(config, config.botToken, 'conversations.info', { channel }, timeoutMs);
  if (isNetwork(info)) return unreachable(config, info.error);
  if ('ok' in info) {
    const found = record(info.body.channel);
    const name = typeof found.name === 'string' ? `${channel} (#${found.name})` : channel;
    if (found.is_archived === true)
      return fail(`Slack: ${name} is archived — unarchive it or route to another channel`);
    if (found.is_member === false) return fail(`Slack: the bot is not in ${name} — ${invite}`);
    return ok(`Slack: the bot is in ${name}`);
  }
  if (info.error === 'channel_not_found') return notFound;
  if (info.error !== 'missing_scope') return fail(`Slack: cannot check ${channel} (${info.error}) — ${invite}`);
  // Without channels:read (an app installed from an older manifest), history tells membership apart: not_in_channel.
  const history = await callSlack(config, config.botToken, 'conversations.history', { channel, limit: '1' }, timeoutMs);
  if (isNetwork(history)) return unreachable(config, history.error);
  if ('ok' in history) return ok(`Slack: the bot is in ${channel}`);
  if (history.error === 'not_in_channel') return fail(`Slack: the bot is not in ${channel} — ${invite}`);
  if (history.error === 'channel_not_found') return notFound;
  return warn(
    `Slack: cannot check whether the bot is in ${channel} (${history.error}) — give the app channels:history (groups:history for a private channel) and make sure it is in: /invite @${botName}`,
  );
}

/**
 * The Home tab lists a person's questions by the channels they are in (`users.conversations`): without
 * `channels:read` and `groups:read` it shows nothing. Undefined when the scopes are there (no line: the channel
 * lines already say the bot is fine).
 */
async function checkHomeScopes(
  config: SlackConfig,
  botUser: string,
  timeoutMs: number,
): Promise<CheckLine | undefined> {
  const args = { user: botUser, types: 'public_channel,private_channel', limit: '1' };
  const answer = await callSlack(config, config.botToken, 'users.conversations', args, timeoutMs);
  if (isNetwork(answer)) return unreachable(config, answer.error);
  if ('ok' in answer) return undefined;
  return warn(
    `Slack: the Home tab cannot tell which channels a person is in (${answer.error}) — add the bot scopes channels:read and groups:read (manifest.yml) and reinstall the app`,
  );
}

/** @param channels every channel some project is routed to (the default one first). */
export async function checkSlack(
  config: SlackConfig,
  channels: readonly string[],
  timeoutMs: number,
): Promise<CheckLine[]> {
  const auth = await callSlack(config, config.botToken, 'auth.test', {}, timeoutMs);
  if (isNetwork(auth)) return [unreachable(config, auth.error)];
  if (!('ok' in auth)) {
    if (REFUSED.has(auth.error)) {
      return [
        fail(
          `Slack refused SLACK_BOT_TOKEN (${auth.error}) — use the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions; reinstall the app if it was revoked`,
        ),
      ];
    }
    return [fail(`Slack: auth.test failed (${auth.error}) — check SLACK_BOT_TOKEN and ${apiName(config)}`)];
  }
  const botName = text(auth.body, 'user') ?? '<bot name>';
  const team = text(auth.body, 'team');
  const lines: CheckLine[] = [ok(`Slack: signed in as @${botName}${team !== undefined ? ` to ${team}` : ''}`)];
  lines.push(...(await Promise.all(channels.map((channel) => checkChannel(config, channel, botName, timeoutMs)))));
  const botUser = text(auth.body, 'user_id');
  if (botUser !== undefined) {
    const home = await checkHomeScopes(config, botUser, timeoutMs);
    if (home) lines.push(home);
  }
  if (config.appToken !== undefined) {
    const socket = await callSlack(config, config.appToken, 'apps.connections.open', {}, timeoutMs);
    if (isNetwork(socket)) lines.push(unreachable(config, socket.error));
    else if ('ok' in socket) lines.push(ok('Slack Socket Mode: SLACK_APP_TOKEN opens connections'));
    else
      lines.push(
        fail(
          `Slack refused SLACK_APP_TOKEN (${socket.error}) — create an app-level token with connections:write (Basic Information → App-Level Tokens) and turn Socket Mode on`,
        ),
      );
  }
  return lines;
}
