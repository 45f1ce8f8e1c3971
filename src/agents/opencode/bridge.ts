/**
 * `ask-later opencode-bridge`: the OpenCode plugin's one link to the store (plugin-module.ts starts it per OpenCode
 * instance, in the instance's directory, so the project rule is Claude Code's). It speaks JSON lines: requests
 * `{id?, op, …}` on stdin, answers `{id, …}` and pushes `{push, …}` on stdout. It never writes question, answer or
 * note text anywhere but to the plugin; its stderr lines carry ids and failure classes only.
 *
 * - `collect` (`for`: `prompt` | `tool`): claims the outcomes waiting (a tool call: those `ASK_LATER_MIDTURN` names,
 *   blocking by default) and answers the delivery note and a claim key; `confirm` marks them delivered once the
 *   plugin added the note (a plugin that never confirms leaves the claim to lapse: the outcomes come again). A prompt
 *   starts a turn: it ends the session's waiter and takes its store lease, as `collect_answers` does for Claude Code.
 * - `idle`: arms the session's waiter (`ask-later wait`'s own loop, one per session by its store lease, never waking
 *   a session twice for one outcome); a wake is pushed as `{push: 'wake', sessionID, text}`.
 * - `asked` / `replied` / `rejected` / `replied-by-inbox`: OpenCode's question tool mirrored (mirror.ts).
 */

import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { type AgentConfig, loadAgentConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { deliveryEntriesBudget, renderDeliveryNote } from '../../core/delivery-note.js';
import { TURN_LEASE_MS, turnOwner, waiterLease } from '../../core/turns.js';
import { openStore } from '../../store/open.js';
import type { AgentStore, Claim } from '../../store/port.js';
import { Mirror } from './mirror.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long a claim holds its outcomes while the plugin adds them. */
const CLAIM_LEASE_MS = 10_000;

/** The prompt a wake sends: its own `chat.message` then carries the answers. */
export const WAKE_TEXT =
  '[ask-later] This message was sent by ask-later, not typed by the person: an answer to a question you parked has ' +
  'arrived (below). Carry on with what was waiting for it.';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface BridgeIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/**
 * `ask-later wait`'s loop (agents/wake/run.ts `runWaiter`), handed in by cli.ts: it resolves 2 when the session should be
 * woken, 0 when the waiter ends without waking it.
 */
export type RunWaiter = (
  io: { readonly stdin: NodeJS.ReadableStream; readonly stderr: { write(text: string): unknown } },
  env: Env,
  cwd: string,
  options: { readonly signal: AbortSignal; readonly store: AgentStore },
) => Promise<number>;

interface Held {
  readonly claim: Claim;
  readonly included: readonly number[];
  readonly omitted: readonly number[];
}

/** Run the bridge until its stdin ends (OpenCode is gone). */
export async function runBridge(io: BridgeIo, env: Env, cwd: string, runWaiter: RunWaiter): Promise<number> {
  let config: AgentConfig;
  try {
    config = loadAgentConfig(env, cwd);
  } catch (error) {
    const why = error instanceof ConfigError ? error.message : 'the settings could not be read';
    io.stderr.write(`ask-later opencode-bridge: ${why}; answers do not reach OpenCode until it is fixed\n`);
    // Answer every call with nothing, so OpenCode goes on as without ask-later.
    for await (const line of createInterface({ input: io.stdin })) {
      const id = /^\{"id":(\d+)/.exec(line)?.[1];
      if (id !== undefined) io.stdout.write(`${JSON.stringify({ id: Number(id), text: null })}\n`);
    }
    return 0;
  }
  let opened: Promise<AgentStore> | undefined;
  const store = () => {
    opened ??= openStore(config.store, { pollIntervalMs: 100 }).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  const send = (message: Record<string, unknown>) => io.stdout.write(`${JSON.stringify(message)}\n`);
  const warn = (what: string, error: unknown) =>
    io.stderr.write(`ask-later opencode-bridge: ${what}: ${error instanceof Error ? error.name : typeof error}\n`);

  const held = new Map<string, Held>();
  const waiters = new Map<string, AbortController>();
  const lastTurn = new Map<string, string>();
  const mirror = new Mirror({ store, project: config.project, push: send, warn });

  async function collect(id: unknown, request: Record<string, unknown>): Promise<void> {
    const sessionID = typeof request.sessionID === 'string' ? request.sessionID : '';
    const forPrompt = request.for === 'prompt';
    try {
      const open = await store();
      if (forPrompt && SESSION_ID.test(sessionID)) {
        waiters.get(sessionID)?.abort();
        const messageID = typeof request.messageID === 'string' && request.messageID !== '' ? request.messageID : '-';
        lastTurn.set(sessionID, messageID);
        await open.seizeLease(waiterLease(sessionID), turnOwner(messageID), TURN_LEASE_MS);
      }
      if (!forPrompt && config.midturn === 'off') return void send({ id, text: null });
      const claim = await open.claimUndelivered(config.project, {
        budget: deliveryEntriesBudget(),
        leaseMs: CLAIM_LEASE_MS,
        blockingOnly: !forPrompt && config.midturn === 'blocking',
        via: forPrompt ? 'prompt' : 'tool-call',
      });
      if (claim.questions.length === 0) return void send({ id, text: null });
      const note = renderDeliveryNote(claim.questions, claim.remaining, undefined, 'prompt');
      held.set(claim.claimId, { claim, included: note.includedIds, omitted: note.omittedIds });
      send({ id, text: note.text, claim: claim.claimId });
    } catch (error) {
      warn('collect failed', error);
      send({ id, text: null });
    }
  }

  async function confirm(key: unknown): Promise<void> {
    const claim = typeof key === 'string' ? held.get(key) : undefined;
    if (claim === undefined) return;
    held.delete(claim.claim.claimId);
    const open = await store();
    await open.confirmClaim(config.project, claim.claim, claim.included);
    if (claim.omitted.length > 0) await open.releaseClaim(config.project, claim.claim, claim.omitted);
  }

  async function arm(sessionID: unknown): Promise<void> {
    if (typeof sessionID !== 'string' || !SESSION_ID.test(sessionID) || waiters.has(sessionID)) return;
    if (config.wake === 'off') return;
    const stop = new AbortController();
    waiters.set(sessionID, stop);
    try {
      const turn = lastTurn.get(sessionID);
      const input = JSON.stringify({
        session_id: sessionID,
        hook_event_name: 'Stop',
        ...(turn === undefined ? {} : { prompt_id: turn }),
      });
      const lines: string[] = [];
      const code = await runWaiter(
        { stdin: Readable.from([input]), stderr: { write: (text: string) => lines.push(text) } },
        env,
        cwd,
        { signal: stop.signal, store: await store() },
      );
      if (code === 2 && !stop.signal.aborted) send({ push: 'wake', sessionID, text: WAKE_TEXT });
      else if (code !== 2 && lines.length > 0) io.stderr.write(lines.join(''));
    } finally {
      if (waiters.get(sessionID) === stop) waiters.delete(sessionID);
    }
  }

  const work = new Set<Promise<unknown>>();
  for await (const line of createInterface({ input: io.stdin })) {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(line) as Record<string, unknown>;
    } catch {
      io.stderr.write('ask-later opencode-bridge: a line that is not JSON was ignored\n');
      continue;
    }
    const run = (async () => {
      switch (request.op) {
        case 'collect':
          return collect(request.id, request);
        case 'confirm':
          return confirm(request.claim);
        case 'idle':
          return arm(request.sessionID);
        case 'asked':
          return mirror.asked(request.request);
        case 'replied':
          return mirror.replied(request.requestID, request.answers);
        case 'rejected':
          return mirror.rejected(request.requestID);
        case 'replied-by-inbox':
          return mirror.repliedByInbox(request.requestID, request.sent === true);
        default:
          io.stderr.write('ask-later opencode-bridge: an unknown op was ignored\n');
      }
    })().catch((error: unknown) => warn(`${String(request.op)} failed`, error));
    work.add(run);
    void run.finally(() => work.delete(run));
  }
  for (const stop of waiters.values()) stop.abort();
  mirror.close();
  await Promise.allSettled(work);
  if (opened) await (await opened.catch(() => undefined))?.close().catch(() => undefined);
  return 0;
}
