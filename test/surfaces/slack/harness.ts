/**
 * `ask-later serve` in-process against the fake Slack Web API and the test Redis, driven like Slack drives it:
 * signed HTTP requests to `/slack/events` shaped like Slack's payloads. A small local server stands in for
 * `response_url` (ephemeral replies) and records what was said to whom.
 */
import { createServer, type Server } from 'node:http';
import { inject } from 'vitest';
import type { ServeConfig, SlackConfig } from '../../../src/config/serve.js';
import type { Logger } from '../../../src/core/logger.js';
import type { Question } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { ACTION_IDS, CALLBACK_IDS, NOTES_BLOCK_IDS, optionNotesBlockId } from '../../../src/render/slack/ids.js';
import { type ServeDeps, type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import {
  commandBody,
  FakeSlackApi,
  interactionBody,
  postSigned,
  type SignedOptions,
  type SlackCall,
} from '../../fakes/slack-api.js';
import { openTestStore, uniquePrefix } from '../../support/store.js';

export const SECRET = 'test-signing-secret';
export const CHANNEL = 'CTEAM';
export const TEST_RETRY = { retries: 3, factor: 1, minTimeout: 10, maxTimeout: 20 };

/** Log lines as the app wrote them (fields + message), for checks that no text leaks. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  info(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'info', fields, message });
  }
  warn(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'warn', fields, message });
  }
  error(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'error', fields, message });
  }
  text(): string {
    return JSON.stringify(this.lines);
  }
}

/** The `response_url` stand-in: records each ephemeral reply by the path it was sent to. */
export class Responder {
  readonly replies: { path: string; body: Record<string, unknown> }[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      this.replies.push({
        path: request.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  /** Replies sent to `/r/<user>`. */
  to(user: string): string[] {
    return this.replies.filter((r) => r.path === `/r/${user}`).map((r) => String(r.body.text));
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

export interface Harness {
  readonly slack: FakeSlackApi;
  readonly store: RedisStore;
  readonly serve: ServeHandle;
  readonly responder: Responder;
  readonly logger: RecordingLogger;
  readonly config: ServeConfig;
  /** POST a signed interactive payload; returns status and body. */
  interact(payload: unknown, signing?: Partial<SignedOptions>): Promise<{ status: number; text: string }>;
  command(fields: Record<string, string>): Promise<{ status: number; text: string }>;
  event(event: Record<string, unknown>): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  readonly allowedUsers?: readonly string[];
  readonly deps?: ServeDeps;
  /** Start the fake Slack before (to schedule failures before the bridge posts). */
  readonly slack?: FakeSlackApi;
  readonly prefix?: string;
  /** Settings over the defaults (e.g. `appToken` and `apiUrl` for Socket Mode). */
  readonly slackConfig?: Partial<SlackConfig>;
  /** The routing file's routes. */
  readonly routes?: ServeConfig['routes'];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const slack = options.slack ?? (await new FakeSlackApi().start());
  const responder = await new Responder().start();
  const logger = new RecordingLogger();
  const prefix = options.prefix ?? uniquePrefix();
  const config: ServeConfig = {
    store: { kind: 'redis', url: inject('redisUrl'), prefix: prefix },
    port: 0,
    host: '127.0.0.1',
    slack: {
      botToken: 'xoxb-test',
      signingSecret: SECRET,
      channel: CHANNEL,
      apiUrl: slack.url,
      allowedUsers: options.allowedUsers ?? [],
      ...options.slackConfig,
    },
    ...(options.routes !== undefined ? { routes: options.routes } : {}),
  };
  const serve = await startServe(config, {
    logger,
    retryConfig: TEST_RETRY,
    bridge: { blockMs: 50, retryBaseMs: 10 },
    sweepMs: 0,
    ...options.deps,
  });
  const store = await openTestStore({ prefix });
  const endpoint = () => `http://127.0.0.1:${serve.port}/slack/events`;
  return {
    slack,
    store,
    serve,
    responder,
    logger,
    config,
    interact: (payload, signing = {}) =>
      postSigned(endpoint(), interactionBody(payload), 'application/x-www-form-urlencoded', {
        secret: SECRET,
        ...signing,
      }),
    command: (fields) =>
      postSigned(endpoint(), commandBody(fields), 'application/x-www-form-urlencoded', { secret: SECRET }),
    event: (event) =>
      postSigned(
        endpoint(),
        JSON.stringify({
          token: 't',
          team_id: 'T1',
          api_app_id: 'A1',
          type: 'event_callback',
          event_id: `Ev${Date.now()}`,
          event_time: Math.floor(Date.now() / 1000),
          event,
        }),
        'application/json',
        { secret: SECRET },
      ),
    stop: async () => {
      await serve.stop();
      await store.close();
      await responder.stop();
      await slack.stop();
    },
  };
}

export function refOf(question: Pick<Question, 'project' | 'id'>): string {
  return formatQuestionRef(question.project, question.id);
}

/** The posted message of a question (by the ref in its metadata). */
export function postedMessage(slack: FakeSlackApi, question: Pick<Question, 'project' | 'id'>) {
  const ref = refOf(question);
  return slack.messages.find((m) => (m.metadata as { event_payload?: { ref?: string } })?.event_payload?.ref === ref);
}

export function postOf(slack: FakeSlackApi, question: Pick<Question, 'project' | 'id'>): SlackCall | undefined {
  const ref = refOf(question);
  return slack
    .callsOf('chat.postMessage')
    .find((c) => (c.body.metadata as { event_payload?: { ref?: string } })?.event_payload?.ref === ref);
}

export function user(id: string) {
  return { id, username: id.toLowerCase(), name: `name-${id.toLowerCase()}`, team_id: 'T1' };
}

type Blocks = {
  type: string;
  block_id?: string;
  elements?: { action_id?: string; initial_option?: unknown; initial_options?: unknown; type?: string }[];
}[];

/**
 * `state.values` as Slack sends it for a message: every select of the message with what it shows (its initial
 * option), unless the viewer changed it (`selected`).
 */
export function messageState(blocks: unknown, selected?: { value: string } | { value: string }[] | null) {
  const values: Record<string, Record<string, unknown>> = {};
  for (const block of (blocks ?? []) as Blocks) {
    for (const element of block.elements ?? []) {
      if (element.action_id !== ACTION_IDS.pick || block.block_id === undefined) continue;
      const state: Record<string, unknown> = { type: element.type };
      if (element.type === 'multi_static_select') {
        state.selected_options = selected === undefined ? (element.initial_options ?? []) : selected;
      } else {
        state.selected_option = selected === undefined ? (element.initial_option ?? null) : selected;
      }
      values[block.block_id] = { [ACTION_IDS.pick]: state };
    }
  }
  return values;
}

/** The block id of the question's picker in the message as last drawn (of a set: the `member`th picker). */
export function pickerBlockId(blocks: unknown, member = 0): string {
  const block = ((blocks ?? []) as Blocks).filter((b) => b.elements?.some((e) => e.action_id === ACTION_IDS.pick))[
    member
  ];
  if (block?.block_id === undefined) throw new Error('no picker in the message');
  return block.block_id;
}

/** A click on a set member's "Add notes": its block is the member's picker block. */
export function memberButtonAction(actionId: string, ref: string, blockId: string) {
  return { action_id: actionId, block_id: blockId, type: 'button', value: ref };
}

/** A multi-select's pick as Slack sends it (`selected_options`). */
export function multiSelectAction(blockId: string, values: readonly string[], actionId: string = ACTION_IDS.pick) {
  return {
    action_id: actionId,
    block_id: blockId,
    type: 'multi_static_select',
    selected_options: values.map((value) => ({ text: { type: 'plain_text', text: value }, value })),
  };
}

export interface ClickOptions {
  readonly user: string;
  readonly responder: Responder;
  readonly message: { channel: string; ts: string; blocks: unknown };
  readonly triggerId?: string;
  readonly channel?: string;
}

/** A `block_actions` payload from a question message, shaped like Slack's. */
export function messageAction(
  options: ClickOptions,
  action: Record<string, unknown>,
  state: Record<string, Record<string, unknown>> = messageState(options.message.blocks),
) {
  const channel = options.channel ?? options.message.channel;
  return {
    type: 'block_actions',
    user: user(options.user),
    api_app_id: 'A1',
    token: 'verification-token',
    container: { type: 'message', message_ts: options.message.ts, channel_id: channel, is_ephemeral: false },
    trigger_id: options.triggerId ?? `trigger-${options.user}-${Date.now()}`,
    team: { id: 'T1', domain: 'team' },
    channel: { id: channel, name: 'team' },
    message: { type: 'message', ts: options.message.ts, blocks: options.message.blocks },
    state: { values: state },
    response_url: `${options.responder.url}/r/${options.user}`,
    actions: [{ action_ts: `${Date.now() / 1000}`, ...action }],
  };
}

export function buttonAction(actionId: string, ref: string) {
  return { action_id: actionId, block_id: 'b', type: 'button', value: ref };
}

export function selectAction(blockId: string, value: string) {
  return {
    action_id: ACTION_IDS.pick,
    block_id: blockId,
    type: 'static_select',
    selected_option: { text: { type: 'plain_text', text: value }, value },
  };
}

/**
 * A `view_submission` of the notes modal as Slack sends it: `pick` one value (a static select) or several (a
 * multi-select); `optionNotes` the notes typed per option (option index → text), for a multi-select's fields.
 */
export function notesSubmission(
  userId: string,
  view: { id: string; private_metadata: unknown; previous_view_id?: string | null },
  pick: string | readonly string[] | null,
  notes: string | null,
  optionNotes: Readonly<Record<number, string>> = {},
) {
  const pickState =
    typeof pick === 'object' && pick !== null
      ? { type: 'multi_static_select', selected_options: pick.map((value) => ({ value })) }
      : { type: 'static_select', selected_option: pick === null ? null : { value: pick } };
  return viewSubmission(userId, view, CALLBACK_IDS.notes, view.previous_view_id ?? null, {
    [NOTES_BLOCK_IDS.pick]: { [ACTION_IDS.notesPick]: pickState },
    ...Object.fromEntries(
      Object.entries(optionNotes).map(([index, value]) => [
        optionNotesBlockId(Number(index)),
        { [ACTION_IDS.notesOption]: { type: 'plain_text_input', value } },
      ]),
    ),
    [NOTES_BLOCK_IDS.notes]: { [ACTION_IDS.notesText]: { type: 'plain_text_input', value: notes } },
  });
}

/** A `view_submission` of a set's review modal (no inputs: its metadata is what it carries). */
export function reviewSubmission(userId: string, view: { id: string; private_metadata: unknown }) {
  return viewSubmission(userId, view, CALLBACK_IDS.review, null, {});
}

/** A modal's `view_submission` as Slack sends it, with its inputs' `state.values`. */
function viewSubmission(
  userId: string,
  view: { id: string; private_metadata: unknown },
  callbackId: string,
  previousViewId: string | null,
  values: Record<string, unknown>,
) {
  return {
    type: 'view_submission',
    team: { id: 'T1', domain: 'team' },
    user: user(userId),
    api_app_id: 'A1',
    token: 'verification-token',
    trigger_id: `trigger-${userId}-${Date.now()}`,
    view: {
      id: view.id,
      type: 'modal',
      callback_id: callbackId,
      private_metadata: view.private_metadata,
      hash: 'h1',
      previous_view_id: previousViewId,
      root_view_id: view.id,
      state: { values },
    },
    response_urls: [],
  };
}

/** A `block_actions` payload from a view (the inbox modal or Home tab, or the notes modal). */
export function viewAction(
  userId: string,
  view: { id: string; type: 'modal' | 'home'; private_metadata?: unknown; callback_id?: unknown },
  action: Record<string, unknown>,
) {
  return {
    type: 'block_actions',
    user: user(userId),
    api_app_id: 'A1',
    token: 'verification-token',
    container: { type: 'view', view_id: view.id },
    trigger_id: `trigger-${userId}-${Date.now()}`,
    team: { id: 'T1', domain: 'team' },
    view: { ...view, hash: 'h1', state: { values: {} }, previous_view_id: null, root_view_id: view.id },
    actions: [{ action_ts: `${Date.now() / 1000}`, ...action }],
  };
}
