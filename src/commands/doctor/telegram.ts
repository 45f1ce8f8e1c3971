/**
 * The Telegram checks: the bot token is accepted (`getMe`), and the bot can post in every routed chat (`getChat`
 * finds it; `getChatMember` of the bot says it is in it and, in a channel, may post). Plain `fetch` to
 * `<TELEGRAM_API_URL>/bot<token>/<method>`, as grammY calls it (`surfaces/telegram/api.ts`); no line quotes the URL,
 * which carries the token.
 */
import type { TelegramConfig } from '../../config/serve.js';
import { type CheckLine, fail, ok } from './check.js';
import { describeNetworkError } from './deadline.js';
import { record, requestJson, text } from './http.js';

const TELEGRAM_API = 'https://api.telegram.org';

type Answer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly why: string; readonly status?: number }
  | { readonly network: string };

async function call(
  config: TelegramConfig,
  method: string,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<Answer> {
  try {
    const answer = await requestJson(
      `${config.apiUrl ?? TELEGRAM_API}/bot${config.token}/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      timeoutMs,
    );
    const json = record(answer.body);
    if (json.ok === true) return { ok: true, result: json.result };
    const description = text(json, 'description');
    // Telegram's descriptions are short English phrases; anything else is shown as its status only.
    const why =
      description !== undefined && /^[\w :;'".,()-]{1,120}$/.test(description) ? description : `HTTP ${answer.status}`;
    return { ok: false, why, status: answer.status };
  } catch (error) {
    return { network: describeNetworkError(error, timeoutMs) };
  }
}

function apiName(config: TelegramConfig): string {
  return config.apiUrl !== undefined ? 'TELEGRAM_API_URL' : 'api.telegram.org';
}

function unreachable(config: TelegramConfig, why: string): CheckLine {
  return fail(
    `Telegram: no answer from the Bot API at ${apiName(config)} (${why}) — check the network, proxy or TELEGRAM_API_URL`,
  );
}

async function checkChat(config: TelegramConfig, chat: string, botId: number, timeoutMs: number): Promise<CheckLine> {
  const found = await call(config, 'getChat', { chat_id: chat }, timeoutMs);
  if ('network' in found) return unreachable(config, found.network);
  if (!found.ok) {
    return fail(
      `Telegram: the bot cannot see chat ${chat} (${found.why}) — add the bot to the chat, and check the chat id (a group's starts with -100)`,
    );
  }
  const title = text(found.result, 'title') ?? text(found.result, 'username');
  const type = text(found.result, 'type') ?? 'chat';
  const shown = `${chat}${title !== undefined ? ` (${title.slice(0, 60)})` : ''}`;
  if (type === 'private') return ok(`Telegram: the bot can post in the private chat ${shown}`);
  const member = await call(config, 'getChatMember', { chat_id: chat, user_id: botId }, timeoutMs);
  if ('network' in member) return unreachable(config, member.network);
  if (!member.ok) return fail(`Telegram: cannot read the bot's membership of chat ${shown} (${member.why})`);
  const status = text(member.result, 'status');
  const rights = record(member.result);
  if (status === 'left' || status === 'kicked')
    return fail(`Telegram: the bot is not in chat ${shown} — add it to the chat again`);
  if (type === 'channel' && !(status === 'administrator' && rights.can_post_messages === true)) {
    return fail(
      `Telegram: the bot may not post in channel ${shown} — make it an administrator allowed to post messages`,
    );
  }
  if (status === 'restricted' && rights.can_send_messages === false) {
    return fail(`Telegram: the bot may not send messages in chat ${shown} — lift its restriction`);
  }
  return ok(`Telegram: the bot can post in ${type} ${shown}`);
}

/** @param chats every chat some project is routed to (the default one first). */
export async function checkTelegram(
  config: TelegramConfig,
  chats: readonly string[],
  timeoutMs: number,
): Promise<CheckLine[]> {
  const me = await call(config, 'getMe', {}, timeoutMs);
  if ('network' in me) return [unreachable(config, me.network)];
  if (!me.ok) {
    return [
      me.status === 401 || me.status === 404
        ? fail('Telegram refused TELEGRAM_BOT_TOKEN — copy the token @BotFather gave (/token there shows it again)')
        : fail(`Telegram: getMe failed (${me.why}) — check TELEGRAM_BOT_TOKEN and ${apiName(config)}`),
    ];
  }
  const botId = record(me.result).id;
  const username = text(me.result, 'username');
  if (typeof botId !== 'number') return [fail('Telegram: getMe answered without the bot id')];
  const lines: CheckLine[] = [
    ok(`Telegram: signed in as ${username !== undefined ? `@${username}` : 'the bot'} (${botId})`),
  ];
  lines.push(...(await Promise.all(chats.map((chat) => checkChat(config, chat, botId, timeoutMs)))));
  return lines;
}
