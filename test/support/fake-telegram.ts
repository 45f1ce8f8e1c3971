/**
 * A local fake of Telegram's Bot API on 127.0.0.1 (port 0), for grammY's `client.apiRoot`: `POST
 * /bot<token>/<method>` with a JSON body, answered `{ok: true, result}` or `{ok: false, error_code, description}`.
 * It keeps the chats' messages, records every call, holds `getUpdates` as a long poll (answering 409 to a second
 * concurrent poller, and to any poller while a webhook is set), and lets a test inject updates: a button tapped on
 * a message it holds, a text message (a reply to one of its messages), raw updates. With a webhook set, injected
 * updates are POSTed to it with the secret token header, as Telegram does. It checks what Telegram checks of what
 * ask-later sends: chat known, text 1–4,096 characters after entities, `callback_data` 1–64 bytes, toast ≤ 200.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  readonly method: string;
  readonly body: Record<string, unknown>;
}

export interface FakeUser {
  readonly id: number;
  readonly first_name: string;
  readonly username?: string;
}

export interface StoredMessage {
  readonly chatId: number;
  readonly messageId: number;
  text: string;
  replyMarkup?: { inline_keyboard?: { text: string; callback_data: string }[][]; force_reply?: boolean };
  readonly replyTo?: number;
  readonly fromBot: boolean;
  edits: number;
}

type Json = Record<string, unknown>;

/** Telegram's text after entity parsing: tags dropped, entities decoded. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Json,
  ) {
    super(description);
  }
}

export class FakeTelegram {
  readonly token = '123456789:AAtestTOKENtestTOKENtestTOKENtest_-x';
  readonly bot = { id: 123456789, is_bot: true, first_name: 'ask-later', username: 'ask_later_bot' };
  /** Chats and their members (user ids): a user not listed is `left`. */
  readonly chats = new Map<number, Set<number>>();
  readonly calls: TelegramCall[] = [];
  readonly messages = new Map<string, StoredMessage>();
  /** 409s answered to a second concurrent poller (or to polling while a webhook is set). */
  conflicts = 0;
  webhook: { url: string; secret?: string } | undefined;
  /** Answer the next calls of a method with this error (once each). */
  readonly failNext = new Map<string, { code: number; description: string; parameters?: Json }[]>();
  #server: Server | undefined;
  #nextMessage = 100;
  #nextUpdate = 1000;
  #queue: Json[] = [];
  #polling = false;
  #wake: (() => void) | undefined;

  get url(): string {
    const address = this.#server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the fake Telegram is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.#server = createServer((request, response) => this.#serve(request, response));
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.#wake?.();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  /** A chat with its members; the bot is in it (until {@link removeBot}). */
  addChat(chatId: number, members: readonly number[]): void {
    this.chats.set(chatId, new Set([...members, this.bot.id]));
  }

  /** The bot removed from the chat: posting there is refused with 403, as Telegram does. */
  removeBot(chatId: number): void {
    this.chats.get(chatId)?.delete(this.bot.id);
  }

  callsOf(method: string): TelegramCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  message(chatId: number, messageId: number): StoredMessage | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  /** The bot's messages in a chat, oldest first. */
  botMessages(chatId: number): StoredMessage[] {
    return [...this.messages.values()].filter((m) => m.chatId === chatId && m.fromBot);
  }

  /** Whether a `getUpdates` is being held now. */
  get polling(): boolean {
    return this.#polling;
  }

  /** Inject a raw update (an `update_id` is given); returns it. */
  push(update: Json): number {
    const id = this.#nextUpdate++;
    const full = { update_id: id, ...update };
    if (this.webhook) void this.#deliver(full);
    else {
      this.#queue.push(full);
      this.#wake?.();
    }
    return id;
  }

  /** Inject the update again with the same `update_id` (a redelivery). */
  redeliver(update: Json): void {
    if (this.webhook) void this.#deliver(update);
    else {
      this.#queue.push(update);
      this.#wake?.();
    }
  }

  /** A tap on a button of a message the fake holds; returns the callback query's id. */
  tap(user: FakeUser, chatId: number, messageId: number, data: string): string {
    const stored = this.message(chatId, messageId);
    if (!stored) throw new Error(`no message ${messageId} in chat ${chatId}`);
    const id = `cb${this.#nextUpdate}`;
    this.push({
      callback_query: {
        id,
        from: { ...user, is_bot: false },
        chat_instance: String(chatId),
        data,
        message: this.#messageJson(stored),
      },
    });
    return id;
  }

  /** A text message from `user` (a reply to `replyTo` when given); returns its message id. */
  say(user: FakeUser, chatId: number, text: string, replyTo?: number): number {
    const messageId = this.#nextMessage++;
    const stored: StoredMessage = {
      chatId,
      messageId,
      text,
      fromBot: false,
      edits: 0,
      ...(replyTo ? { replyTo } : {}),
    };
    this.messages.set(`${chatId}:${messageId}`, stored);
    const reply = replyTo === undefined ? undefined : this.message(chatId, replyTo);
    this.push({
      message: {
        ...this.#messageJson(stored),
        from: { ...user, is_bot: false },
        ...(reply ? { reply_to_message: this.#messageJson(reply) } : {}),
      },
    });
    return messageId;
  }

  /** The answers given to a callback query. */
  answersTo(callbackId: string): Json[] {
    return this.callsOf('answerCallbackQuery')
      .filter((call) => call.body.callback_query_id === callbackId)
      .map((call) => call.body);
  }

  #messageJson(stored: StoredMessage): Json {
    return {
      message_id: stored.messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: stored.chatId, type: stored.chatId < 0 ? 'supergroup' : 'private', title: 'team' },
      ...(stored.fromBot ? { from: { ...this.bot } } : {}),
      text: stored.fromBot ? plainText(stored.text) : stored.text,
      ...(stored.replyMarkup?.inline_keyboard
        ? { reply_markup: { inline_keyboard: stored.replyMarkup.inline_keyboard } }
        : {}),
    };
  }

  async #deliver(update: Json): Promise<void> {
    const webhook = this.webhook;
    if (!webhook) return;
    await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(webhook.secret ? { 'x-telegram-bot-api-secret-token': webhook.secret } : {}),
      },
      body: JSON.stringify(update),
    }).then((response) => response.body?.cancel());
  }

  #serve(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      const send = (status: number, body: Json) => {
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (!match || match[1] !== this.token) {
        send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
        return;
      }
      const method = match[2] ?? '';
      let body: Json = {};
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        body = text === '' ? {} : (JSON.parse(text) as Json);
      } catch {
        send(400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
        return;
      }
      this.calls.push({ method, body });
      const closed = new AbortController();
      response.on('close', () => closed.abort());
      this.#call(method, body, closed.signal).then(
        (result) => send(200, { ok: true, result }),
        (error: unknown) => {
          if (error instanceof ApiError) {
            send(error.code, {
              ok: false,
              error_code: error.code,
              description: error.description,
              ...(error.parameters ? { parameters: error.parameters } : {}),
            });
          } else send(500, { ok: false, error_code: 500, description: 'Internal Server Error' });
        },
      );
    });
  }

  async #call(method: string, body: Json, closed: AbortSignal): Promise<unknown> {
    const failure = this.failNext.get(method)?.shift();
    if (failure) throw new ApiError(failure.code, failure.description, failure.parameters);
    switch (method) {
      case 'getMe':
        return this.bot;
      case 'setMyCommands':
        return true;
      case 'setWebhook':
        this.webhook = {
          url: String(body.url),
          ...(typeof body.secret_token === 'string' ? { secret: body.secret_token } : {}),
        };
        return true;
      case 'deleteWebhook':
        this.webhook = undefined;
        return true;
      case 'getChatMember': {
        const members = this.#chat(body.chat_id);
        const member = members.has(Number(body.user_id));
        return {
          status: member ? 'member' : 'left',
          user: { id: Number(body.user_id), is_bot: false, first_name: 'x' },
        };
      }
      case 'getChat': {
        this.#chat(body.chat_id);
        const id = Number(body.chat_id);
        return { id, type: id < 0 ? 'supergroup' : 'private', title: 'team' };
      }
      case 'sendMessage':
        return this.#send(body);
      case 'editMessageText':
        return this.#edit(body);
      case 'answerCallbackQuery': {
        const text = body.text;
        if (typeof text === 'string' && text.length > 200) throw new ApiError(400, 'Bad Request: MESSAGE_TOO_LONG');
        return true;
      }
      case 'getUpdates':
        return this.#getUpdates(body, closed);
      default:
        throw new ApiError(404, 'Not Found: method not found');
    }
  }

  #chat(chatId: unknown): Set<number> {
    const members = this.chats.get(Number(chatId));
    if (!members) throw new ApiError(400, 'Bad Request: chat not found');
    return members;
  }

  #check(body: Json): { text: string; markup: StoredMessage['replyMarkup'] } {
    const text = body.text;
    if (typeof text !== 'string') throw new ApiError(400, 'Bad Request: message text is empty');
    if (body.parse_mode !== 'HTML') throw new ApiError(400, 'Bad Request: expected HTML (ask-later sends HTML)');
    const visible = plainText(text).length;
    if (visible === 0) throw new ApiError(400, 'Bad Request: message text is empty');
    if (visible > 4096) throw new ApiError(400, 'Bad Request: message is too long');
    if (/<(?!\/?(b|i|code|pre|a|blockquote)\b)[^>]*>/.test(text)) {
      throw new ApiError(400, "Bad Request: can't parse entities: unsupported start tag");
    }
    const markup = body.reply_markup as StoredMessage['replyMarkup'];
    for (const row of markup?.inline_keyboard ?? []) {
      for (const button of row) {
        const bytes = Buffer.byteLength(String(button.callback_data ?? ''), 'utf8');
        if (bytes < 1 || bytes > 64) throw new ApiError(400, 'Bad Request: BUTTON_DATA_INVALID');
      }
    }
    return { text, markup };
  }

  #send(body: Json): Json {
    if (!this.#chat(body.chat_id).has(this.bot.id)) {
      throw new ApiError(403, 'Forbidden: bot was kicked from the supergroup chat');
    }
    const { text, markup } = this.#check(body);
    const chatId = Number(body.chat_id);
    const messageId = this.#nextMessage++;
    const replyTo = (body.reply_parameters as { message_id?: unknown } | undefined)?.message_id;
    const stored: StoredMessage = {
      chatId,
      messageId,
      text,
      fromBot: true,
      edits: 0,
      ...(markup ? { replyMarkup: markup } : {}),
      ...(typeof replyTo === 'number' ? { replyTo } : {}),
    };
    this.messages.set(`${chatId}:${messageId}`, stored);
    return this.#messageJson(stored);
  }

  #edit(body: Json): Json {
    this.#chat(body.chat_id);
    const stored = this.message(Number(body.chat_id), Number(body.message_id));
    if (!stored || !stored.fromBot) throw new ApiError(400, 'Bad Request: message to edit not found');
    const { text, markup } = this.#check(body);
    if (stored.text === text && JSON.stringify(stored.replyMarkup ?? {}) === JSON.stringify(markup ?? {})) {
      throw new ApiError(400, 'Bad Request: message is not modified');
    }
    stored.text = text;
    if (markup) stored.replyMarkup = markup;
    else delete stored.replyMarkup;
    stored.edits += 1;
    return this.#messageJson(stored);
  }

  async #getUpdates(body: Json, closed: AbortSignal): Promise<Json[]> {
    if (this.webhook) {
      this.conflicts += 1;
      throw new ApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    if (this.#polling) {
      this.conflicts += 1;
      throw new ApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
    }
    const offset = typeof body.offset === 'number' ? body.offset : undefined;
    if (offset !== undefined) this.#queue = this.#queue.filter((update) => Number(update.update_id) >= offset);
    const timeoutMs = Math.min(Number(body.timeout ?? 0), 50) * 1000;
    this.#polling = true;
    try {
      if (this.#queue.length === 0 && timeoutMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, timeoutMs);
          function done() {
            clearTimeout(timer);
            closed.removeEventListener('abort', done);
            resolve();
          }
          this.#wake = done;
          closed.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      this.#polling = false;
      this.#wake = undefined;
    }
    return [...this.#queue];
  }
}
