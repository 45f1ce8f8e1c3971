/**
 * A fake Slack Web API: a local HTTP server at `SLACK_API_URL` (method = path, `…/api/chat.postMessage`) that
 * answers like Slack and records every call. Failures can be scheduled per method (429 with Retry-After, 500,
 * or a Slack error such as `msg_blocks_too_long`). Also signs requests the way Slack does, for driving a Bolt app.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface SlackCall {
  readonly method: string;
  /** Form fields or JSON body, with `blocks`, `view`, `metadata` parsed from their JSON strings. */
  readonly body: Record<string, unknown>;
  readonly token?: string;
}

export interface PostedMessage {
  channel: string;
  ts: string;
  /** The parent's ts, for a reply in a thread. */
  thread_ts?: string;
  text?: unknown;
  blocks?: unknown;
  metadata?: unknown;
}

type Failure = { status: 429; retryAfter: number } | { status: 500 } | { status: 200; error: string };

const JSON_FIELDS = ['blocks', 'view', 'metadata', 'attachments'];

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = request.headers['content-type'] ?? '';
  let body: Record<string, unknown> = {};
  if (type.includes('application/json')) body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  else body = Object.fromEntries(new URLSearchParams(raw));
  for (const field of JSON_FIELDS) {
    const value = body[field];
    if (typeof value === 'string' && value !== '') {
      try {
        body[field] = JSON.parse(value);
      } catch {
        // leave as sent
      }
    }
  }
  return body;
}

export class FakeSlackApi {
  readonly calls: SlackCall[] = [];
  readonly messages: PostedMessage[] = [];
  readonly #failures = new Map<string, Failure[]>();
  readonly #refusals = new Map<string, string>();
  readonly #hanging = new Set<string>();
  readonly #listeners: ((call: SlackCall) => void)[] = [];
  #server: Server | undefined;
  #ts = 1_700_000_000;
  botUserId = 'UBOT';
  /**
   * Members of channels, for `users.conversations`. A channel not listed here has every user in it, once the bot
   * posted there (so tests that do not care see everyone as a member of the routed channels).
   */
  readonly channelMembers = new Map<string, readonly string[]>();
  /** Channels per page of `users.conversations` (Slack's pages hold up to `limit`). */
  pageSize = 1000;

  /** Base URL for `SLACK_API_URL` / `slackApiUrl` (ends with a slash). */
  url = '';

  async start(): Promise<this> {
    this.#server = createServer(async (request, response) => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const body = await readBody(request);
      const auth = request.headers.authorization;
      const call: SlackCall = { method, body, ...(auth ? { token: auth.replace(/^Bearer /, '') } : {}) };
      this.calls.push(call);
      if (this.#hanging.has(method)) {
        // Recorded, never answered (until `stop` cuts the connection): a Slack that does not respond.
        for (const listener of this.#listeners) listener(call);
        return;
      }
      const refusal = this.#refusals.get(method);
      const failure: Failure | undefined =
        refusal !== undefined ? { status: 200, error: refusal } : this.#failures.get(method)?.shift();
      if (failure?.status === 429) {
        response.writeHead(429, { 'retry-after': String(failure.retryAfter), 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      if (failure?.status === 500) {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('internal error');
        return;
      }
      const answer = failure?.status === 200 ? { ok: false, error: failure.error } : this.#answer(method, body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
      for (const listener of this.#listeners) listener(call);
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.url = `http://127.0.0.1:${port}/api/`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  /** Every call of `method` from now on is refused with this Slack error (e.g. `channel_not_found`); none: answered again. */
  refuse(method: string, error: string | undefined): void {
    if (error === undefined) this.#refusals.delete(method);
    else this.#refusals.set(method, error);
  }

  /** Every call of `method` from now on is recorded and never answered; `false` answers them again. */
  hang(method: string, hanging = true): void {
    if (hanging) this.#hanging.add(method);
    else this.#hanging.delete(method);
  }

  /** The next call(s) of `method` fail this way, in order. */
  fail(method: string, ...failures: Failure[]): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), ...failures]);
  }

  /** Calls of one method, oldest first. */
  callsOf(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Resolve when a call matching `predicate` has been answered (already or later). */
  waitFor(predicate: (call: SlackCall) => boolean, timeoutMs = 10_000): Promise<SlackCall> {
    const seen = this.calls.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('fake Slack: timed out waiting for a call')), timeoutMs);
      this.#listeners.push((call) => {
        if (predicate(call)) {
          clearTimeout(timer);
          resolve(call);
        }
      });
    });
  }

  #answer(method: string, body: Record<string, unknown>): Record<string, unknown> {
    switch (method) {
      case 'auth.test':
        return { ok: true, user_id: this.botUserId, bot_id: 'BBOT', team_id: 'T1', user: 'ask-later', team: 'Team' };
      case 'chat.postMessage': {
        const message: PostedMessage = {
          channel: String(body.channel),
          ts: `${++this.#ts}.000100`,
          ...(typeof body.thread_ts === 'string' ? { thread_ts: body.thread_ts } : {}),
          text: body.text,
          blocks: body.blocks,
          metadata: body.metadata,
        };
        this.messages.push(message);
        return { ok: true, channel: message.channel, ts: message.ts, message };
      }
      case 'chat.update': {
        const message = this.messages.find((m) => m.channel === body.channel && m.ts === body.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = body.text;
        message.blocks = body.blocks;
        return { ok: true, channel: message.channel, ts: message.ts };
      }
      case 'conversations.history': {
        const messages = this.messages
          .filter((m) => m.channel === body.channel)
          .reverse()
          .map((m) => ({ type: 'message', ts: m.ts, text: m.text, ...(m.metadata ? { metadata: m.metadata } : {}) }));
        return { ok: true, messages, has_more: false };
      }
      case 'conversations.replies': {
        // The parent first, then its replies, oldest first (as Slack lists a thread).
        const messages = this.messages
          .filter((m) => m.channel === body.channel && (m.ts === body.ts || m.thread_ts === body.ts))
          .map((m) => ({ type: 'message', ts: m.ts, text: m.text, ...(m.metadata ? { metadata: m.metadata } : {}) }));
        if (messages.length === 0) return { ok: false, error: 'thread_not_found' };
        return { ok: true, messages, has_more: false };
      }
      case 'views.open':
      case 'views.push':
      case 'views.update':
      case 'views.publish':
        return { ok: true, view: { id: `V${++this.#ts}`, ...(body.view as object) } };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: `${++this.#ts}.000200` };
      case 'users.info':
        return {
          ok: true,
          user: {
            id: body.user,
            name: String(body.user).toLowerCase(),
            profile: { display_name: `Name ${String(body.user)}` },
          },
        };
      case 'users.conversations': {
        const user = String(body.user);
        const open = new Set(this.messages.map((m) => m.channel).filter((c) => !this.channelMembers.has(c)));
        const member = [...this.channelMembers].filter(([, users]) => users.includes(user)).map(([c]) => c);
        const all = [...open, ...member];
        const from = Number(body.cursor ?? 0) || 0;
        const to = from + this.pageSize;
        return {
          ok: true,
          channels: all.slice(from, to).map((id) => ({ id, is_channel: true })),
          response_metadata: { next_cursor: to < all.length ? String(to) : '' },
        };
      }
      case 'conversations.info':
        return { ok: true, channel: { id: body.channel, is_member: true, name: 'team' } };
      default:
        return { ok: true };
    }
  }
}

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedOptions {
  readonly secret: string;
  /** Seconds since the epoch (default now). */
  readonly timestamp?: number;
  /** Override the signature (to forge one). */
  readonly signature?: string;
}

/** POST a body to a Bolt HTTP endpoint the way Slack does; returns status and body text. */
export async function postSigned(
  url: string,
  body: string,
  contentType: 'application/x-www-form-urlencoded' | 'application/json',
  options: SignedOptions,
): Promise<{ status: number; text: string }> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': options.signature ?? slackSignature(options.secret, timestamp, body),
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** An interactive payload (block_actions, view_submission) as Slack sends it: form field `payload`. */
export function interactionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A slash command as Slack sends it: plain form fields. */
export function commandBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
