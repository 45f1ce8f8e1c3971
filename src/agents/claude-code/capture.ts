/**
 * Capture: Claude Code's own blocking question tools, parked in the inbox instead of blocking the terminal. A
 * `PreToolUse` hook (the plugin's `mcp_tool` hook calling `capture_question`, or `ask-later hook` as a command)
 * hands the call here and answers Claude Code with what this returns:
 *
 * - `AskUserQuestion`: the questions are parked (one question, or a set with a topic per header), blocking, with the
 *   model's own words before the call as their context; the tool is denied with a reason that names the parked id,
 *   so the model carries on and the answer comes back by ask-later's delivery paths. In the `wait` mode the hook
 *   holds the call for a while first: an answer given in time is claimed for this call alone and returned as the
 *   tool's own answer (`allow` + `updatedInput.answers`), confirmed delivered once that reply was written.
 * - `ExitPlanMode`: the plan (the plan file the model wrote) is parked as "Approve this plan?"; the call is denied
 *   until the person approves; the same plan's next call then goes through (`allow` + `updatedInput`: Claude Code
 *   2.1.332 still shows its dialog on a bare `allow`).
 *
 * Whatever ask-later cannot park (a question `ask_later` would refuse, a store that does not answer) is left to
 * Claude Code's dialog, with the reason told to the model (`additionalContext`) and the person (`systemMessage`).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CaptureMode } from '../../config/agent.js';
import { parseAskInput } from '../../core/ask-input.js';
import { CONTEXT_MAX, SET_TEXT_MAX, setTextLength } from '../../core/limits.js';
import { memberRef, type Question, selectionsOf } from '../../core/question.js';
import type { AgentStore } from '../../store/port.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import {
  ASK_USER_QUESTION,
  ASKED_IMPACT,
  type AskedQuestion,
  askInputFor,
  readAskUserQuestion,
  toolAnswers,
} from './ask-user-question.js';
import { loadPlan, loadPlans, savePlan } from './session-file.js';
import { boundedTail, lastPlanFile, textBeforeToolCall } from './transcript.js';

export const EXIT_PLAN_MODE = 'ExitPlanMode';

/** The tools a capture hook matches. */
export const CAPTURED_TOOLS = [ASK_USER_QUESTION, EXIT_PLAN_MODE] as const;

/** One `PreToolUse` call, as the hook's input names it. */
export interface CaptureRequest {
  readonly toolName: string;
  /** The tool's input: an object (a command hook's stdin) or its JSON text (an `mcp_tool` hook's template). */
  readonly toolInput: unknown;
  readonly toolUseId: string;
  readonly transcriptPath: string;
  readonly sessionId: string;
}

export interface CaptureOptions {
  readonly store: () => Promise<AgentStore>;
  readonly project: string;
  readonly mode: CaptureMode;
  /** Where the person answers, as the model is told ("the web inbox on this machine"). */
  readonly inbox: string;
  /** Where the session's plans are remembered (`sessionStateDir`). */
  readonly stateDir: string;
  /** Aborted when Claude Code gives up on the hook (its time-out, the person pressing Escape). */
  readonly signal: AbortSignal;
}

/** The hook's answer: Claude Code's hook JSON as text, and what to do once it was written (or could not be). */
export interface CaptureDecision {
  readonly output: string;
  readonly afterResponse?: (sent: boolean) => Promise<void>;
}

/** How long a claim made for one tool answer holds it: the reply is written within milliseconds. */
const CLAIM_LEASE_MS = 10_000;

/** Nothing to decide: the tool goes on as if no hook had run. */
const CARRY_ON = '{}';

const PLAN_APPROVE = 'Approve';
const PLAN_KEEP = 'Keep planning';

export function hookJson(fields: Record<string, unknown>, systemMessage?: string): string {
  return JSON.stringify({
    ...(systemMessage === undefined ? {} : { systemMessage }),
    hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields },
  });
}

export function deny(reason: string): CaptureDecision {
  return { output: hookJson({ permissionDecision: 'deny', permissionDecisionReason: reason }) };
}

/** The call goes to Claude Code's own dialog; the model and the person are told why ask-later did not take it. */
export function leaveToTerminal(toolName: string, why: string): CaptureDecision {
  const what = toolName === EXIT_PLAN_MODE ? 'this plan' : 'this question';
  return {
    output: hookJson(
      { additionalContext: `ask-later did not park ${what} (${why}), so it is asked in the terminal as usual.` },
      `ask-later did not park ${what}: ${why}`,
    ),
  };
}

/** Why a store failure leaves the call to the terminal, without any detail of the store. */
export function storeFailure(error: unknown): string {
  return error instanceof StoreUnavailableError
    ? "ask-later's inbox does not answer right now"
    : 'ask-later failed unexpectedly';
}

/** Decide one captured tool call. Never throws: every failure leaves the call to Claude Code's dialog. */
export async function capture(request: CaptureRequest, options: CaptureOptions): Promise<CaptureDecision> {
  if (options.mode.kind === 'terminal') return { output: CARRY_ON };
  try {
    if (request.toolName === ASK_USER_QUESTION) return await captureQuestion(request, options);
    if (request.toolName === EXIT_PLAN_MODE) return await capturePlan(request, options);
    return { output: CARRY_ON };
  } catch (error) {
    return leaveToTerminal(request.toolName, storeFailure(error));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// AskUserQuestion

/** The context the questions are parked with: the model's words before the call, within what the card holds. */
async function questionContext(request: CaptureRequest, asked: readonly AskedQuestion[]): Promise<string> {
  const said = await textBeforeToolCall(request.transcriptPath, request.toolUseId);
  const text = said !== '' ? said : asked.map((question) => question.question).join('\n\n');
  if (asked.length === 1) return boundedTail(text, CONTEXT_MAX);
  // A set's texts share one budget: the context gets what the questions leave of it.
  const rest = setTextLength({
    context: '',
    impact: ASKED_IMPACT,
    members: asked.map((question) => ({ ...question, topic: question.header ?? 'Question 10' })),
  });
  return boundedTail(text, Math.max(1, Math.min(CONTEXT_MAX, SET_TEXT_MAX - rest)));
}

async function captureQuestion(request: CaptureRequest, options: CaptureOptions): Promise<CaptureDecision> {
  const asked = readAskUserQuestion(request.toolInput);
  if (typeof asked === 'string') return leaveToTerminal(request.toolName, asked);
  const parsed = parseAskInput(askInputFor(asked, await questionContext(request, asked), ASKED_IMPACT));
  if (!parsed.ok) return leaveToTerminal(request.toolName, refusal(parsed.reasons));
  const { waitSeconds: _none, ...spec } = parsed.value;
  const header = asked.length === 1 ? asked[0]?.header : undefined;
  const store = await options.store();
  const parked = await store.park(options.project, {
    ...spec,
    origin: { tool: 'AskUserQuestion', ...(header === undefined ? {} : { header }) },
  });
  if (options.mode.kind !== 'wait') return deny(parkedReason(parked, options.inbox));

  const outcome = await store.waitWhilePending(options.project, parked.id, {
    timeoutMs: options.mode.seconds * 1000,
    signal: options.signal,
  });
  if (outcome === undefined || outcome.status === 'pending' || options.signal.aborted) {
    return deny(parkedReason(parked, options.inbox, options.mode.seconds));
  }
  // Answered (or dismissed) in time: this call takes the outcome, unless another path already did.
  const claim = await store.claimUndelivered(options.project, {
    budget: Number.MAX_SAFE_INTEGER,
    leaseMs: CLAIM_LEASE_MS,
    questionId: parked.id,
    via: 'tool-result',
  });
  const claimed = claim.questions.find((question) => question.id === parked.id);
  if (claimed === undefined) return deny(parkedReason(parked, options.inbox, options.mode.seconds));
  const settle = async (sent: boolean) => {
    if (sent) await store.confirmClaim(options.project, claim);
    else await store.releaseClaim(options.project, claim);
  };
  if (claimed.status !== 'answered' && claimed.status !== 'delivered') {
    return { ...deny(unansweredReason(claimed)), afterResponse: settle };
  }
  const questions = (typeof request.toolInput === 'string' ? JSON.parse(request.toolInput) : request.toolInput) as {
    questions: unknown;
  };
  return {
    output: hookJson({
      permissionDecision: 'allow',
      updatedInput: { questions: questions.questions, answers: toolAnswers(asked, claimed) },
    }),
    afterResponse: settle,
  };
}

/** `ask_later`'s refusal reasons as one clause. */
export function refusal(reasons: readonly string[]): string {
  return `it breaks ask-later's rules: ${reasons.join('; ')}`;
}

/** What the model reads as the tool's result (after Claude Code's "PreToolUse:AskUserQuestion hook error: "). */
export function parkedReason(question: Question, inbox: string, waitedSeconds?: number): string {
  const what =
    question.members === undefined
      ? `this question as #${question.id}`
      : `these questions as the set #${question.id} (${question.members.map((m, i) => `${memberRef(question.id, i)} ${m.topic}`).join(', ')})`;
  const waited = waitedSeconds === undefined ? '' : ` It was not answered within ${waitedSeconds} s.`;
  return (
    `ask-later parked ${what} for the person, in ${inbox}, so you are not blocked on it.${waited} ` +
    'Do not ask it again and do not wait for it: leave what depends on the answer, carry on with the rest of your ' +
    'work, or end your turn if nothing else can be done. The answer reaches you on its own (with a later prompt, in ' +
    'a tool result, or as a notification to call collect_answers), naming these questions.'
  );
}

function unansweredReason(question: Question): string {
  const how = question.status === 'expired' ? 'expired unanswered' : 'was dismissed unanswered';
  return `ask-later parked this question as #${question.id}, and it ${how}: nobody is going to answer it. Decide it yourself, or ask again if a person must decide.`;
}

// ---------------------------------------------------------------------------------------------------------------
// ExitPlanMode

/** The plan the model asks to approve: its plan file (Claude Code 2.1), or the tool's own `plan` (older versions). */
async function planText(request: CaptureRequest): Promise<string> {
  const file = await lastPlanFile(request.transcriptPath);
  if (file !== '') {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return text.trim();
  }
  let input = request.toolInput;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return '';
    }
  }
  const plan = (input as { plan?: unknown } | null)?.plan;
  return typeof plan === 'string' ? plan.trim() : '';
}

/** The person's decision on a plan: approved, or not (with the notes that say what to change). */
function planDecision(question: Question): { approved: boolean; notes: string } | undefined {
  if (question.answer === undefined) return undefined;
  const [selection] = selectionsOf(question.answer);
  return {
    approved: selection?.choices.includes(PLAN_APPROVE) === true && !selection.other,
    notes: selection?.notes?.trim() ?? '',
  };
}

async function capturePlan(request: CaptureRequest, options: CaptureOptions): Promise<CaptureDecision> {
  const plan = await planText(request);
  if (plan === '') return leaveToTerminal(request.toolName, 'no plan file was found in this session');
  if (plan.length > CONTEXT_MAX) {
    return leaveToTerminal(
      request.toolName,
      `the plan has ${plan.length} characters and the inbox shows at most ${CONTEXT_MAX}`,
    );
  }
  const digest = createHash('sha256').update(plan).digest('hex').slice(0, 16);
  const store = await options.store();
  const earlierId = loadPlan(options.stateDir, request.sessionId, options.project, digest);
  const earlier = earlierId === undefined ? undefined : await store.get(options.project, earlierId);
  if (earlier !== undefined && earlier.status === 'pending') {
    return deny(
      `The person has not decided on this plan yet (#${earlier.id}, in ${options.inbox}). Stay in plan mode and end your turn; the decision reaches you on its own.`,
    );
  }
  const decision = earlier === undefined ? undefined : planDecision(earlier);
  if (earlier !== undefined && decision !== undefined) return planDecided(earlier, decision, options);

  // A new plan (or one nobody decided on): what this session parked for an older plan is withdrawn.
  for (const id of Object.values(loadPlans(options.stateDir, request.sessionId, options.project))) {
    const older = await store.get(options.project, id);
    if (older?.status === 'pending') await store.cancel(options.project, id);
  }
  const parsed = parseAskInput({
    context: plan,
    question: 'Approve this plan?',
    impact:
      'The agent is in plan mode (Claude Code) and changes nothing until the plan is approved. Keep planning, with ' +
      'notes, sends it back to change the plan.',
    options: [
      { label: PLAN_APPROVE, description: 'Leave plan mode and carry the plan out' },
      { label: PLAN_KEEP, description: 'Stay in plan mode; say in the notes what to change' },
    ],
    recommended: PLAN_APPROVE,
    isBlocking: true,
  });
  if (!parsed.ok) return leaveToTerminal(request.toolName, refusal(parsed.reasons));
  const { waitSeconds: _none, ...spec } = parsed.value;
  const parked = await store.park(options.project, { ...spec, origin: { tool: 'ExitPlanMode', plan: digest } });
  savePlan(options.stateDir, request.sessionId, options.project, digest, parked.id);
  if (options.mode.kind === 'wait') {
    const outcome = await store.waitWhilePending(options.project, parked.id, {
      timeoutMs: options.mode.seconds * 1000,
      signal: options.signal,
    });
    const decided = outcome === undefined ? undefined : planDecision(outcome);
    if (outcome !== undefined && decided !== undefined && !options.signal.aborted) {
      return planDecided(outcome, decided, options);
    }
  }
  return deny(
    `ask-later parked your plan for the person's approval as #${parked.id}, in ${options.inbox}. Stay in plan mode ` +
      'and end your turn: do not start on the plan. The decision reaches you on its own; once it is Approve, call ' +
      'ExitPlanMode again and it goes through.',
  );
}

/** The same plan's call after the person decided: through once approved, else back to planning with the notes. */
async function planDecided(
  question: Question,
  decision: { approved: boolean; notes: string },
  options: CaptureOptions,
): Promise<CaptureDecision> {
  const notes = decision.notes === '' ? '' : ` Their notes: ${JSON.stringify(decision.notes)}.`;
  // If this call is the first to carry the decision, it is delivered here; else another path brought it already.
  const store = await options.store();
  const claim = await store.claimUndelivered(options.project, {
    budget: Number.MAX_SAFE_INTEGER,
    leaseMs: CLAIM_LEASE_MS,
    questionId: question.id,
    via: 'tool-result',
  });
  const carried = claim.questions.some((claimed) => claimed.id === question.id);
  const settle = async (sent: boolean) => {
    if (!carried) return;
    if (sent) await store.confirmClaim(options.project, claim);
    else await store.releaseClaim(options.project, claim);
  };
  if (!decision.approved) {
    return {
      ...deny(
        `The person did not approve this plan (#${question.id}): they want you to keep planning.${notes} Change the plan accordingly before calling ExitPlanMode again.`,
      ),
      afterResponse: settle,
    };
  }
  return {
    output: hookJson({
      permissionDecision: 'allow',
      // Claude Code 2.1.332 lets ExitPlanMode through without its dialog only with an updatedInput.
      updatedInput: {},
      ...(notes === ''
        ? {}
        : { additionalContext: `ask-later: the person approved the plan (#${question.id}).${notes}` }),
    }),
    afterResponse: settle,
  };
}
