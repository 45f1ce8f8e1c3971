/**
 * `ask-later agent-bridge` (also `opencode-bridge`, its first name): the one link to the store of the plugins of
 * agents that load ask-later as code rather than through hooks (OpenCode's plugin, pi's extension). The plugin starts
 * it per agent instance, in the instance's directory, so the project rule is Claude Code's. It speaks JSON lines:
 * requests `{id?, op, …}` on stdin, answers `{id, …}` and pushes `{push, …}` on stdout. It never writes question,
 * answer or note text anywhere but to the plugin; its stderr lines carry ids and failure classes only.
 *
 * - `collect` (`for`: `prompt` | `tool`): claims the outcomes waiting (a tool call: those `ASK_LATER_MIDTURN` names,
 *   blocking by default) and answers the delivery note and a claim key; `confirm` marks them delivered once the
 *   plugin added the note (a plugin that never confirms leaves the claim to lapse: the outcomes come again). A prompt
 *   starts a turn: it ends the session's waiter and takes its store lease, as `collect_answers` does for Claude Code.
 * - `idle`: arms the session's waiter (`ask-later wait`'s own loop, one per session by its store lease, never waking
 *   a session twice for one outcome); a wake is pushed as `{push: 'wake', sessionID, text}`.
 * - `tools` / `call`: the MCP server's tools (agents/mcp, the same definitions and code) for an agent with no MCP
 *   client (pi before 1.6): their list with JSON Schemas, and one call's result as MCP's `CallToolResult`.
 * - `park-question`: an agent's own ask-the-user call (pi-question's shape, pi/question.ts) parked; answers the
 *   receipt the plugin blocks the call with. `status`: the one line shown while questions wait.
 * - `asked` / `replied` / `rejected` / `replied-by-inbox`: OpenCode's question tool mirrored (opencode/mirror.ts).
 */

import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { type AgentConfig, loadAgentConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { formatRefusal, parseAskInput } from '../../core/ask-input.js';
import { deliveryEntriesBudget, renderDeliveryNote } from '../../core/delivery-note.js';
import { TURN_LEASE_MS, turnOwner, waiterLease } from '../../core/turns.js';
import { openStore } from '../../store/open.js';
import type { AgentStore, Claim } from '../../store/port.js';
import { askInputFor } from '../claude-code/ask-user-question.js';
import { agentTools, listedTool } from '../mcp/index.js';
import { errorResult, failureResult } from '../mcp/tool.js';
import { Mirror } from '../opencode/mirror.js';
import { PI_ASKED_IMPACT, parkedReason, readPiQuestion } from '../pi/question.js';

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
    io.stderr.write(`ask-later agent-bridge: ${why}; answers do not reach OpenCode until it is fixed\n`);
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
    io.stderr.write(`ask-later agent-bridge: ${what}: ${error instanceof Error ? error.name : typeof error}\n`);

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

  const tools = agentTools({ decided: config.decided, midturn: config.midturn });

  async function call(id: unknown, name: unknown, args: unknown): Promise<void> {
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) return void send({ id, result: errorResult(`ask-later has no tool ${String(name)}`) });
    const after: ((sent: boolean) => Promise<void>)[] = [];
    const result = await tool.run(args, {
      store,
      project: config.project,
      signal: new AbortController().signal,
      progress: async () => undefined,
      progressIntervalMs: 10_000,
      afterResponse: (work) => after.push(work),
    });
    send({ id, result });
    for (const work of after) await work(true).catch(() => undefined);
  }

  /** An agent's own question parked; the receipt its plugin blocks the call with, or null to let the call run. */
  async function parkQuestion(id: unknown, input: unknown): Promise<void> {
    const asked = readPiQuestion(input);
    if (typeof asked === 'string') return void send({ id, text: null, why: asked });
    const context = asked.map((q) => (q.header === undefined ? q.question : `${q.header}: ${q.question}`)).join('\n\n');
    const parsed = parseAskInput(askInputFor(asked, context, PI_ASKED_IMPACT));
    if (!parsed.ok) return void send({ id, text: null, why: formatRefusal(parsed.reasons) });
    const { waitSeconds: _none, askAgain: _again, ...spec } = parsed.value;
    try {
      const parked = await (await store()).park(config.project, spec);
      send({ id, text: parkedReason(parked.id, 'Do not go ahead on what depends on it; carry on with the rest.') });
    } catch (error) {
      warn('park-question failed', error);
      send({ id, text: null });
    }
  }

  async function status(id: unknown): Promise<void> {
    try {
      const counts = await (await store()).countQuestions(config.project);
      const waiting = counts.pending.blocking + counts.pending.canWait;
      const answered = counts.answered.blocking + counts.answered.canWait;
      const parts = [
        ...(waiting > 0
          ? [`${waiting} waiting${counts.pending.blocking > 0 ? ` (${counts.pending.blocking} blocking)` : ''}`]
          : []),
        ...(answered > 0 ? [`${answered} answered`] : []),
      ];
      send({ id, text: parts.length === 0 ? null : `ask-later: ${parts.join(', ')}` });
    } catch (error) {
      warn('status failed', error);
      send({ id, text: null });
    }
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
      io.stderr.write('ask-later agent-bridge: a line that is not JSON was ignored\n');
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
        case 'tools':
          return send({ id: request.id, tools: tools.map(listedTool) });
        case 'call':
          return call(request.id, request.name, request.args).catch((error: unknown) =>
            send({ id: request.id, result: failureResult(error) }),
          );
        case 'park-question':
          return parkQuestion(request.id, request.input);
        case 'status':
          return status(request.id);
        case 'asked':
          return mirror.asked(request.request);
        case 'replied':
          return mirror.replied(request.requestID, request.answers);
        case 'rejected':
          return mirror.rejected(request.requestID);
        case 'replied-by-inbox':
          return mirror.repliedByInbox(request.requestID, request.sent === true);
        default:
          io.stderr.write('ask-later agent-bridge: an unknown op was ignored\n');
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
