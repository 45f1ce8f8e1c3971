/**
 * A fake Discord (FACTS "Discord" recipe): one local HTTP server on port 0 that is both
 * - the REST API at `<url>/api/v10/…`: gateway discovery, channel messages (create with `nonce` + `enforce_nonce`,
 *   edit, history), command registration, interaction callbacks and the interaction webhook (deferred replies,
 *   follow-ups), checking the bot token where Discord does and recording every call; and
 * - the gateway (WebSocket, plain JSON frames): HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeat ACKs, RESUME →
 *   RESUMED (replaying what was dispatched while the connection was down), and INTERACTION_CREATE dispatches.
 * A test drives the real discord.js client through it: `interact(…)` dispatches an interaction shaped like
 * Discord's, `responsesTo(id)` / `waitForResponse(id)` read what the app answered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { vi } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

export interface DiscordCall {
  readonly method: string;
  /** Path after `/api/v10`, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown> | unknown[] | undefined;
  /** The Authorization header (`Bot <token>`), if any. */
  readonly auth?: string;
  /** ms since the epoch, when it arrived. */
  readonly at: number;
}

export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: unknown[];
  components: unknown[];
  flags: number;
  nonce?: string;
  edits: number;
}

/** What the app answered to one interaction: the callback, then any edits/follow-ups through its webhook. */
export interface InteractionResponse {
  /** Interaction callback type (4 reply, 5 deferred reply, 6 deferred update, 7 update, 9 modal). */
  readonly type: number;
  readonly data?: Record<string, unknown>;
  readonly at: number;
}

export interface Member {
  readonly userId: string;
  readonly username?: string;
  readonly globalName?: string | null;
  readonly nick?: string | null;
  readonly roles?: readonly string[];
}

/**
 * A scheduled failure: a 429, a 500, a Discord error code, or `lost`: the call is carried out but the connection
 * dies before the answer (what a crash between Discord's write and our record looks like to the caller).
 */
type Failure =
  | { status: 429; retryAfter: number }
  | { status: 500 }
  | { status: 400 | 401 | 403 | 404; code: number }
  | { status: 'lost' };

/** A token shaped like a real bot token (three dot-separated parts), so it passes the config's check. */
export const FAKE_DISCORD_TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEd.fake-discord-bot-token-for-tests_0123456789';

const BOT_USER_ID = '1100000000000000001';
const APPLICATION_ID = '1100000000000000002';

let lastSnowflake = 0n;
/** A fresh id shaped like Discord's: ms since 2015 in the high bits (so `after=` queries work), unique, rising. */
export function nextSnowflake(): string {
  const now = (BigInt(Date.now()) - 1_420_070_400_000n) << 22n;
  lastSnowflake = now > lastSnowflake ? now : lastSnowflake + 1n;
  return lastSnowflake.toString();
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | unknown[] | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw === '') return undefined;
  // discord.js sends JSON (multipart only with files, which ask-later never sends).
  return JSON.parse(raw) as Record<string, unknown> | unknown[];
}

export interface FakeDiscordOptions {
  /** The bot token the REST API and the gateway accept (default {@link FAKE_DISCORD_TOKEN}). */
  readonly token?: string;
  readonly guildId?: string;
  /** Channels of the guild (default one: `channelId`). */
  readonly channelId?: string;
  /** Role ids that exist in the guild (they arrive with GUILD_CREATE). */
  readonly roles?: readonly string[];
  /** Heartbeat interval sent with HELLO (default 30 s: tests do not wait for heartbeats). */
  readonly heartbeatMs?: number;
}

export class FakeDiscord {
  readonly token: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly botUserId = BOT_USER_ID;
  readonly applicationId = APPLICATION_ID;
  readonly calls: DiscordCall[] = [];
  /** Channel messages by id (the shared ones: what a channel shows). */
  readonly messages = new Map<string, FakeMessage>();
  /** Gateway frames the client sent (op and, for IDENTIFY/RESUME, nothing secret kept). */
  readonly gatewayOps: { op: number; at: number }[] = [];
  /** How many IDENTIFY and RESUME the gateway took. */
  identifies = 0;
  resumes = 0;
  url = '';

  readonly #options: FakeDiscordOptions;
  readonly #roles: readonly string[];
  readonly #responses = new Map<string, InteractionResponse[]>();
  readonly #tokens = new Map<string, string>();
  readonly #interactionMessages = new Map<string, Record<string, unknown>>();
  /** The message each component interaction came from (what an update response replaces). */
  readonly #sourceMessages = new Map<string, Record<string, unknown>>();
  readonly #dispatchedAt = new Map<string, number>();
  readonly #failures = new Map<string, Failure[]>();
  readonly #nonces = new Map<string, string>();
  #server: Server | undefined;
  #wss: WebSocketServer | undefined;
  #socket: WebSocket | undefined;
  #session: string | undefined;
  #seq = 0;
  /** Dispatches sent since the last READY/RESUMED, replayed on RESUME (Discord replays what a session missed). */
  #backlog: { s: number; t: string; d: unknown }[] = [];
  #connected: { promise: Promise<void>; resolve: () => void } = deferred();

  constructor(options: FakeDiscordOptions = {}) {
    this.#options = options;
    this.token = options.token ?? FAKE_DISCORD_TOKEN;
    this.guildId = options.guildId ?? '1200000000000000001';
    this.channelId = options.channelId ?? '1200000000000000002';
    this.#roles = options.roles ?? [];
  }

  /** The REST base for `DISCORD_API_URL` (discord.js appends `/v10`). */
  get apiUrl(): string {
    return `${this.url}/api`;
  }

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      void this.#http(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: String(error), code: 0 }));
      });
    });
    this.#wss = new WebSocketServer({ server: this.#server });
    this.#wss.on('connection', (socket) => this.#gateway(socket));
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  /** Gateway connections open right now. */
  get openConnections(): number {
    return this.#wss?.clients.size ?? 0;
  }

  async stop(): Promise<void> {
    for (const client of this.#wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => this.#wss?.close(() => resolve()) ?? resolve());
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  /** Resolves when a client is identified or resumed on the current connection. */
  connected(): Promise<void> {
    return this.#connected.promise;
  }

  /**
   * Drop the gateway connection as Discord does on a restart or a network fault: a close frame with `code` (4000,
   * "unknown error", tells the client to resume), or `terminate` (the TCP connection just dies).
   */
  dropConnection(how: { code: number } | 'terminate' = { code: 4000 }): void {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#connected = deferred();
    if (!socket) return;
    if (how === 'terminate') socket.terminate();
    else socket.close(how.code, 'fake Discord dropped the connection');
  }

  /** The next calls of `route` (`POST /channels/:id/messages` style, with `:id`) fail this way, in order. */
  fail(route: string, ...failures: Failure[]): void {
    this.#failures.set(route, [...(this.#failures.get(route) ?? []), ...failures]);
  }

  /** Calls matching method and a path pattern, oldest first. */
  callsOf(method: string, path: RegExp): DiscordCall[] {
    return this.calls.filter((call) => call.method === method && path.test(call.path));
  }

  /** Channel message creates (`POST /channels/{id}/messages`), oldest first. */
  creates(): DiscordCall[] {
    return this.callsOf('POST', /^\/channels\/\d+\/messages$/);
  }

  /** Channel message edits (`PATCH /channels/{id}/messages/{id}`), oldest first. */
  edits(messageId?: string): DiscordCall[] {
    return this.callsOf('PATCH', /^\/channels\/\d+\/messages\/\d+$/).filter(
      (call) => messageId === undefined || call.path.endsWith(`/${messageId}`),
    );
  }

  /** What the app answered to interaction `id` so far (callback first, then webhook edits and follow-ups). */
  responsesTo(id: string): InteractionResponse[] {
    return this.#responses.get(id) ?? [];
  }

  /** ms from dispatching interaction `id` to its first response (Discord's limit is 3 s); undefined: none yet. */
  firstResponseMs(id: string): number | undefined {
    const first = this.responsesTo(id)[0];
    const at = this.#dispatchedAt.get(id);
    return first === undefined || at === undefined ? undefined : first.at - at;
  }

  /**
   * The answer to interaction `id` as the person finally sees it: the callback's data, or for a deferred one the
   * first webhook edit of `@original` (or follow-up) after it.
   */
  waitForResponse(id: string, timeoutMs = 10_000): Promise<InteractionResponse> {
    return vi.waitFor(
      () => {
        const [first, second] = this.responsesTo(id);
        const seen = first?.type === 5 || first?.type === 6 ? second : first;
        if (!seen) throw new Error(`fake Discord: no answer to interaction ${id} yet`);
        return seen;
      },
      { timeout: timeoutMs, interval: 10 },
    );
  }

  // -------------------------------------------------------------------------------------------------------------
  // Interactions, shaped like Discord's INTERACTION_CREATE

  /** Dispatch an interaction; returns its id (the key of `responsesTo`). */
  interact(fields: InteractionFields): string {
    const id = nextSnowflake();
    const token = `itoken-${id}`;
    this.#tokens.set(token, id);
    const channelId = fields.channelId ?? this.channelId;
    const member = fields.member;
    const data: Record<string, unknown> = {
      id,
      application_id: this.applicationId,
      type: fields.type,
      data: fields.data,
      guild_id: this.guildId,
      channel_id: channelId,
      channel: { id: channelId, type: 0, guild_id: this.guildId, name: 'questions', position: 0, nsfw: false },
      member: {
        user: {
          id: member.userId,
          username: member.username ?? `user${member.userId.slice(-4)}`,
          global_name: member.globalName ?? null,
          discriminator: '0',
          avatar: null,
        },
        nick: member.nick ?? null,
        roles: [...(member.roles ?? [])],
        joined_at: '2024-01-01T00:00:00.000000+00:00',
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
        permissions: '2248473465835073',
        avatar: null,
      },
      token,
      version: 1,
      app_permissions: '2248473465835073',
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': this.guildId },
      context: 0,
      attachment_size_limit: 10_485_760,
      ...(fields.message ? { message: fields.message } : {}),
    };
    if (fields.message) this.#sourceMessages.set(id, fields.message);
    this.#dispatchedAt.set(id, Date.now());
    this.dispatch('INTERACTION_CREATE', data);
    return id;
  }

  /** A click on a button of a message (a channel message, or an ephemeral reply the person sees). */
  click(member: Member, customId: string, message: Record<string, unknown>): string {
    return this.interact({ type: 3, member, data: { custom_id: customId, component_type: 2 }, message });
  }

  /** A choice in a string select of a message (Discord sends this component's values only). */
  select(member: Member, customId: string, values: readonly string[], message: Record<string, unknown>): string {
    return this.interact({
      type: 3,
      member,
      data: { custom_id: customId, component_type: 3, values: [...values] },
      message,
    });
  }

  /** `/name` as a chat-input command. */
  command(member: Member, name: string, channelId?: string): string {
    return this.interact({
      type: 2,
      member,
      data: { id: this.#commandIds.get(name) ?? nextSnowflake(), name, type: 1, options: [] },
      ...(channelId !== undefined ? { channelId } : {}),
    });
  }

  /**
   * A modal submitted: `values` by the custom id of each of its inputs (a string for a text input, a list for a
   * string select), wrapped in Labels as Discord sends them back. `message`: the message whose component opened it.
   */
  submitModal(
    member: Member,
    customId: string,
    values: Record<string, string | readonly string[]>,
    message?: Record<string, unknown>,
  ): string {
    const components = Object.entries(values).map(([id, value], index) => ({
      type: 18,
      id: index + 1,
      component:
        typeof value === 'string'
          ? { type: 4, id: 100 + index, custom_id: id, value }
          : { type: 3, id: 100 + index, custom_id: id, values: [...value] },
    }));
    return this.interact({
      type: 5,
      member,
      data: { custom_id: customId, components },
      ...(message ? { message } : {}),
    });
  }

  /** A channel message as an interaction payload carries it. */
  messagePayload(messageId: string): Record<string, unknown> {
    const message = this.messages.get(messageId);
    if (!message) throw new Error(`fake Discord: no message ${messageId}`);
    return this.#apiMessage(message);
  }

  /**
   * The ephemeral message the app last showed in answer to interaction `id` (its reply, update, or webhook edit),
   * as a later interaction on it carries it. The same message id is kept across updates, like Discord does.
   */
  ephemeralOf(id: string): Record<string, unknown> {
    const message = this.#interactionMessages.get(id);
    if (!message) throw new Error(`fake Discord: interaction ${id} shows no message`);
    return message;
  }

  readonly #commandIds = new Map<string, string>();

  /** Send a dispatch on the current connection (or keep it for the resume when the connection is down). */
  dispatch(t: string, d: unknown): void {
    const frame = { op: 0, s: ++this.#seq, t, d };
    this.#backlog.push(frame);
    if (this.#backlog.length > 200) this.#backlog.shift();
    if (this.#socket?.readyState === 1) this.#socket.send(JSON.stringify(frame));
  }

  // -------------------------------------------------------------------------------------------------------------
  // The gateway

  #gateway(socket: WebSocket): void {
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.#options.heartbeatMs ?? 30_000 } }));
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> | number | null };
      this.gatewayOps.push({ op: frame.op, at: Date.now() });
      const d = typeof frame.d === 'object' && frame.d !== null ? frame.d : {};
      switch (frame.op) {
        case 1:
          socket.send(JSON.stringify({ op: 11 }));
          return;
        case 2: {
          if (d.token !== this.token) {
            socket.close(4004, 'Authentication failed');
            return;
          }
          this.identifies++;
          this.#socket = socket;
          this.#session = `session-${nextSnowflake()}`;
          this.#backlog = [];
          this.#send(socket, 'READY', {
            v: 10,
            user: {
              id: BOT_USER_ID,
              username: 'ask-later',
              discriminator: '0',
              global_name: null,
              avatar: null,
              bot: true,
            },
            guilds: [{ id: this.guildId, unavailable: true }],
            session_id: this.#session,
            resume_gateway_url: this.url.replace(/^http/, 'ws'),
            shard: [0, 1],
            application: { id: APPLICATION_ID, flags: 0 },
          });
          this.#send(socket, 'GUILD_CREATE', this.#guild());
          this.#connected.resolve();
          return;
        }
        case 6: {
          if (d.token !== this.token || d.session_id !== this.#session) {
            socket.send(JSON.stringify({ op: 9, d: false }));
            return;
          }
          this.resumes++;
          this.#socket = socket;
          const seq = typeof d.seq === 'number' ? d.seq : 0;
          for (const missed of this.#backlog.filter((f) => f.s > seq)) socket.send(JSON.stringify(missed));
          this.#send(socket, 'RESUMED', {});
          this.#connected.resolve();
          return;
        }
        default:
          return;
      }
    });
    socket.on('close', () => {
      if (this.#socket === socket) {
        this.#socket = undefined;
        this.#connected = deferred();
      }
    });
  }

  #send(socket: WebSocket, t: string, d: unknown): void {
    const frame = { op: 0, s: ++this.#seq, t, d };
    socket.send(JSON.stringify(frame));
  }

  #guild(): Record<string, unknown> {
    const role = (id: string, name: string) => ({
      id,
      name,
      permissions: '0',
      position: 0,
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      managed: false,
      mentionable: false,
      flags: 0,
      icon: null,
      unicode_emoji: null,
    });
    return {
      id: this.guildId,
      name: 'Team',
      icon: null,
      owner_id: '1200000000000000099',
      unavailable: false,
      large: false,
      member_count: 3,
      joined_at: '2024-01-01T00:00:00.000000+00:00',
      features: [],
      roles: [role(this.guildId, '@everyone'), ...this.#roles.map((id, i) => role(id, `role-${i}`))],
      channels: [{ id: this.channelId, type: 0, guild_id: this.guildId, name: 'questions', position: 0, nsfw: false }],
      threads: [],
      members: [],
      presences: [],
      voice_states: [],
      emojis: [],
      stickers: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      premium_tier: 0,
      verification_level: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      preferred_locale: 'en-US',
      system_channel_flags: 0,
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // REST

  async #http(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
    const body = await readJson(request);
    const auth = request.headers.authorization;
    this.calls.push({ method, path, query: url.searchParams, body, ...(auth ? { auth } : {}), at: Date.now() });
    const failure = this.#failures.get(`${method} ${routeOf(path)}`)?.shift();
    if (failure?.status === 'lost') {
      this.#route(method, path, url.searchParams, body, discardResponse());
      request.socket.destroy();
      return;
    }
    if (failure) return reply(response, failure);
    const isInteraction = path.startsWith('/interactions/') || path.startsWith('/webhooks/');
    if (!isInteraction && auth !== `Bot ${this.token}`) {
      return json(response, 401, { message: '401: Unauthorized', code: 0 });
    }
    return this.#route(method, path, url.searchParams, body, response);
  }

  #route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown> | unknown[] | undefined,
    response: ServerResponse,
  ): Handled {
    const b = (Array.isArray(body) ? {} : body) ?? {};
    const commandsRoute = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path);
    const messagesRoute = /^\/channels\/(\d+)\/messages$/.exec(path);
    const messageRoute = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    const callbackRoute = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
    const webhookRoute = /^\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/(@original|\d+))?$/.exec(path);
    if (method === 'GET' && path === '/gateway/bot') {
      return json(response, 200, {
        url: this.url.replace(/^http/, 'ws'),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      });
    }
    if (commandsRoute && method === 'PUT') {
      const m = commandsRoute;
      const commands = (Array.isArray(body) ? body : []).map((command) => {
        const c = command as Record<string, unknown>;
        const id = this.#commandIds.get(String(c.name)) ?? nextSnowflake();
        this.#commandIds.set(String(c.name), id);
        return { ...c, id, application_id: m?.[1], ...(m?.[2] ? { guild_id: m[2] } : {}), version: id };
      });
      return json(response, 200, commands);
    }
    if (messagesRoute) {
      const m = messagesRoute;
      const channel = m[1] ?? '';
      if (method === 'GET') {
        const after = query.get('after');
        const list = [...this.messages.values()]
          .filter((msg) => msg.channel_id === channel && (after === null || BigInt(msg.id) > BigInt(after)))
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
          .slice(0, Number(query.get('limit') ?? 50))
          .map((msg) => this.#apiMessage(msg, false));
        return json(response, 200, list);
      }
      if (method === 'POST') {
        const nonce = typeof b.nonce === 'string' || typeof b.nonce === 'number' ? String(b.nonce) : undefined;
        if (nonce !== undefined && b.enforce_nonce === true) {
          const first = this.#nonces.get(`${channel}:${nonce}`);
          const earlier = first ? this.messages.get(first) : undefined;
          if (earlier) return json(response, 200, this.#apiMessage(earlier));
        }
        const message: FakeMessage = {
          id: nextSnowflake(),
          channel_id: channel,
          content: typeof b.content === 'string' ? b.content : '',
          embeds: Array.isArray(b.embeds) ? b.embeds : [],
          components: Array.isArray(b.components) ? b.components : [],
          flags: typeof b.flags === 'number' ? b.flags : 0,
          edits: 0,
          ...(nonce !== undefined ? { nonce } : {}),
        };
        this.messages.set(message.id, message);
        if (nonce !== undefined) this.#nonces.set(`${channel}:${nonce}`, message.id);
        return json(response, 200, this.#apiMessage(message));
      }
    }
    if (messageRoute) {
      const m = messageRoute;
      const message = this.messages.get(m[2] ?? '');
      if (!message || message.channel_id !== m[1])
        return json(response, 404, { message: 'Unknown Message', code: 10008 });
      if (method === 'GET') return json(response, 200, this.#apiMessage(message));
      if (method === 'PATCH') {
        if ('content' in b) message.content = typeof b.content === 'string' ? b.content : '';
        if ('embeds' in b) message.embeds = Array.isArray(b.embeds) ? b.embeds : [];
        if ('components' in b) message.components = Array.isArray(b.components) ? b.components : [];
        if (typeof b.flags === 'number') message.flags = b.flags;
        message.edits++;
        return json(response, 200, this.#apiMessage(message));
      }
      if (method === 'DELETE') {
        this.messages.delete(message.id);
        response.writeHead(204).end();
        return HANDLED;
      }
    }
    if (callbackRoute && method === 'POST') {
      const m = callbackRoute;
      const id = m[1] ?? '';
      if (this.#tokens.get(m[2] ?? '') !== id)
        return json(response, 404, { message: 'Unknown interaction', code: 10062 });
      const responses = this.#responses.get(id) ?? [];
      if (responses.length > 0) {
        return json(response, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      }
      const type = typeof b.type === 'number' ? b.type : 0;
      const data = b.data && typeof b.data === 'object' ? (b.data as Record<string, unknown>) : undefined;
      this.#responses.set(id, [{ type, ...(data ? { data } : {}), at: Date.now() }]);
      if (type === 4 || type === 7) this.#showInteractionMessage(id, data ?? {}, type === 7);
      // A deferred reply shows "thinking" until its webhook edit; keep its flags (ephemeral) for that edit.
      if (type === 5) this.#showInteractionMessage(id, { flags: data?.flags ?? 0, content: '' }, false);
      if (query.get('with_response') === 'true') {
        return json(response, 200, { interaction: { id, type: 3 }, resource: { type } });
      }
      response.writeHead(204).end();
      return HANDLED;
    }
    if (webhookRoute) {
      const m = webhookRoute;
      const id = this.#tokens.get(m[2] ?? '');
      if (m[1] !== this.applicationId || id === undefined) {
        return json(response, 404, { message: 'Unknown Webhook', code: 10015 });
      }
      const responses = this.#responses.get(id);
      if (!responses || responses.length === 0) {
        return json(response, 404, { message: 'Unknown Message', code: 10008 });
      }
      if (method === 'PATCH' || (method === 'POST' && m[3] === undefined)) {
        const data = b as Record<string, unknown>;
        responses.push({ type: method === 'PATCH' ? -1 : -2, data, at: Date.now() });
        const shown = this.#showInteractionMessage(id, data, method === 'PATCH');
        return json(response, 200, shown);
      }
      if (method === 'GET') return json(response, 200, this.ephemeralOf(id));
      if (method === 'DELETE') {
        response.writeHead(204).end();
        return HANDLED;
      }
    }
    return json(response, 404, { message: `fake Discord: no route ${method} ${path}`, code: 0 });
  }

  /**
   * Keep what interaction `id` shows the person: a reply (or the deferred reply's later edit), or, for an update,
   * the message the interaction came from with the new content. The message id stays the same across updates.
   */
  #showInteractionMessage(id: string, data: Record<string, unknown>, update: boolean): Record<string, unknown> {
    const previous = this.#interactionMessages.get(id) ?? (update ? this.#sourceMessages.get(id) : undefined);
    const flags = typeof data.flags === 'number' ? data.flags : ((previous?.flags as number | undefined) ?? 0);
    const message = this.#apiMessage({
      id: (previous?.id as string | undefined) ?? nextSnowflake(),
      channel_id: (previous?.channel_id as string | undefined) ?? this.channelId,
      content: typeof data.content === 'string' ? data.content : ((previous?.content as string | undefined) ?? ''),
      embeds: Array.isArray(data.embeds) ? data.embeds : ((previous?.embeds as unknown[] | undefined) ?? []),
      components: Array.isArray(data.components)
        ? data.components
        : ((previous?.components as unknown[] | undefined) ?? []),
      flags,
      edits: 0,
    });
    this.#interactionMessages.set(id, message);
    return message;
  }

  #apiMessage(message: FakeMessage, withNonce = true): Record<string, unknown> {
    return {
      id: message.id,
      channel_id: message.channel_id,
      guild_id: this.guildId,
      author: {
        id: BOT_USER_ID,
        username: 'ask-later',
        discriminator: '0',
        global_name: null,
        avatar: null,
        bot: true,
      },
      content: message.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: message.edits > 0 ? new Date().toISOString() : null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: message.embeds,
      components: message.components,
      pinned: false,
      type: 0,
      flags: message.flags,
      application_id: APPLICATION_ID,
      ...(withNonce && message.nonce !== undefined ? { nonce: message.nonce } : {}),
    };
  }
}

export interface InteractionFields {
  readonly type: 2 | 3 | 5;
  readonly member: Member;
  readonly data: Record<string, unknown>;
  readonly message?: Record<string, unknown>;
  readonly channelId?: string;
}

/** `/channels/123/messages/456` → `/channels/:id/messages/:id` (the key `fail` schedules by). */
function routeOf(path: string): string {
  return path.replace(/\/\d{5,}/g, '/:id').replace(/\/itoken-\d+/g, '/:token');
}

/** A route's answer has been written (a marker, so routes can `return json(…)`). */
type Handled = typeof HANDLED;
const HANDLED = Symbol('handled');

function json(response: ServerResponse, status: number, body: unknown): Handled {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
  return HANDLED;
}

function reply(response: ServerResponse, failure: Exclude<Failure, { status: 'lost' }>): Handled {
  if (failure.status === 429) {
    response.writeHead(429, {
      'content-type': 'application/json',
      'retry-after': String(failure.retryAfter),
      'x-ratelimit-scope': 'user',
    });
    response.end(
      JSON.stringify({ message: 'You are being rate limited.', retry_after: failure.retryAfter, global: false }),
    );
    return HANDLED;
  }
  if (failure.status === 500) return json(response, 500, { message: 'Internal Server Error', code: 0 });
  return json(response, failure.status, { message: 'fake failure', code: 'code' in failure ? failure.code : 0 });
}

/** A response that goes nowhere: the fake's work happens, the answer is lost. */
function discardResponse(): ServerResponse {
  const sink = { writeHead: () => sink, end: () => sink } as unknown as ServerResponse;
  return sink;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
