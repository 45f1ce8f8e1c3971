/**
 * `/questions` as one Telegram message: what waits for the projects routed to the chat, blocking first, each with
 * what is picked now and its ready mark; a button per question (pointing at its message, where it is answered),
 * the filters All / Blocking / Non-blocking with counts (the current one goes back to the first page), the next page, and "Send N answers" (the ready ones on this page).
 * The question buttons also tell "Send N answers" which questions the page showed (`qo:<ref>`), so it never sends
 * one the person did not see. Pure.
 */
import { describeSelection } from '../../core/answer.js';
import { INBOX_FILTERS, type InboxPage, readyItems, shownMarks, shownSelections } from '../../core/inbox.js';
import { itemsOf } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { overallReadiness } from '../../core/reply.js';
import { answersCount, FILTER_LABELS, nothingInFilter, projectName, readyMark } from '../vocabulary.js';
import { escapeHtml, oneLine, truncate } from './format.js';
import { formatCallbackData, type InboxState } from './ids.js';
import { assertTelegramMessage } from './limits.js';
import type { TelegramButton, TelegramMessage } from './types.js';

/** Questions on one page: eight entries of at most ~450 characters stay within a message's 4,096. */
export const INBOX_PAGE_SIZE = 8;

/** The inbox page `page`, drawn for `state` (the filter and page it was read for); `notice` above it. */
export function renderInbox(page: InboxPage, state: InboxState, notice?: string): TelegramMessage {
  const lines: string[] = [];
  if (notice !== undefined) lines.push(`<i>${escapeHtml(truncate(oneLine(notice), 600))}</i>`, '');
  const total = page.counts.all;
  lines.push(`📥 <b>Questions waiting here</b> · ${FILTER_LABELS[page.filter]} (${page.counts[page.filter]})`);
  if (page.items.length === 0) {
    lines.push(
      total === 0
        ? '🎉 Nothing waiting. When an agent parks a question for this chat, it shows up here.'
        : nothingInFilter(page.filter),
    );
  }
  page.items.forEach((entry, position) => {
    const question = entry.question;
    const selections = shownSelections(entry);
    const picked = itemsOf(question)
      .map((item, index) => describeSelection(item, selections[index] ?? { choices: [], other: false }))
      .join(' · ');
    const title =
      question.members === undefined
        ? question.question
        : `${question.members.length} questions: ${question.members.map((member) => member.topic).join(', ')}`;
    lines.push(
      '',
      `${page.offset + position + 1}. ${question.isBlocking ? '🔴' : '🟢'} <b>#${question.id}</b> · ${escapeHtml(truncate(projectName(question.project), 40))} · ${escapeHtml(truncate(oneLine(title), 160))}`,
      `    ${escapeHtml(truncate(picked, 160))} · ${readyMark(overallReadiness(shownMarks(entry)))}`,
    );
  });
  if (page.remaining > 0) lines.push('', `<i>${page.remaining} more after these.</i>`);
  const keyboard: TelegramButton[][] = [];
  const open = page.items.map((entry) => ({
    text: `#${entry.question.id} ${overallReadiness(shownMarks(entry)) === 'ready' ? '✅' : '👉'}`,
    callback_data: formatCallbackData({
      kind: 'inbox-open',
      ref: formatQuestionRef(entry.question.project, entry.question.id),
    }),
  }));
  for (let start = 0; start < open.length; start += 4) keyboard.push(open.slice(start, start + 4));
  keyboard.push(
    INBOX_FILTERS.map((filter) => ({
      text: `${filter === page.filter ? '▸ ' : ''}${FILTER_LABELS[filter]} (${page.counts[filter]})`,
      callback_data: formatCallbackData({ kind: 'inbox', inbox: { filter } }),
    })),
  );
  const paging: TelegramButton[] = [];
  if (page.next !== undefined) {
    paging.push({
      text: 'Next ▶',
      callback_data: formatCallbackData({ kind: 'inbox', inbox: { filter: page.filter, after: page.next } }),
    });
  }
  if (paging.length > 0) keyboard.push(paging);
  const ready = readyItems(page.items, page.filter).length;
  if (page.items.length > 0) {
    keyboard.push([
      {
        text: ready === 0 ? '📤 Nothing ready to send' : `📤 Send ${answersCount(ready)}`,
        callback_data: formatCallbackData({ kind: 'inbox-send', inbox: state }),
      },
    ]);
  }
  return assertTelegramMessage({ text: lines.join('\n'), keyboard });
}
