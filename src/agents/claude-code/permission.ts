/**
 * Permission prompts (issue 35): Claude Code's `PermissionRequest` hook hands a tool call that needs the person's
 * permission here, and prints what this returns. The call is parked as an approval (`core/approval.ts`) and, by
 * the mode (`ASK_LATER_PERMISSIONS`):
 *
 * - `race:<s>`: posted while Claude Code's own dialog stays up; the first answer wins. An inbox answer within `s`
 *   seconds decides the call at once; nobody by then: the call is denied with a receipt naming `#N` for the model,
 *   which carries on, and the decision comes back later by the delivery paths. A terminal answer first: Claude Code
 *   tells the hook nothing (a Yes leaves it running, Esc kills it), so the hook watches the transcript for the
 *   call's result and withdraws the inbox copy when it appears, or when it is stopped.
 * - `wait:<s>`: the same, held up to `s` seconds (the dialog still shows beside it on 2.1.332).
 * - `park`: posted and denied with the receipt at once (unattended runs).
 * - `terminal`: nothing printed; the dialog alone.
 *
 * The same call made again in the same session (same tool, same input hash) finds its approval in the session's
 * file and, once decided, is let through (once: one use, taken atomically; session / always: with the rule Claude
 * Code suggested), or denied again with the notes (once); anything else is a new request. What runs is always the
 * call Claude Code hands the hook: only the answer's label comes from the surfaces.
 */
import type { PermissionMode } from '../../config/agent.js';
import {
  type Approval,
  type ApprovalBinding,
  type ApprovalDecision,
  approvalDecision,
  approvalOf,
  approvalQuestion,
  bindsTo,
  inputHash,
} from '../../core/approval.js';
import { parseAskInput } from '../../core/ask-input.js';
import type { Question } from '../../core/question.js';
import type { AgentStore } from '../../store/port.js';
import { loadApproval, type ParkedApproval, saveApproval, takeOnce } from './approval-file.js';
import { storeFailure } from './capture.js';
import { hasToolResult, textBeforeToolCall, toolUseIdOf } from './transcript.js';

/** One `PermissionRequest`, as the hook's input names it. */
export interface PermissionRequest {
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  /** `permission_suggestions` as given: what "Always allow" echoes back. */
  readonly suggestions: unknown;
}

export interface PermissionOptions {
  readonly store: () => Promise<AgentStore>;
  readonly project: string;
  readonly mode: PermissionMode;
  /** Where the person answers, as the model is told. */
  readonly inbox: string;
  /** Where the session's approvals are remembered (`sessionStateDir`). */
  readonly stateDir: string;
  /** Aborted when Claude Code gives up on the hook (its time-out, Esc in the terminal). */
  readonly signal: AbortSignal;
  /** How often the transcript is read for a terminal answer while racing. */
  readonly watchMs?: number;
}

/** The hook's answer: the JSON to print ('' for none: the dialog decides), and what to do once it was written. */
export interface PermissionDecision {
  readonly output: string;
  /** Why nothing was decided, for the hook's stderr line (never a text of the call). */
  readonly failure?: string;
  readonly afterResponse?: (sent: boolean) => Promise<void>;
}

/** The tools whose questions the PreToolUse capture parks: their PermissionRequest is left alone here. */
const CAPTURED = new Set(['AskUserQuestion', 'ExitPlanMode']);

const CLAIM_LEASE_MS = 10_000;
const WATCH_MS = 500;

function decisionJson(decision: Record<string, unknown>): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}

function allow(updatedPermissions?: unknown[]): string {
  return decisionJson({
    behavior: 'allow',
    ...(updatedPermissions === undefined || updatedPermissions.length === 0 ? {} : { updatedPermissions }),
  });
}

function deny(message: string): string {
  return decisionJson({ behavior: 'deny', message });
}

/** The `addRules` suggestion Claude Code made for the call, if any. */
function ruleSuggestion(suggestions: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(suggestions)) return undefined;
  return suggestions.find(
    (entry): entry is Record<string, unknown> =>
      entry !== null && typeof entry === 'object' && (entry as { type?: unknown }).type === 'addRules',
  );
}

/** The suggested rule as text, `Bash(npm publish)`; undefined when Claude Code suggested none. */
export function ruleText(suggestions: unknown): string | undefined {
  const rules = ruleSuggestion(suggestions)?.rules;
  if (!Array.isArray(rules) || rules.length === 0) return undefined;
  return rules
    .map((rule: { toolName?: unknown; ruleContent?: unknown }) =>
      typeof rule.ruleContent === 'string' && rule.ruleContent !== ''
        ? `${String(rule.toolName)}(${rule.ruleContent})`
        : String(rule.toolName),
    )
    .join(', ');
}

/** The permission update for a grant beyond once: the suggested rule, kept for the session or as suggested. */
function permissionsFor(decision: ApprovalDecision, suggestions: unknown): unknown[] | undefined {
  const rule = ruleSuggestion(suggestions);
  if (rule === undefined || decision.choice === 'once' || decision.choice === 'deny') return undefined;
  return [decision.choice === 'session' ? { ...rule, destination: 'session' } : rule];
}

function quoted(notes: string): string {
  return notes === '' ? '' : ` Their notes: ${JSON.stringify(notes)}.`;
}

/** The decided call's hook output, as the person decided it. */
function decidedOutput(question: Question, decision: ApprovalDecision, request: PermissionRequest): string {
  if (decision.choice === 'deny') {
    return deny(
      `The person denied this call (ask-later #${question.id}).${quoted(decision.notes)} Do not make it again; take their notes into account and carry on without it.`,
    );
  }
  return allow(permissionsFor(decision, request.suggestions));
}

/** What the model reads when nobody answered in time: the receipt. */
export function parkedMessage(id: number, inbox: string, waitedSeconds?: number): string {
  const waited = waitedSeconds === undefined ? '' : ` Nobody answered within ${waitedSeconds} s.`;
  return (
    `ask-later parked this permission request as #${id} for the person, in ${inbox}.${waited} Do not retry this ` +
    'call now. Carry on with what does not depend on it, or end your turn if nothing else can be done. The ' +
    'decision reaches you on its own (with a later prompt, in a tool result, or as a notification to call ' +
    'collect_answers); once it allows the call, make exactly the same call again and it runs without asking.'
  );
}

/** Decide one permission request. Never throws: every failure leaves the call to Claude Code's dialog. */
export async function decidePermission(
  request: PermissionRequest,
  options: PermissionOptions,
): Promise<PermissionDecision> {
  if (options.mode.kind === 'terminal' || CAPTURED.has(request.toolName) || request.sessionId === '') {
    return { output: '' };
  }
  const binding: ApprovalBinding = {
    agent: 'claude-code',
    tool: request.toolName,
    input: inputHash(request.toolInput),
    session: request.sessionId,
  };
  try {
    const store = await options.store();
    const known = loadApproval(options.stateDir, binding.session, binding.tool, binding.input);
    const earlier = known === undefined ? undefined : await store.get(known.project, known.id);
    if (known !== undefined && earlier !== undefined) {
      const approval = approvalOf(earlier);
      // The file names a question; it counts only if that question was asked for exactly this call.
      if (approval !== undefined && bindsTo(approval, binding)) {
        const granted = await fromEarlier(earlier, known, request, options, store);
        if (granted !== undefined) return granted;
      }
    }
    return await parkAndRace(request, binding, options, store);
  } catch (error) {
    // The dialog stays: nothing is decided here. The reason goes to stderr by the caller, never to the model.
    return { output: '', failure: storeFailure(error) };
  }
}

/** A call parked before: its decision, or a renewed wait while it is pending; undefined: ask anew. */
async function fromEarlier(
  earlier: Question,
  known: ParkedApproval,
  request: PermissionRequest,
  options: PermissionOptions,
  store: AgentStore,
): Promise<PermissionDecision | undefined> {
  if (earlier.status === 'pending') return await race(earlier, request, options, store);
  const decision = approvalDecision(earlier);
  if (decision === undefined) return undefined; // withdrawn, dismissed, expired: ask anew
  // Once (and a Deny) is used by one call only, whichever hook takes it first.
  if ((decision.choice === 'once' || decision.choice === 'deny') && !takeOnce(options.stateDir, known)) {
    return undefined;
  }
  return { output: decidedOutput(earlier, decision, request), afterResponse: await carry(earlier, options, store) };
}

/** If the decision was not delivered yet, this call carries it: claimed now, confirmed once the output is written. */
async function carry(
  question: Question,
  options: PermissionOptions,
  store: AgentStore,
): Promise<(sent: boolean) => Promise<void>> {
  const claim = await store.claimUndelivered(options.project, {
    budget: Number.MAX_SAFE_INTEGER,
    leaseMs: CLAIM_LEASE_MS,
    questionId: question.id,
    via: 'tool-result',
  });
  const carried = claim.questions.some((claimed) => claimed.id === question.id);
  return async (sent) => {
    if (!carried) return;
    if (sent) await store.confirmClaim(options.project, claim);
    else await store.releaseClaim(options.project, claim);
  };
}

async function parkAndRace(
  request: PermissionRequest,
  binding: ApprovalBinding,
  options: PermissionOptions,
  store: AgentStore,
): Promise<PermissionDecision> {
  const toolUseId = await toolUseIdOf(request.transcriptPath, binding.tool, binding.input);
  const said = toolUseId === '' ? '' : await textBeforeToolCall(request.transcriptPath, toolUseId);
  const rule = ruleText(request.suggestions);
  const parsed = parseAskInput(
    approvalQuestion(
      { tool: request.toolName, input: request.toolInput, said, cwd: request.cwd, session: request.sessionId },
      rule,
    ),
  );
  if (!parsed.ok) return { output: '' };
  const { waitSeconds: _none, ...spec } = parsed.value;
  const approval: Approval = { ...binding, ...(rule === undefined ? {} : { rule }) };
  const parked = await store.park(options.project, { ...spec, origin: { tool: 'PermissionRequest', approval } });
  saveApproval(options.stateDir, binding.session, binding.tool, binding.input, {
    project: options.project,
    id: parked.id,
  });
  if (options.mode.kind === 'park') return { output: deny(parkedMessage(parked.id, options.inbox)) };
  return await race(parked, request, options, store, toolUseId);
}

/**
 * Wait for the inbox's answer while the dialog is up. Ends with the answer; with nobody answering (the receipt);
 * or with the terminal answering first (the call's result shows in the transcript, or Claude Code stops the hook):
 * the inbox copy is then withdrawn and nothing is printed.
 */
async function race(
  question: Question,
  request: PermissionRequest,
  options: PermissionOptions,
  store: AgentStore,
  knownToolUseId?: string,
): Promise<PermissionDecision> {
  const seconds = options.mode.kind === 'race' || options.mode.kind === 'wait' ? options.mode.seconds : 0;
  const toolUseId =
    knownToolUseId ?? (await toolUseIdOf(request.transcriptPath, request.toolName, inputHash(request.toolInput)));
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  let answeredInTerminal = false;
  const watcher = setInterval(() => {
    void hasToolResult(request.transcriptPath, toolUseId).then((ran) => {
      if (ran) {
        answeredInTerminal = true;
        stop.abort();
      }
    });
  }, options.watchMs ?? WATCH_MS);
  let outcome: Question | undefined;
  try {
    outcome = await store.waitWhilePending(options.project, question.id, {
      timeoutMs: seconds * 1000,
      signal: stop.signal,
    });
  } finally {
    clearInterval(watcher);
    options.signal.removeEventListener('abort', onAbort);
  }
  if (answeredInTerminal || options.signal.aborted) {
    // The terminal decided (a Yes ran the call, Esc stopped the hook): the inbox copy must not stay up.
    const current = await store.get(options.project, question.id);
    if (current?.status === 'pending') await store.cancel(options.project, question.id);
    return { output: '' };
  }
  const decision = outcome === undefined ? undefined : approvalDecision(outcome);
  if (outcome === undefined || decision === undefined) {
    return { output: deny(parkedMessage(question.id, options.inbox, seconds)) };
  }
  if (decision.choice === 'once' || decision.choice === 'deny') {
    takeOnce(options.stateDir, { project: options.project, id: question.id });
  }
  return { output: decidedOutput(outcome, decision, request), afterResponse: await carry(outcome, options, store) };
}
