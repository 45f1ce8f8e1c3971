/**
 * The inbox every surface shows (Slack's modal and Home tab, Discord's `/questions`, the web page), as pure rules:
 * which questions a filter shows and in what order, what each one shows selected, and what "Send N answers"
 * counts (the ready answers among the questions shown: one page). One place, so the number on the button and what
 * is sent agree on every surface.
 */
import { answerReadiness, type Readiness } from './answer.js';
import { type Draft, itemsOf, type Question, type QuestionItem, type Selection } from './question.js';
import { overallReadiness } from './reply.js';

/** All / Blocking / Non-blocking. */
export const INBOX_FILTERS = ['all', 'blocking', 'non-blocking'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** One question with the viewer's draft for it, if any (a set: their draft of each member). */
export interface InboxItem {
  readonly question: Question;
  /** A single question's draft. */
  readonly draft?: Draft;
  /** A set's drafts, one per member (undefined where the viewer has none). */
  readonly memberDrafts?: readonly (Draft | undefined)[];
}

/** One page of an inbox as every surface draws it, with what the filters count (`InteractionService.inboxPage`). */
export interface InboxPage<T extends InboxItem = InboxItem> {
  readonly filter: InboxFilter;
  /** This page's pending questions, in the inbox's order, with the viewer's drafts. */
  readonly items: readonly T[];
  /** How many pending questions each filter holds (every page). */
  readonly counts: Readonly<Record<InboxFilter, number>>;
  /** How many of the filter's questions come before this page (0 on the first). */
  readonly offset: number;
  /** How many of the filter's questions follow this page. */
  readonly remaining: number;
  /** The `after` of the next page (the ref of this page's last question), when one follows. */
  readonly next?: string;
  /**
   * How many wait in each project the page was read across, when the store read them with the page (so an inbox
   * showing per-project numbers need not count again).
   */
  readonly perProject?: ReadonlyMap<string, { readonly blocking: number; readonly canWait: number }>;
}

/**
 * The selection a picker shows, and so what Send sends: the draft when there is one (even an empty one: the draft
 * is what the person last chose), else the recommended options, else nothing. Handlers use the same rule for a
 * question the viewer has not touched, so "ready" on screen and what is sent never differ.
 */
export function shownSelection(item: Pick<QuestionItem, 'recommended'>, draft?: Selection): Selection {
  if (draft !== undefined) return draft;
  return { choices: [...(item.recommended ?? [])], other: false };
}

/** The ready mark of what the picker shows (see {@link shownSelection}). */
export function shownReadiness(
  item: Pick<QuestionItem, 'options' | 'multiSelect' | 'recommended'>,
  draft?: Selection,
): Readiness {
  return answerReadiness(item, shownSelection(item, draft));
}

/** The viewer's draft of each item of an inbox entry (one for a single question, one per member of a set). */
export function draftsOf(entry: InboxItem): (Draft | undefined)[] {
  return entry.question.members === undefined
    ? [entry.draft]
    : entry.question.members.map((_, index) => entry.memberDrafts?.[index]);
}

/** What each item of an entry shows selected (see {@link shownSelection}). */
export function shownSelections(entry: InboxItem): Selection[] {
  const drafts = draftsOf(entry);
  return itemsOf(entry.question).map((item, index) => shownSelection(item, drafts[index]));
}

/** The ready mark of each item of an entry, as shown. */
export function shownMarks(entry: InboxItem): Readiness[] {
  const drafts = draftsOf(entry);
  return itemsOf(entry.question).map((item, index) => shownReadiness(item, drafts[index]));
}

/** Whether an entry as shown can be sent: every item ready (a set is sent whole). */
export function entryReadiness(entry: InboxItem): Readiness {
  return overallReadiness(shownMarks(entry));
}

function inFilter(question: Question, filter: InboxFilter): boolean {
  if (question.status !== 'pending') return false;
  return filter === 'all' || question.isBlocking === (filter === 'blocking');
}

/**
 * The pending items of `filter`, blocking first, then oldest first. Items that are no longer pending (answered
 * elsewhere between the read and the render) are left out.
 */
export function inboxQuestions<T extends InboxItem>(items: readonly T[], filter: InboxFilter): T[] {
  return items
    .filter((item) => inFilter(item.question, filter))
    .sort(
      (a, b) =>
        Number(b.question.isBlocking) - Number(a.question.isBlocking) ||
        a.question.createdAt - b.question.createdAt ||
        a.question.id - b.question.id,
    );
}

/** How many pending questions each filter shows. */
export function inboxCounts(items: readonly InboxItem[]): Record<InboxFilter, number> {
  return {
    all: inboxQuestions(items, 'all').length,
    blocking: inboxQuestions(items, 'blocking').length,
    'non-blocking': inboxQuestions(items, 'non-blocking').length,
  };
}

/**
 * How many answers "Send N answers" sends for `filter` among `items` (the page shown): the pending questions whose
 * shown selection is ready — the viewer's draft, else the preselected recommendation — exactly what each entry's
 * ready mark says. A set counts once, and only when every member is ready.
 */
export function readyCount(items: readonly InboxItem[], filter: InboxFilter): number {
  return readyItems(items, filter).length;
}

/** The ready questions among `items`: what "Send N answers" sends. */
export function readyItems<T extends InboxItem>(items: readonly T[], filter: InboxFilter): T[] {
  return inboxQuestions(items, filter).filter((item) => entryReadiness(item) === 'ready');
}
