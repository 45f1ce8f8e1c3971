/**
 * The words every surface shows (Slack, Discord, Telegram, the web inbox), worded once: project names, the inbox's
 * filter labels, ready marks, the refusals a person is told in place, and what Send and "Send N answers" report.
 * Renderers add their platform's markup around these words (emoji on the chat platforms, colour on the page), never
 * other words. Pure.
 */
import type { Readiness } from '../core/answer.js';
import type { InboxFilter } from '../core/inbox.js';
import { OTHER_LABEL, placeOf, type Question } from '../core/question.js';
import { describeReply } from '../core/reply.js';

/** The last segment of a project path (`/home/me/src/shop` → `shop`), or the whole name when it has none. */
export function projectName(project: string): string {
  const segments = project.split(/[\\/]/).filter((segment) => segment !== '');
  return segments.at(-1) ?? project;
}

/** The inbox's filters: All / Blocking / Non-blocking. */
export const FILTER_LABELS: Readonly<Record<InboxFilter, string>> = {
  all: 'All',
  blocking: 'Blocking',
  'non-blocking': 'Non-blocking',
};

/** `Nothing blocking waiting.`: an empty filter of an inbox that holds questions in another. */
export function nothingInFilter(filter: InboxFilter): string {
  return `Nothing ${FILTER_LABELS[filter].toLowerCase()} waiting.`;
}

const READY_WORDS: Readonly<Record<Readiness, string>> = {
  ready: 'ready',
  'pick-one': 'pick one',
  'needs-note': 'needs a note',
};

const READY_EMOJI: Readonly<Record<Readiness, string>> = {
  ready: '✅',
  'pick-one': '👉',
  'needs-note': '✍️',
};

/** The ready mark in words: `ready` / `pick one` / `needs a note` (the web inbox colours it). */
export function readyWords(readiness: Readiness): string {
  return READY_WORDS[readiness];
}

/** The ready mark as the chat platforms show it: `✅ ready` / `👉 pick one` / `✍️ needs a note`. */
export function readyMark(readiness: Readiness): string {
  return `${READY_EMOJI[readiness]} ${READY_WORDS[readiness]}`;
}

/** How many of a set's members are ready: `✅ 3 of 3 ready` when all are, else `👉 2 of 3 ready`. */
export function setReadyMark(marks: readonly Readiness[]): string {
  const ready = marks.filter((mark) => mark === 'ready').length;
  return `${ready === marks.length ? READY_EMOJI.ready : READY_EMOJI['pick-one']} ${ready} of ${marks.length} ready`;
}

/** `1 answer`, `3 answers`. */
export function answersCount(count: number): string {
  return count === 1 ? '1 answer' : `${count} answers`;
}

/** The refusals every surface tells in place (the store unchanged). */
export const REFUSALS = {
  unknown: 'This question no longer exists.',
  notAllowed: 'You are not allowed to answer questions here.',
  otherChannel: 'This question belongs to a project that is not routed to this channel.',
  notMember: 'This question belongs to a channel you are not in: answer it there, or ask to be added.',
  pickOne: 'Pick an answer first.',
  needsNote: `${OTHER_LABEL} needs a note: add notes first.`,
  /** A notes form saved with Other picked and no note. */
  noteMissing: `${OTHER_LABEL} needs a note: say what the answer is, then save again.`,
  /** A set's review whose answers changed since it was shown. */
  reviewChanged: 'Your answers changed since that review: here they are now. Send again to send these.',
  tryAgain: 'Something went wrong on our side: try again in a moment.',
} as const;

function time(at: number): string {
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** The in-place text for a question that is no longer pending, naming who answered and where. */
export function notPendingText(question: Question): string {
  const answer = question.answer;
  if (answer) {
    return `#${question.id} was already answered by ${answer.by.displayName} ${placeOf(answer.by)} at ${time(answer.at)}: ${describeReply(question, answer)}.`;
  }
  switch (question.status) {
    case 'cancelled':
      return `#${question.id} was withdrawn by the agent.`;
    case 'dismissed': {
      const by = question.closure?.by;
      return by
        ? `#${question.id} was dismissed by ${by.displayName} ${placeOf(by)}.`
        : `#${question.id} was dismissed.`;
    }
    case 'expired':
      return `#${question.id} expired unanswered.`;
    default:
      return `#${question.id} is ${question.status}.`;
  }
}

/** What Send says when it sent: `Sent: Postgres (#12).` */
export function sentText(id: number, summary: string): string {
  return `Sent: ${summary} (#${id}).`;
}

/** What Remove says when it removed. */
export function removedText(id: number): string {
  return `Removed #${id}; the agent will be told.`;
}

/** What the Remove confirmation's "Keep" says. */
export function keptText(id: number | undefined): string {
  return `Kept #${id ?? '?'}: nothing was removed.`;
}

/** A set's Send refused until every member is ready: `Not sent: … Naming needs a note (Other); Cache needs a pick.` */
export function setNotReadyText(needs: readonly { readonly name: string; readonly readiness: Readiness }[]): string {
  const parts = needs.map(
    ({ name, readiness }) => `${name} ${readiness === 'needs-note' ? `needs a note (${OTHER_LABEL})` : 'needs a pick'}`,
  );
  return `Not sent: every question of the set must be ready first. ${parts.join('; ')}.`;
}

/**
 * What "Send N answers" reports, on every surface: `Sent 2 answers: #3, #4.` or `Nothing sent: no answer shown is
 * ready.`, then each refusal (told once per reason).
 */
export function batchSummary(sent: readonly number[], refused: readonly string[]): string {
  const head =
    sent.length === 0
      ? 'Nothing sent: no answer shown is ready.'
      : `Sent ${answersCount(sent.length)}: ${sent.map((id) => `#${id}`).join(', ')}.`;
  return [head, ...refused].join(' ');
}
