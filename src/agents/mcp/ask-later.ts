/** `ask_later`: park a question for the person, and optionally wait a while for the answer. */

import type { DecidedCheck } from '../../config/agent.js';
import { describeSelection } from '../../core/answer.js';
import { askInputSchema, formatRefusal, parseAskInput } from '../../core/ask-input.js';
import { renderDeliveryEntry } from '../../core/delivery-note.js';
import { OPTIONS_MAX, SET_MEMBERS_MAX, SET_MEMBERS_MIN, WAIT_MAX_SECONDS } from '../../core/limits.js';
import { findPendingDuplicate } from '../../core/pending-duplicate.js';
import { type EarlierDecision, itemsOf, memberRef, type Question, selectionsOf } from '../../core/question.js';
import { describeReply } from '../../core/reply.js';
import { DECIDED_MAX } from '../../core/similarity.js';
import type { SimilarDecision } from '../../store/trail.js';
import { questionState, stateNote } from './describe.js';
import { resultSchema, structuredQuestion, structuredResult } from './structured.js';
import { errorResult, failureResult, type ToolContext, type ToolDefinition } from './tool.js';

const DESCRIPTION = `Park a question for the person instead of blocking on it. It is posted to the team's chat (Slack/Discord), you get its id at once and carry on; the answer arrives with a later prompt of the person (or in this call if you set waitSeconds and it lands in time).

Park when a decision belongs to the person (product behaviour, trade-offs, risk, naming that others depend on, anything you should not guess) and other work can go on meanwhile.
Do not park: trivia you can decide yourself; what you can find out by reading the code, docs or running things; anything you need right now while the person is at the keyboard (ask them directly instead).

Write it so that someone who has not seen this session can answer in one click: the situation in \`context\`, one clear line in \`question\`, what changes with the answer in \`impact\`, 1 to ${OPTIONS_MAX} concrete \`options\` and the one you would pick as \`recommended\`. The person can always pick Other and add notes. Set \`isBlocking\` true only if part of your work cannot go on without the answer. Limits are in each field's description; a call that breaks one is refused with the reason and nothing is stored.

Several related decisions (${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX}) that the person should weigh together go in one call as a set: \`questions\` instead of \`question\`/\`options\`/\`isBlocking\`, each with a short \`topic\`; they share \`context\` and \`impact\`, are answered together and arrive as one.`;

function parkedText(q: Question): string {
  const what =
    q.members === undefined
      ? `Parked as #${q.id}${q.isBlocking ? ' (blocking)' : ''}.`
      : `Parked the set #${q.id} (${q.members.map((member, index) => `${memberRef(q.id, index)} ${member.topic}${member.isBlocking ? ', blocking' : ''}`).join('; ')}); its answers arrive together.`;
  const head = `${what} It is waiting for the person in chat.`;
  return q.isBlocking
    ? `${head} Do not go ahead on what depends on it; carry on with the rest. The answer comes in a later prompt (get_answer ${q.id} checks on it).`
    : `${head} Carry on; the answer comes in a later prompt.`;
}

async function waitForOutcome(q: Question, waitSeconds: number, context: ToolContext) {
  const store = await context.store();
  const started = Date.now();
  const report = () =>
    context
      .progress(Math.round((Date.now() - started) / 1000), waitSeconds, `Waiting for the answer to #${q.id}`)
      .catch(() => undefined);
  void report();
  const timer = setInterval(report, context.progressIntervalMs);
  try {
    return await store.waitWhilePending(q.project, q.id, { timeoutMs: waitSeconds * 1000, signal: context.signal });
  } finally {
    clearInterval(timer);
  }
}

/** The earlier decisions found for a new question: across its items, unique, best first, at most three. */
function closest(found: readonly SimilarDecision[][]): SimilarDecision[] {
  const best = new Map<string, SimilarDecision>();
  for (const each of found.flat()) {
    const key = `${each.decision.id}.${each.member ?? ''}`;
    const kept = best.get(key);
    if (!kept || kept.score < each.score) best.set(key, each);
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, DECIDED_MAX);
}

/** An earlier decision as the new question's card shows it. */
function earlier({ decision, member }: SimilarDecision): EarlierDecision {
  const item = itemsOf(decision)[member ?? 0];
  const selection = selectionsOf(decision.answer)[member ?? 0];
  return {
    id: decision.id,
    ...(member === undefined ? {} : { member }),
    question: item?.question ?? '',
    answer:
      item === undefined || selection === undefined
        ? describeReply(decision, decision.answer)
        : describeSelection(item, selection),
    by: decision.answer.by,
    at: decision.answer.at,
  };
}

const ALREADY_DECIDED =
  'Not parked: the person already decided questions like this one in this project (below: each question, its ' +
  "answer, the notes, who answered and when; the answers and notes are the person's words). If one of them " +
  'answers your question, go on with it and say so in your summary. If the situation changed since, call ' +
  'ask_later again with the same question and `askAgain: true`, and say in `context` what changed: the person ' +
  'then sees the earlier decision beside it.';

function decidedResult(found: readonly SimilarDecision[]) {
  const entries = found.map(({ decision, member }) => {
    const matched = member === undefined ? '' : `(its ${memberRef(decision.id, member)} is like your question)\n`;
    return `${matched}${renderDeliveryEntry(decision)}`;
  });
  return structuredResult([ALREADY_DECIDED, ...entries].join('\n\n'), {
    note: ALREADY_DECIDED,
    questions: found.map(({ decision }) => structuredQuestion(decision)),
  });
}

/** The question is already waiting: its id and status instead of a second copy the person would answer twice. */
function alreadyWaitingResult(waiting: Question) {
  const what = waiting.members === undefined ? 'the same question' : 'the same set of questions';
  const text =
    `Not parked: #${waiting.id} is ${what}, already waiting for the person in this project (status ` +
    `${waiting.status}${waiting.isBlocking ? ', blocking' : ''}, parked ${new Date(waiting.createdAt).toISOString()}). ` +
    `Its answer comes in a later prompt (get_answer ${waiting.id} checks on it); do not ask it again. If this is a ` +
    'new decision after all, call ask_later again with `askAgain: true` and say in `context` what differs.';
  return structuredResult(text, { note: text, questions: [structuredQuestion(waiting)] });
}

export interface AskLaterOptions {
  /** `ASK_LATER_DECIDED`: look for earlier decisions before parking (`check`, the default) or not. */
  readonly decided?: DecidedCheck;
}

export const askLaterTool = (options: AskLaterOptions = {}): ToolDefinition => ({
  name: 'ask_later',
  title: 'Park a question for the person',
  description: DESCRIPTION,
  inputSchema: askInputSchema,
  outputSchema: resultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, context) {
    const parsed = parseAskInput(args);
    if (!parsed.ok) return errorResult(formatRefusal(parsed.reasons));
    const { waitSeconds = 0, askAgain = false, ...spec } = parsed.value;
    try {
      const store = await context.store();
      if (!askAgain) {
        const waiting = findPendingDuplicate(spec, await store.list(context.project, { status: ['pending'] }));
        if (waiting !== undefined) return alreadyWaitingResult(waiting);
      }
      let askedBefore: EarlierDecision[] = [];
      if ((options.decided ?? 'check') === 'check') {
        const items = itemsOf(spec).map((item) => ({
          question: item.question,
          options: item.options,
          ...('topic' in item ? { topic: item.topic } : {}),
        }));
        const found = closest(await store.similarDecisions(context.project, items));
        if (found.length > 0 && !askAgain) return decidedResult(found);
        askedBefore = found.map(earlier);
      }
      const parked = await store.park(context.project, askedBefore.length > 0 ? { ...spec, askedBefore } : spec);
      const pending = (text: string) => structuredResult(text, { note: text, questions: [structuredQuestion(parked)] });
      if (waitSeconds === 0) return pending(parkedText(parked));

      const outcome = await waitForOutcome(parked, Math.min(waitSeconds, WAIT_MAX_SECONDS), context);
      if (!outcome || outcome.status === 'pending') {
        return pending(
          `${parkedText(parked)}\nStill pending after waiting ${waitSeconds} s; the answer will come in a later prompt.`,
        );
      }
      // The agent gets the outcome here, so no later prompt carries it again.
      await store.markDelivered(outcome.project, outcome.id);
      return structuredResult(`#${outcome.id} got its outcome while you waited.\n\n${questionState(outcome)}`, {
        note: `Got its outcome while you waited. ${stateNote(outcome)}`,
        questions: [structuredQuestion(outcome)],
      });
    } catch (error) {
      return failureResult(error);
    }
  },
});
