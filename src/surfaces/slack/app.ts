/**
 * The Bolt app: the transport. Socket Mode when an app token is configured, else HTTP: `handle` answers
 * `POST /slack/events` (events, interactivity and slash commands, signature-checked by Bolt) on the server `serve`
 * runs for every route (the web inbox, `/healthz`).
 *
 * One listener per action id (and per view callback, `/questions`, the Home tab): each acks first (Slack wants it
 * within 3 s; a modal must open on a trigger that lives 3 s; a view submission is acked with its answer), then runs
 * the pipeline: `parse.ts` reads the payload as an action, `actions/perform.ts` performs it, `reply.ts` renders the
 * result. Nothing is thrown out of a listener: failures go to one sink that logs the error's name and codes and the
 * payload's ids, never text; Bolt's own `app.error` ends in the same sink.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { SlackConfig } from '../../config/serve.js';
import type { Logger } from '../../core/logger.js';
import { ACTION_IDS, CALLBACK_IDS, NOTES_BLOCK_IDS } from '../../render/slack/ids.js';
import { perform } from '../actions/perform.js';
import type { InteractionService } from '../interactions.js';
import { slackLogger } from './bolt-logger.js';
import { refusedBeforeBolt } from './http-gate.js';
import { noticeModal } from './notice.js';
import {
  parseHomeOpened,
  parseInboxAction,
  parseMessageAction,
  parseNotesPick,
  parseQuestionsCommand,
  type SlackRequest,
} from './parse.js';
import { parseNotesSubmit, parseReviewSubmit } from './parse-submissions.js';
import { type BlockActions, payloadIds, readBlockActions } from './payload.js';
import { fetchRespond, SlackReplier, type SlackReply, type ViewAck } from './reply.js';
import { type RetryOptions, slackErrorFields, webClientOptions } from './web.js';

/** The action ids ask-later's messages and views carry, each with a listener of its own. */
const LISTENED_ACTION_IDS = new Set<string>([
  ACTION_IDS.pick,
  ACTION_IDS.notes,
  ACTION_IDS.send,
  ACTION_IDS.remove,
  ACTION_IDS.notesPick,
  ACTION_IDS.inboxFilter,
  ACTION_IDS.inboxPage,
  ACTION_IDS.inboxPick,
  ACTION_IDS.inboxNotes,
  ACTION_IDS.inboxSendAll,
]);

export interface SlackAppOptions {
  readonly config: SlackConfig;
  readonly interactions: InteractionService;
  readonly logger: Logger;
  /** Web API retries (default `SERVE_RETRY_CONFIG`); tests use small ones. */
  readonly retryConfig?: RetryOptions;
  /** Skip Bolt's `auth.test` when both are known. */
  readonly botId?: string;
  readonly botUserId?: string;
  /** Posts an ephemeral reply to a `response_url` (default `fetch`). */
  readonly respond?: (responseUrl: string, body: Record<string, unknown>) => Promise<void>;
}

export interface SlackApp {
  readonly app: App;
  readonly mode: 'http' | 'socket';
  /** Verify the token (Bolt's `auth.test`: a bad token fails here, not at the first click) and start receiving. */
  start(): Promise<void>;
  /**
   * HTTP mode: answer a request for `SLACK_EVENTS_PATH` (the caller's server routes it here). Before `start` and
   * after `stop` it answers 503, so Slack retries with another replica or later.
   */
  readonly handle?: (request: IncomingMessage, response: ServerResponse) => void;
  /** Whether it receives now: started (HTTP), or Socket Mode connected. */
  connected(): boolean;
  /**
   * Stop receiving (HTTP requests are refused; the socket disconnects), then wait for the interactions being
   * handled (each was acknowledged to Slack: its work must finish before the store closes).
   */
  stop(): Promise<void>;
}

/** How long a notes or review submission may take before it is acked with "try again" (Slack's limit is 3 s). */
const SUBMIT_DEADLINE_MS = 2500;

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const { config, logger: log } = options;
  const boltLog = slackLogger(log);
  const clientOptions = webClientOptions({
    ...(config.apiUrl !== undefined ? { apiUrl: config.apiUrl } : {}),
    ...(options.retryConfig !== undefined ? { retryConfig: options.retryConfig } : {}),
  });
  const socket = config.appToken !== undefined;
  let receiver: Receiver;
  let httpReceiver: HTTPReceiver | undefined;
  let socketConnected = false;
  if (config.appToken !== undefined) {
    const socketReceiver = new SocketModeReceiver({
      appToken: config.appToken,
      logger: boltLog,
      installerOptions: { clientOptions },
    });
    socketReceiver.client.on('connected', () => {
      socketConnected = true;
    });
    for (const state of ['reconnecting', 'disconnecting', 'disconnected']) {
      socketReceiver.client.on(state, () => {
        socketConnected = false;
      });
    }
    receiver = socketReceiver;
  } else {
    if (config.signingSecret === undefined) throw new Error('HTTP mode needs the signing secret');
    httpReceiver = new HTTPReceiver({
      signingSecret: config.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      logger: boltLog,
      // Unanswered requests get Bolt's 404 a little after Slack gave up anyway.
      unhandledRequestTimeoutMillis: 3001,
    });
    receiver = httpReceiver;
  }

  const app = new App({
    token: config.botToken,
    receiver,
    logger: boltLog,
    clientOptions: { ...clientOptions, logger: boltLog },
    // `start` runs `init`: its auth.test (skipped when both bot ids are given) fails there, where it can be told.
    deferInitialization: true,
    ...(options.botId !== undefined && options.botUserId !== undefined
      ? { botId: options.botId, botUserId: options.botUserId, tokenVerificationEnabled: false }
      : {}),
  });

  /** The one sink: error name and codes, the payload's ids. */
  const sink = (error: unknown, where: string, payload?: unknown) => {
    log.error({ where, ...slackErrorFields(error), ...payloadIds(payload) }, 'slack: interaction failed');
  };
  app.error(async (error) => sink(error, 'bolt'));

  const replier = new SlackReplier({
    interactions: options.interactions,
    client: app.client,
    logger: log,
    respond: options.respond ?? fetchRespond,
  });
  /** The pipeline: the payload read as an action, performed, its result rendered as Slack's reply. */
  const pipeline = async (where: string, payload: unknown, request: SlackRequest | undefined): Promise<SlackReply> => {
    if (request === undefined) {
      log.warn({ where, ...payloadIds(payload) }, 'slack: payload dropped (not one ask-later reads)');
      return {};
    }
    return replier.reply(request, await perform(options.interactions, request, log));
  };
  /** Listener runs not finished yet: `stop` waits for them. Each is tracked before its ack, so none slips by. */
  const inFlight = new Set<Promise<void>>();
  const track = (run: () => Promise<void>): Promise<void> => {
    const running = run().finally(() => inFlight.delete(running));
    inFlight.add(running);
    return running;
  };
  const timed = async (where: string, payload: unknown, work: () => Promise<unknown>) => {
    const started = Date.now();
    try {
      await work();
      log.info({ where, ...payloadIds(payload), ms: Date.now() - started }, 'slack: interaction handled');
    } catch (error) {
      sink(error, where, payload);
    }
  };

  // One listener per action id: ack at once, then the pipeline.
  const blockAction = (actionId: string, parse: (p: BlockActions) => SlackRequest | undefined) =>
    app.action(actionId, ({ ack, body }) =>
      track(async () => {
        await ack();
        const read = readBlockActions(body);
        await timed('block_actions', body, () =>
          pipeline('block_actions', body, read === undefined ? undefined : parse(read)),
        );
      }),
    );
  for (const id of [ACTION_IDS.pick, ACTION_IDS.notes, ACTION_IDS.send, ACTION_IDS.remove]) {
    blockAction(id, parseMessageAction);
  }
  blockAction(ACTION_IDS.notesPick, parseNotesPick);
  for (const id of [
    ACTION_IDS.inboxFilter,
    ACTION_IDS.inboxPage,
    ACTION_IDS.inboxPick,
    ACTION_IDS.inboxNotes,
    ACTION_IDS.inboxSendAll,
  ]) {
    blockAction(id, parseInboxAction);
  }
  // Anything else (not ours, or from an older message) is acked and dropped with a warning. Bolt runs every
  // matching listener, so this one must match none of the above.
  const ours = [...LISTENED_ACTION_IDS].join('|');
  app.action(new RegExp(`^(?!(?:${ours})$)`), async ({ ack, body }) => {
    await ack();
    log.warn({ where: 'block_actions', ...payloadIds(body) }, 'slack: payload dropped (unknown action)');
  });

  /** A view submission: the pipeline within Slack's 3 s, acked with its answer (or `late` when it ran out). */
  const submission = (callbackId: string, parse: (body: unknown) => SlackRequest | undefined, late: ViewAck) =>
    app.view({ callback_id: callbackId, type: 'view_submission' }, ({ ack, body }) =>
      track(async () => {
        const started = Date.now();
        let reply: SlackReply;
        try {
          reply = await deadline(pipeline('view_submission', body, parse(body)), SUBMIT_DEADLINE_MS);
        } catch (error) {
          sink(error, 'view_submission', body);
          await ack(late);
          return;
        }
        await ack(reply.ack);
        log.info(
          { where: 'view_submission', ...payloadIds(body), ms: Date.now() - started },
          'slack: submission acked',
        );
        const after = reply.after;
        if (after) await timed('view_submission.after', body, after);
      }),
    );
  submission(CALLBACK_IDS.notes, parseNotesSubmit, {
    response_action: 'errors',
    errors: { [NOTES_BLOCK_IDS.notes]: 'Could not save your notes just now: try again.' },
  });
  // A set's review: its submit sends. Acked with nothing (closes), or the modal replaced by why not.
  submission(CALLBACK_IDS.review, parseReviewSubmit, {
    response_action: 'update',
    view: noticeModal('Not sent', 'Could not send the set just now: try again from its message.'),
  });
  // Other views (the inbox modal, notices) have no submit button; ack anything else that arrives. (Bolt runs every
  // matching listener, so this one must not match the notes modal or the review.)
  app.view(/^(?!al_notes$|al_review$)/, async ({ ack, body }) => {
    await ack();
    log.warn({ where: 'view', ...payloadIds(body) }, 'slack: unexpected view payload dropped');
  });

  app.command('/questions', ({ ack, body }) =>
    track(async () => {
      await ack();
      await timed('/questions', body, () => pipeline('/questions', body, parseQuestionsCommand(body)));
    }),
  );

  app.event('app_home_opened', ({ event }) =>
    track(() =>
      timed('app_home_opened', event, async () => {
        const request = parseHomeOpened(event);
        if (request !== 'not-home') await pipeline('app_home_opened', event, request);
      }),
    ),
  );

  let receiving = false;
  const http = httpReceiver;
  return {
    app,
    mode: socket ? 'socket' : 'http',
    connected: () => receiving && (!socket || socketConnected),
    ...(http
      ? {
          handle(request: IncomingMessage, response: ServerResponse) {
            if (refusedBeforeBolt(request, response, log)) return;
            if (!receiving) {
              response.writeHead(503, { 'retry-after': '1' }).end();
              return;
            }
            try {
              http.requestListener(request, response);
            } catch (error) {
              sink(error, 'http');
              if (!response.headersSent) response.writeHead(500).end();
            }
          },
        }
      : {}),
    async start() {
      await app.init();
      // Socket Mode connects here; HTTP mode receives through `handle` on the caller's server.
      if (socket) await app.start();
      receiving = true;
    },
    async stop() {
      receiving = false;
      if (socket) await app.stop();
      // Acknowledged interactions finish (requests that came in while stopping included).
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Where Slack sends events, interactivity and `/questions` in HTTP mode (the manifest's request URLs). */
export const SLACK_EVENTS_PATH = '/slack/events';

/** `work`, or a rejection once `ms` have passed (the work itself goes on; its result is then ignored). */
function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('deadline passed'), { code: 'deadline' })), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
