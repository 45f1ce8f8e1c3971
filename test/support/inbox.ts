/**
 * One page of an inbox built from a list in memory, as `InteractionService.inboxPage` reads it from the store: the
 * pending items of the filter in the inbox's order, page `page` of `size`, with every filter's counts. For renderer
 * tests, which draw pages without a store.
 */
import { type InboxFilter, type InboxItem, type InboxPage, inboxCounts, inboxQuestions } from '../../src/core/inbox.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';

export function inboxPageOf<T extends InboxItem>(
  items: readonly T[],
  filter: InboxFilter,
  page = 0,
  size = Number.POSITIVE_INFINITY,
): InboxPage<T> {
  const all = inboxQuestions(items, filter);
  const offset = Number.isFinite(size) ? page * size : 0;
  const shown = all.slice(offset, offset + size);
  const remaining = all.length - offset - shown.length;
  const last = shown.at(-1);
  return {
    filter,
    items: shown,
    counts: inboxCounts(items),
    offset,
    remaining,
    ...(remaining > 0 && last !== undefined
      ? { next: formatQuestionRef(last.question.project, last.question.id) }
      : {}),
  };
}

/** The `after` that starts page `page` (the ref of the last question of the page before), for states in tests. */
export function afterOf(
  items: readonly InboxItem[],
  filter: InboxFilter,
  page: number,
  size: number,
): string | undefined {
  if (page === 0) return undefined;
  return inboxPageOf(items, filter, page - 1, size).next;
}
