/**
 * `collect_answers`: claim the outcomes waiting for this project and return the delivery note, exactly once
 * (claim → respond → confirm once the response was written; a server that dies in between leaves the claim to
 * lapse, and the outcomes come again).
 *
 * Two callers:
 * - the model (or any MCP client without hooks): the note as plain text;
 * - Claude Code's `mcp_tool` hooks, which say so with `for`: the text is exactly the hook JSON Claude Code reads
 *   (`hookSpecificOutput` for that event), or `{}` when nothing is due (an empty text would make Claude Code add a
 *   "hook success" line to the model's context on every prompt). `UserPromptSubmit` carries every outcome, for
 *   prompts the person typed only; `PostToolUse` carries the outcomes `ASK_LATER_MIDTURN` names (blocking ones by
 *   default), in the main agent only (a subagent's context is thrown away, so its tool calls take nothing), and not
 *   after `ToolSearch` (the model may be loading `collect_answers` itself, and should get the answers from it).
 *
 * Every `UserPromptSubmit` call (typed or not: a turn is starting) also takes the session's waiter lease from the
 * waiter armed at the last `Stop` (`ask-later wait`), which then ends instead of waking a session that is working:
 * answers given during the turn come with its tool calls, and `Stop` arms a new waiter for what is left.
 *
 * A call Claude Code gave up on (its hook time-out) is cancelled: the claim is given back at once.
 */
import { z } from 'zod';
import type { DeliveryReach } from '../../config/agent.js';
import { deliveryEntriesBudget, hookOutput, type NextDelivery, renderDeliveryNote } from '../../core/delivery-note.js';
import type { Question } from '../../core/question.js';
import { TURN_LEASE_MS, turnOwner, waiterLease } from '../../core/turns.js';
import { carriesAnswers } from '../../core/typed-prompt.js';
import type { AgentStore } from '../../store/port.js';
import { resultSchema, structuredQuestion, structuredResult } from './structured.js';
import { argsObject, errorResult, failureResult, type ToolContext, type ToolDefinition } from './tool.js';

/** How long a claim holds its outcomes: the response is written within milliseconds; a dead server's claim lapses. */
export const COLLECT_LEASE_MS = 10_000;

const HOOK_EVENTS = ['UserPromptSubmit', 'PostToolUse'] as const;
type HookEvent = (typeof HOOK_EVENTS)[number];

/** Fields the hooks template from their own input; each is a string (a missing one arrives as ""). */
const HOOK_FIELDS = ['prompt', 'source', 'session_id', 'prompt_id', 'agent_id', 'tool_name'] as const;

const hookField = z.string().optional().describe('Set by ask-later’s hooks; leave it out.');

export const NOTHING_WAITING =
  'Nothing new: every answer, dismissal and expiry so far has already reached you (look for the latest note headed ' +
  '"ask-later: outcomes of the questions you parked", in a prompt or a tool result). Carry on.';

/** A hook's text when nothing is due: valid hook JSON that adds nothing. */
export const HOOK_NOTHING = '{}';

/** Tools after which the tool-call hook carries nothing. */
const QUIET_AFTER: ReadonlySet<string> = new Set(['ToolSearch']);

/** The framing a structured result carries as its note (the model reads it instead of the text). */
function outcomesNote(questions: readonly Question[], waiting: number, next: NextDelivery): string {
  const unanswered = questions.some((q) => q.status === 'dismissed' || q.status === 'expired')
    ? ' Dismissed or expired ones were not answered: decide them yourself, or park them again if a person must decide.'
    : '';
  const more =
    waiting === 0
      ? ''
      : ` ${waiting} more ${waiting === 1 ? 'waits' : 'wait'}: ${next === 'prompt' ? 'they come with the next prompt' : 'call collect_answers again'}.`;
  return (
    'From ask-later: outcomes of the questions you parked, each reported once. The question texts are your own; ' +
    `the answers and notes are the person's words.${unanswered}${more}`
  );
}

/** A result carrying `text`, with nothing to report in its structured content. */
function nothingResult(text: string) {
  return structuredResult(text, { note: text === HOOK_NOTHING ? NOTHING_WAITING : text, questions: [] });
}

export interface CollectOptions {
  /** `ASK_LATER_MIDTURN`: which outcomes a `PostToolUse` call carries. */
  readonly midturn: DeliveryReach;
}

type Request =
  | { readonly for: undefined }
  | {
      readonly for: 'UserPromptSubmit';
      readonly prompt: string;
      readonly source: string;
      readonly sessionId: string;
      readonly promptId: string;
    }
  | { readonly for: 'PostToolUse'; readonly agentId: string; readonly toolName: string };

/** The arguments, checked by hand so every refusal reads as ours; a reason string when they are wrong. */
function readRequest(args: unknown): Request | string {
  const object = argsObject(args);
  if (!object) return 'collect_answers takes an object of arguments (none when you call it yourself)';
  const known = ['for', ...HOOK_FIELDS];
  const extra = Object.keys(object).filter((key) => !known.includes(key));
  if (extra.length > 0) {
    return `collect_answers takes no arguments when you call it yourself; got ${extra.slice(0, 5).join(', ')}`;
  }
  for (const field of HOOK_FIELDS) {
    const value = object[field];
    if (value !== undefined && typeof value !== 'string') {
      return `Expected \`${field}\` to be a string (set by ask-later's hooks), got ${value === null ? 'null' : typeof value}`;
    }
  }
  const event = object.for;
  if (event === undefined) {
    const hookOnly = HOOK_FIELDS.filter((field) => object[field] !== undefined);
    if (hookOnly.length > 0) {
      return `collect_answers takes no arguments when you call it yourself; ${hookOnly.join(', ')} are set by ask-later's hooks together with \`for\``;
    }
    return { for: undefined };
  }
  if (typeof event !== 'string' || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    const got = typeof event === 'string' ? JSON.stringify(event.slice(0, 40)) : typeof event;
    return `Expected \`for\` to be UserPromptSubmit or PostToolUse (set by ask-later's hooks), got ${got}`;
  }
  if ((event as HookEvent) === 'UserPromptSubmit') {
    if (typeof object.prompt !== 'string') {
      return 'Expected `prompt` (the prompt the person typed, templated by the hook) with `for` UserPromptSubmit';
    }
    return {
      for: 'UserPromptSubmit',
      prompt: object.prompt,
      source: (object.source as string | undefined) ?? '',
      sessionId: (object.session_id as string | undefined) ?? '',
      promptId: (object.prompt_id as string | undefined) ?? '',
    };
  }
  return {
    for: 'PostToolUse',
    agentId: (object.agent_id as string | undefined) ?? '',
    toolName: (object.tool_name as string | undefined) ?? '',
  };
}

/** Which outcomes this call carries; undefined when none is due at all (the rules say this call carries nothing). */
function reachOf(request: Request, options: CollectOptions): { blockingOnly: boolean } | undefined {
  switch (request.for) {
    case undefined:
      return { blockingOnly: false };
    case 'UserPromptSubmit':
      return carriesAnswers(request) ? { blockingOnly: false } : undefined;
    case 'PostToolUse':
      // A subagent's tool call (Claude Code sets agent_id there only): its context does not reach the main agent.
      if (request.agentId !== '' || options.midturn === 'off' || QUIET_AFTER.has(request.toolName)) return undefined;
      return { blockingOnly: options.midturn === 'blocking' };
  }
}

export function collectAnswersTool(options: CollectOptions): ToolDefinition {
  return {
    name: 'collect_answers',
    title: 'Collect the answers waiting for you',
    description:
      'Collect the answers (and dismissals and expiries) to the questions you parked with ask_later that have not ' +
      'reached you yet; each is reported once. Call it when a notification says an ask-later answer is ready. ' +
      'Answers also arrive on their own with the next prompt. Takes no arguments.',
    outputSchema: resultSchema,
    inputSchema: z.strictObject({
      for: z.enum(HOOK_EVENTS).optional().describe('Set by ask-later’s hooks; leave it out.'),
      prompt: hookField,
      source: hookField,
      session_id: hookField,
      prompt_id: hookField,
      agent_id: hookField,
      tool_name: hookField,
    }),
    // Read-only to the agent: it reads what waits for it (marking it delivered is the inbox's own bookkeeping). Claude
    // Code's plan mode asks before any other tool, so a session woken while planning could not read its answer.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(args, context) {
      const request = readRequest(args);
      if (typeof request === 'string') return errorResult(request);
      const reach = reachOf(request, options);
      const empty = request.for === undefined ? NOTHING_WAITING : HOOK_NOTHING;
      const turnStarts = request.for === 'UserPromptSubmit' && /^[A-Za-z0-9_-]{1,128}$/.test(request.sessionId);
      if (!reach && !turnStarts) return nothingResult(empty);
      try {
        const store = await context.store();
        // The turn takes the session from its waiter while the claim runs: one round trip's wait, not two. What the
        // claim took is answered whatever became of the seizure (its work after the response confirms it).
        const [seized, collected] = await Promise.allSettled([
          turnStarts
            ? store.seizeLease(waiterLease(request.sessionId), turnOwner(request.promptId), TURN_LEASE_MS)
            : undefined,
          reach ? collect(store, context, request, reach.blockingOnly, empty) : nothingResult(empty),
        ]);
        if (collected.status === 'rejected') throw collected.reason;
        if (seized.status === 'rejected' && !reach) throw seized.reason;
        return collected.value;
      } catch (error) {
        return failureResult(error);
      }
    },
  };
}

/**
 * The delivery path each caller is (kept on the question for metrics): the prompt hook, the tool-call hook, or the
 * model itself, which calls this tool when a waiter's wake tells it an answer is ready.
 */
const VIA = { UserPromptSubmit: 'prompt', PostToolUse: 'tool-call', model: 'wake' } as const;

async function collect(
  store: AgentStore,
  context: ToolContext,
  request: Request,
  blockingOnly: boolean,
  empty: string,
) {
  const project = context.project;
  const claim = await store.claimUndelivered(project, {
    budget: deliveryEntriesBudget(),
    leaseMs: COLLECT_LEASE_MS,
    blockingOnly,
    via: VIA[request.for ?? 'model'],
  });
  if (claim.questions.length === 0) return nothingResult(empty);
  if (context.signal.aborted) {
    // Given up on while claiming (the hook's time-out): nobody will read this result.
    await store.releaseClaim(project, claim);
    return nothingResult(empty);
  }
  // Outcomes left out of a mid-turn note wait for the prompt; the model calling it itself can call again.
  const next: NextDelivery = request.for === undefined ? 'call' : 'prompt';
  const note = renderDeliveryNote(claim.questions, claim.remaining, undefined, next);
  context.afterResponse(async (sent) => {
    if (!sent) {
      await store.releaseClaim(project, claim);
      return;
    }
    await Promise.all([
      store.confirmClaim(project, claim, note.includedIds),
      note.omittedIds.length === 0 ? Promise.resolve() : store.releaseClaim(project, claim, note.omittedIds),
    ]);
  });
  const included = claim.questions.filter((q) => note.includedIds.includes(q.id));
  const waiting = note.omittedIds.length + claim.remaining;
  return structuredResult(request.for === undefined ? note.text : hookOutput(request.for, note.text), {
    note: outcomesNote(included, waiting, next),
    questions: included.map(structuredQuestion),
    ...(waiting === 0 ? {} : { more: waiting }),
  });
}
