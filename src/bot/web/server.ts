/**
 * The web inbox's HTTP side: the page, the inbox fragment (each one page of questions and the counts), the Answered
 * view (one page of the decision trail, and its time-to-answer chart over the last days), server-sent events, and the
 * JSON actions (draft, of a set's member too and with notes per option; review, what a set's Send would send; send;
 * send ready; remove), every one of them through the same `InteractionService` as Slack and Discord, so the first
 * answer wins across every surface. `createWebInbox` gives a request handler that `serve` mounts next to its other
 * routes; `startWebInbox` runs it on a server of its own.
 *
 * Protection, since the page answers for the person:
 * - every request must name a host serve answers as and come from no foreign page (`http/origin-rule.ts`, the rule
 *   of every entry point: loopback names, IP addresses, `ASK_LATER_PUBLIC_URL`'s host), so a site that rebinds its
 *   DNS name to 127.0.0.1 cannot read the page or act through it;
 * - with a token (`ASK_LATER_WEB_TOKEN`, required to bind elsewhere): every request needs the session cookie the
 *   sign-in form sets, or `Authorization: Bearer <token>`; otherwise 401 (the page shows the sign-in form);
 * - every POST must be JSON (a cross-site form cannot send it; a cross-site `fetch` of it needs a CORS preflight,
 *   which is never granted), and its `Origin` and `Sec-Fetch-Site`, when sent, must say same origin;
 * - pages carry a Content-Security-Policy allowing only this origin's script and stylesheet.
 *
 * Logs carry routes, statuses, refs and timings only; never question, answer or note text, never the token.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { z } from 'zod';
import { ANSWERED_PAGE_SIZE, type AnsweredInput, CHART_DAYS, renderAnsweredPage } from '../../blocks/web/answered.js';
import { INBOX_CLIENT_SCRIPT } from '../../blocks/web/client.js';
import { answersCount } from '../../blocks/web/format.js';
import {
  renderInboxFragment,
  renderInboxPage,
  renderLoginPage,
  WEB_PAGE_SIZE,
  type WebInboxView,
  type WebProjectEntry,
} from '../../blocks/web/page.js';
import {
  type AnsweredState,
  type InboxState,
  parseAnsweredState,
  parseInboxState,
  WEB_ROUTES,
} from '../../blocks/web/routes.js';
import { INBOX_STYLESHEET } from '../../blocks/web/style.js';
import { NOTES_MAX, OPTIONS_MAX, SET_MEMBERS_MAX } from '../../core/limits.js';
import { itemsOf, type Question, type QuestionItem } from '../../core/question.js';
import { parseQuestionRef, projectTag } from '../../core/question-ref.js';
import { decisionsPage, listDecisions } from '../../decisions/query.js';
import { type OriginRule, originRule } from '../../http/origin-rule.js';
import type { Store } from '../../store/port.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import type { Actor, Pick as AnswerPick, InteractionService, Outcome, ShownPicks } from '../interactions.js';
import { errorFields, type Logger, silentLogger } from '../logger.js';
import { WEB_CHANNEL, type WebSurface } from './surface.js';

export interface WebInboxOptions {
  /** The one service every surface answers through. Its routing must give platform `web` `[WEB_CHANNEL]`. */
  readonly interactions: InteractionService;
  readonly store: Store;
  /** The bridge's web surface: its change notices reach the open pages. */
  readonly surface: WebSurface;
  /**
   * When set (required when bound beyond loopback), every request needs it: the sign-in form's session cookie or
   * `Authorization: Bearer <token>`. When not set, only loopback host names are served.
   */
  readonly token?: string;
  /** Which Host and Origin are answered (default: loopback names and IP addresses; serve adds its public URL's). */
  readonly origins?: OriginRule;
  readonly logger?: Logger;
  /** The name answers are sent under (default the OS user name, else `you`). */
  readonly displayName?: string;
  /** How long questions stay on the page once closed (answered, withdrawn, dismissed, expired; default 24 h). */
  readonly recentMs?: number;
  /** Most closed questions the page shows (default 50). */
  readonly recentMax?: number;
  /** Heartbeat comment interval on event streams (default 15 s), so proxies and browsers keep them open. */
  readonly heartbeatMs?: number;
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
  /** The clock that decides what is recent (default `Date.now`). */
  readonly now?: () => number;
}

export interface WebInbox {
  /**
   * Answer the request if it is one of the inbox's routes (`WEB_ROUTES`) and return true; return false, touching
   * nothing, for any other path (the caller answers it).
   */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** End every open event stream (call before closing the HTTP server, which would otherwise wait for them). */
  close(): void;
  /** The actor the page answers as. */
  readonly actor: Actor;
}

const BODY_MAX = 64 * 1024;
const SESSION_COOKIE = 'ask_later_session';
const DAY_MS = 24 * 60 * 60 * 1000;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
} as const;

const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } as const;

const pickSchema = z.object({
  choices: z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(OPTIONS_MAX - 1),
    )
    .max(OPTIONS_MAX),
  other: z.boolean(),
});
const refSchema = z.string().max(40);
const notesSchema = z.string().max(NOTES_MAX, `Notes can be at most ${NOTES_MAX} characters.`);
/** The member of a set (0 for `#12.1`). */
const memberSchema = z
  .number()
  .int()
  .min(0)
  .max(SET_MEMBERS_MAX - 1);
/** Notes per option: the option by its index. */
const choiceNoteSchema = z.object({
  choice: z
    .number()
    .int()
    .min(0)
    .max(OPTIONS_MAX - 1),
  notes: notesSchema,
});
const draftSchema = z.object({
  ref: refSchema,
  member: memberSchema.optional(),
  pick: pickSchema.optional(),
  notes: notesSchema.optional(),
  choiceNotes: z.array(choiceNoteSchema).max(OPTIONS_MAX).optional(),
});
/** What a set's panels show picked, one per member (null: not reported). */
const picksSchema = z.array(pickSchema.nullable()).max(SET_MEMBERS_MAX);
const sendSchema = z.object({ ref: refSchema, pick: pickSchema.optional(), picks: picksSchema.optional() });
const reviewSchema = z.object({ ref: refSchema, picks: picksSchema.optional() });
const sendReadySchema = z.object({ refs: z.array(refSchema).max(500) });
const removeSchema = z.object({ ref: refSchema });

type PickInput = z.infer<typeof pickSchema>;

/** The OS user's name, else `you`: who the page answers as. */
export function localDisplayName(): string {
  try {
    const name = userInfo().username.trim();
    return name === '' ? 'you' : name;
  } catch {
    return 'you';
  }
}

/** A refusal the person can act on, answered as `{ ok: false, text }`. */
class RequestRefused extends Error {
  override readonly name = 'RequestRefused';
  readonly status: number;
  constructor(status: number, text: string) {
    super(text);
    this.status = status;
  }
}

export function createWebInbox(options: WebInboxOptions): WebInbox {
  const log = options.logger ?? silentLogger;
  const actor: Actor = { platform: 'web', userId: 'local', displayName: options.displayName ?? localDisplayName() };
  const place = { channel: WEB_CHANNEL };
  const now = options.now ?? Date.now;
  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  const origins = options.origins ?? originRule();
  const session = token === undefined ? undefined : sessionValue(token);
  const streams = new Set<ServerResponse>();
  const routes = new Set<string>(Object.values(WEB_ROUTES));
  const timeZone = options.timeZone;

  /**
   * What the page shows, read a page at a time: the filters' counts and one page of waiting cards (through the
   * service, as every surface), each project's waiting count, and the newest closed questions of the last day.
   */
  async function load(state: InboxState): Promise<WebInboxView> {
    const store = options.store;
    const projects = await store.knownProjects();
    const scoped = state.project === undefined ? projects : projects.filter((p) => projectTag(p) === state.project);
    // One count of every project: the project filter's numbers, and the service's filter counts for this page.
    const counts = await store.countAcross(projects);
    const [page, recent] = await Promise.all([
      options.interactions.inboxPage(actor, place, {
        filter: state.filter,
        limit: WEB_PAGE_SIZE,
        counts,
        ...(state.after === undefined ? {} : { after: state.after }),
        ...(state.project === undefined ? {} : { project: state.project }),
      }),
      store.pageAcross(scoped, {
        view: 'closed',
        since: now() - (options.recentMs ?? DAY_MS),
        limit: options.recentMax ?? 50,
      }),
    ]);
    const entries: WebProjectEntry[] = [];
    for (const [project, count] of counts) {
      const waiting = count.blocking + count.canWait;
      if (waiting > 0) entries.push({ tag: projectTag(project), project, waiting });
    }
    // The closed list follows the blocking filter among the newest it read (it is a glance, not a search).
    const closed = recent.questions
      .filter((question) => state.filter === 'all' || question.isBlocking === (state.filter === 'blocking'))
      .map((question) => ({ question }));
    return { page, closed, projects: entries, state, ...(timeZone === undefined ? {} : { timeZone }) };
  }

  /**
   * The Answered view's reads, each bounded by what it shows: the page (from the answered index), every project's
   * answer count (for the project filter and where the page is), and the chart's days of answers.
   */
  async function loadAnswered(state: AnsweredState): Promise<AnsweredInput> {
    const store = options.store;
    const projects = await store.knownProjects();
    const scoped = state.project === undefined ? projects : projects.filter((p) => projectTag(p) === state.project);
    const at = now();
    const [page, counts, recent] = await Promise.all([
      decisionsPage(store, {
        projects: scoped,
        limit: ANSWERED_PAGE_SIZE,
        ...(state.search === undefined ? {} : { search: state.search }),
        ...(state.after === undefined ? {} : { after: state.after }),
      }),
      store.countAcross(projects),
      listDecisions(store, { projects: scoped, since: at - CHART_DAYS * DAY_MS }),
    ]);
    return {
      page,
      recent,
      projects: [...counts].map(([project, count]) => ({ project, answered: count.answered })),
      state,
      now: at,
      ...(timeZone === undefined ? {} : { timeZone }),
    };
  }

  /** The question a ref names, if there is one (an unknown question is the service's to report). */
  async function questionOf(ref: string): Promise<Question | undefined> {
    const parsed = parseQuestionRef(ref);
    const project = parsed ? await options.store.projectByTag(parsed.tag) : undefined;
    return parsed && project ? options.store.get(project, parsed.id) : undefined;
  }

  /**
   * The item a draft is for: the question itself, or the set's `member`. Refused (400) when the page names a member
   * of a single question, none of a set, or one the set does not have (the page is older than the question).
   */
  function itemOf(question: Question, member: number | undefined): QuestionItem {
    if (question.members === undefined) {
      if (member === undefined) return question;
      throw new RequestRefused(400, 'That question is not a set; reload the page.');
    }
    const item = member === undefined ? undefined : question.members[member];
    if (item === undefined) throw new RequestRefused(400, 'Say which question of the set; reload the page.');
    return item;
  }

  /** An option index as its label; refused (400) when it is not one of the item's options. */
  function labelOf(item: QuestionItem, index: number): string {
    const label = item.options[index]?.label;
    if (label === undefined) {
      throw new RequestRefused(400, 'That option is not one of the question’s options; reload the page.');
    }
    return label;
  }

  function pickOf(item: QuestionItem, pick: PickInput): AnswerPick {
    return { choices: pick.choices.map((index) => labelOf(item, index)), other: pick.other };
  }

  /** What the page shows picked, item by item, as the labels the service takes (`ShownPicks`). */
  async function shownOf(
    ref: string,
    input: { readonly pick?: PickInput | undefined; readonly picks?: (PickInput | null)[] | undefined },
  ): Promise<ShownPicks> {
    if (input.pick === undefined && input.picks === undefined) return [];
    const question = await questionOf(ref);
    if (!question) return [];
    const items = itemsOf(question);
    const picks = input.picks ?? [input.pick ?? null];
    if (picks.length > items.length) throw new RequestRefused(400, 'That question has fewer parts; reload the page.');
    return picks.map((pick, index) => {
      const item = items[index];
      return pick === null || item === undefined ? undefined : pickOf(item, pick);
    });
  }

  async function act(path: string, body: unknown): Promise<{ ok: boolean; text: string; [key: string]: unknown }> {
    switch (path) {
      case WEB_ROUTES.draft: {
        const input = parse(draftSchema, body);
        const question = await questionOf(input.ref);
        const item = question ? itemOf(question, input.member) : undefined;
        const pick = input.pick === undefined || item === undefined ? undefined : pickOf(item, input.pick);
        const choiceNotes =
          input.choiceNotes === undefined || item === undefined
            ? undefined
            : input.choiceNotes.map((entry) => ({ choice: labelOf(item, entry.choice), notes: entry.notes }));
        const outcome = await options.interactions.saveDraft(input.ref, actor, place, {
          ...(input.member === undefined ? {} : { member: input.member }),
          ...(pick === undefined ? {} : { pick }),
          ...(input.notes === undefined ? {} : { notes: input.notes }),
          ...(choiceNotes === undefined ? {} : { choiceNotes }),
        });
        if (outcome.ok) {
          options.surface.notify(input.ref);
          return { ok: true, text: '', readiness: outcome.readiness };
        }
        return { ok: false, text: outcome.text, refusal: outcome.refusal };
      }
      case WEB_ROUTES.review: {
        const input = parse(reviewSchema, body);
        const review = await options.interactions.review(input.ref, actor, place, await shownOf(input.ref, input));
        if (!review.ok) return { ok: false, text: review.text, refusal: review.refusal };
        return {
          ok: true,
          ready: review.ready,
          text: review.text,
          summary: review.summary,
          lines: review.lines.map((line) => ({
            ref: line.ref,
            ...(line.topic === undefined ? {} : { topic: line.topic }),
            answer: line.answer,
            readiness: line.readiness,
          })),
        };
      }
      case WEB_ROUTES.send: {
        const input = parse(sendSchema, body);
        const shown = await shownOf(input.ref, input);
        const outcome = await options.interactions.send(
          input.ref,
          actor,
          place,
          shown.length === 0 ? undefined : shown,
        );
        options.surface.notify(input.ref);
        return outcomeBody(outcome);
      }
      case WEB_ROUTES.remove: {
        const input = parse(removeSchema, body);
        const outcome = await options.interactions.remove(input.ref, actor, place);
        options.surface.notify(input.ref);
        return outcomeBody(outcome);
      }
      case WEB_ROUTES.sendReady: {
        const input = parse(sendReadySchema, body);
        const results = await options.interactions.sendReady([...new Set(input.refs)], actor, place);
        for (const { ref } of results) options.surface.notify(ref);
        const sent = results.filter((result) => result.outcome.ok).length;
        const refused = results.filter((result) => !result.outcome.ok).map((result) => result.outcome.text);
        const head = sent === 0 ? 'Nothing was sent.' : `Sent ${answersCount(sent)}.`;
        return {
          ok: refused.length === 0 && sent > 0,
          text: [head, ...refused].join(' '),
          sent,
          results: results.map(({ ref, outcome }) => ({ ref, ok: outcome.ok, text: outcome.text })),
        };
      }
      default:
        throw new RequestRefused(404, 'No such action.');
    }
  }

  function openStream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 3000\n: connected\n\n');
    streams.add(response);
    const unsubscribe = options.surface.subscribe((ref) => {
      // Refs are `<16 url-safe chars>.<digits>`: nothing in them can break an event's framing.
      response.write(`data: ${ref}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': ping\n\n'), options.heartbeatMs ?? 15_000);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
    };
    request.once('close', end);
    response.once('close', end);
  }

  async function serve(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const path = url.pathname;

    const refused = origins.refusal(request.headers);
    if (refused !== undefined) return sendText(response, 403, `Refused: ${refused}.`);
    // Static assets hold no data: served without a session, so the sign-in page is styled too.
    if (path === WEB_ROUTES.style || path === WEB_ROUTES.script) {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(response, 'GET, HEAD');
      const [type, body] =
        path === WEB_ROUTES.style
          ? ['text/css; charset=utf-8', INBOX_STYLESHEET]
          : ['text/javascript; charset=utf-8', INBOX_CLIENT_SCRIPT];
      response.writeHead(200, { ...COMMON_HEADERS, 'content-type': type, 'cache-control': 'no-cache' });
      response.end(method === 'HEAD' ? undefined : body);
      return;
    }
    if (path === WEB_ROUTES.login) return login(request, response, method);

    if (!signedIn(request)) {
      if ((path === WEB_ROUTES.page || path === WEB_ROUTES.answered) && method === 'GET') {
        response.writeHead(401, { ...COMMON_HEADERS, ...HTML_HEADERS });
        response.end(renderLoginPage({ failed: false }));
        return;
      }
      return sendJson(response, 401, { ok: false, text: 'Sign in first.' });
    }

    if (path === WEB_ROUTES.page || path === WEB_ROUTES.inbox) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      const view = await load(parseInboxState(url.searchParams));
      response.writeHead(200, { ...COMMON_HEADERS, ...HTML_HEADERS });
      response.end(
        path === WEB_ROUTES.page
          ? renderInboxPage(view, { viewer: actor.displayName })
          : renderInboxFragment(view).toString(),
      );
      return;
    }
    if (path === WEB_ROUTES.answered) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      const state = parseAnsweredState(url.searchParams);
      const page = renderAnsweredPage(await loadAnswered(state));
      response.writeHead(200, { ...COMMON_HEADERS, ...HTML_HEADERS });
      response.end(page);
      return;
    }
    if (path === WEB_ROUTES.events) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      return openStream(request, response);
    }
    // The JSON actions.
    if (method !== 'POST') return methodNotAllowed(response, 'POST');
    checkSameOrigin(request);
    if (!isJson(request.headers['content-type'])) {
      throw new RequestRefused(415, 'Send JSON (Content-Type: application/json).');
    }
    const body = await readJson(request);
    const started = Date.now();
    const result = await act(path, body);
    log.info({ route: path, ok: result.ok, ms: Date.now() - started }, 'web inbox: action');
    return sendJson(response, 200, result);
  }

  function signedIn(request: IncomingMessage): boolean {
    if (token === undefined || session === undefined) return true;
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && sameSecret(bearer, token)) return true;
    const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
    return cookie !== undefined && sameSecret(cookie, session);
  }

  async function login(request: IncomingMessage, response: ServerResponse, method: string): Promise<void> {
    if (token === undefined || session === undefined) {
      response.writeHead(303, { ...COMMON_HEADERS, location: WEB_ROUTES.page });
      response.end();
      return;
    }
    if (method === 'GET') {
      response.writeHead(200, { ...COMMON_HEADERS, ...HTML_HEADERS });
      response.end(renderLoginPage({ failed: false }));
      return;
    }
    if (method !== 'POST') return methodNotAllowed(response, 'GET, POST');
    checkSameOrigin(request);
    const given = new URLSearchParams(await readBody(request)).get('token') ?? '';
    if (!sameSecret(given, token)) {
      log.warn({ route: WEB_ROUTES.login }, 'web inbox: sign-in refused');
      response.writeHead(401, { ...COMMON_HEADERS, ...HTML_HEADERS });
      response.end(renderLoginPage({ failed: true }));
      return;
    }
    response.writeHead(303, {
      ...COMMON_HEADERS,
      location: WEB_ROUTES.page,
      'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict`,
    });
    response.end();
  }

  return {
    actor,
    handle(request, response) {
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://inbox.invalid');
      } catch {
        return false;
      }
      if (!routes.has(url.pathname)) return false;
      serve(request, response, url).catch((error: unknown) => {
        if (error instanceof RequestRefused) {
          if (!response.headersSent) sendJson(response, error.status, { ok: false, text: error.message });
          else response.end();
          return;
        }
        const unavailable = error instanceof StoreUnavailableError;
        log.warn({ route: url.pathname, ...errorFields(error) }, 'web inbox: request failed');
        if (response.headersSent) {
          response.end();
          return;
        }
        const status = unavailable ? 503 : 500;
        const text = unavailable
          ? 'The ask-later store is unreachable; try again in a moment.'
          : 'Something went wrong in the inbox; try again.';
        if (url.pathname === WEB_ROUTES.page || url.pathname === WEB_ROUTES.answered) sendText(response, status, text);
        else sendJson(response, status, { ok: false, text });
      });
      return true;
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}

function outcomeBody(outcome: Outcome): { ok: boolean; text: string; [key: string]: unknown } {
  return outcome.ok ? { ok: true, text: outcome.text } : { ok: false, text: outcome.text, refusal: outcome.refusal };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const custom = result.error.issues.find((issue) => issue.code === 'too_big' && issue.path.at(-1) === 'notes');
  throw new RequestRefused(400, custom?.message ?? 'That request is not one the inbox understands; reload the page.');
}

/** The session cookie's value: derived from the token, so the cookie never holds the token itself. */
function sessionValue(token: string): string {
  return createHmac('sha256', token).update('ask-later web inbox session').digest('base64url');
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** Refuse a request another site's page made: its `Origin` must be this host, `Sec-Fetch-Site` same-origin. */
function checkSameOrigin(request: IncomingMessage): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new RequestRefused(403, 'Only the inbox page itself can do that.');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = request.headers.host ?? '';
  if (origin !== `http://${host}` && origin !== `https://${host}`) {
    throw new RequestRefused(403, 'Only the inbox page itself can do that.');
  }
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_MAX) throw new RequestRefused(413, 'That request is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const text = await readBody(request);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestRefused(400, 'That request is not JSON.');
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

function methodNotAllowed(response: ServerResponse, allow: string): void {
  response.writeHead(405, { ...COMMON_HEADERS, allow, 'content-type': 'text/plain; charset=utf-8' });
  response.end('Method not allowed.');
}

export interface StartedWebInbox {
  readonly port: number;
  /** `http://host:port` as bound. */
  readonly url: string;
  readonly inbox: WebInbox;
  /** End the event streams and close the server. */
  stop(): Promise<void>;
}

/** Run the web inbox on a server of its own (tests, or a `serve` without other routes); 404 for other paths. */
export async function startWebInbox(
  options: WebInboxOptions & { readonly host?: string; readonly port?: number },
): Promise<StartedWebInbox> {
  const inbox = createWebInbox(options);
  const server: Server = createServer((request, response) => {
    if (!inbox.handle(request, response)) sendText(response, 404, 'Not found.');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    inbox,
    stop: async () => {
      inbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
