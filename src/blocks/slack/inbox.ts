/**
 * The `/questions` inbox: every pending question routed to a channel, as a modal (`views.open` from the slash
 * command) and as the app's Home tab (`views.publish`). Pure. Which questions a filter shows, their order and what
 * "Send N answers" counts are `core/inbox.ts`'s, shared by every surface.
 *
 * Layout: header · filter select (All / Blocking / Non-blocking, with counts) · "Send N answers" (or "Nothing
 * ready to send": Slack buttons cannot be disabled, so the button is left out) · the questions, blocking first
 * then oldest, each a section (mark, #id, project, ticket, question, ready mark, notes preview) and an actions
 * block (picker, "Add notes") · paging when the filter's questions need more blocks than a view takes.
 *
 * The viewer's drafts are their own (drafts are kept per person), so the notes preview names no author.
 */
import type { PlainTextOption } from '@slack/types';
import { type InboxItem, inboxCounts, inboxQuestions, readyCount } from '../../core/inbox.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { headerMrkdwn, notesPreview, questionMrkdwn, readyMark } from './format.js';
import {
  ACTION_IDS,
  CALLBACK_IDS,
  formatInboxState,
  INBOX_BLOCK_IDS,
  type InboxFilter,
  type InboxState,
  questionBlockId,
} from './ids.js';
import { assertSlackView, SLACK_LIMITS } from './limits.js';
import { pickerElement, shownReadiness, shownSelection } from './picker.js';
import type { SlackView, ViewBlock } from './types.js';

export type { InboxItem } from '../../core/inbox.js';

/** Where the inbox is shown. */
export type InboxSurface = 'modal' | 'home';

/** Blocks each question takes: its section, its actions, a divider. */
const BLOCKS_PER_QUESTION = 3;
/** Blocks around the questions at most: header, filter, send line, divider, page line, Previous, Next. */
const FIXED_BLOCKS = 7;

/** Questions per page: as many as fit one view's 100 blocks (31). */
export const INBOX_PAGE_SIZE = Math.floor((SLACK_LIMITS.viewBlocks - FIXED_BLOCKS) / BLOCKS_PER_QUESTION);

const FILTER_LABELS: Readonly<Record<InboxFilter, string>> = {
  all: 'All',
  blocking: 'Blocking',
  'non-blocking': 'Non-blocking',
};

export { inboxCounts, inboxQuestions, readyCount } from '../../core/inbox.js';

/** How many pages `filter` needs (at least 1). */
export function inboxPageCount(items: readonly InboxItem[], filter: InboxFilter): number {
  return Math.max(1, Math.ceil(inboxQuestions(items, filter).length / INBOX_PAGE_SIZE));
}

/**
 * The inbox for `items` (the pending questions routed to the channel, with the viewer's drafts) in `state`
 * (a page past the end shows the last page), checked against Slack's view limits.
 */
export function renderInbox(items: readonly InboxItem[], state: InboxState, surface: InboxSurface): SlackView {
  const pages = inboxPageCount(items, state.filter);
  const page = Math.min(Math.max(0, Math.trunc(state.page)), pages - 1);
  const shownState: InboxState = { filter: state.filter, page };
  const blocks = inboxBlocks(items, shownState, pages);
  const view: SlackView =
    surface === 'modal'
      ? {
          type: 'modal',
          callback_id: CALLBACK_IDS.inbox,
          title: { type: 'plain_text', text: 'Questions' },
          close: { type: 'plain_text', text: 'Close' },
          private_metadata: formatInboxState(shownState),
          blocks,
        }
      : { type: 'home', callback_id: CALLBACK_IDS.inbox, private_metadata: formatInboxState(shownState), blocks };
  assertSlackView(view);
  return view;
}

function inboxBlocks(items: readonly InboxItem[], state: InboxState, pages: number): ViewBlock[] {
  const header: ViewBlock = { type: 'header', text: { type: 'plain_text', text: '📥 Questions waiting' } };
  const counts = inboxCounts(items);
  if (counts.all === 0) {
    return [
      header,
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '🎉 Nothing waiting. When an agent parks a question for this channel, it shows up here.',
        },
      },
    ];
  }

  const questions = inboxQuestions(items, state.filter);
  const shown = questions.slice(state.page * INBOX_PAGE_SIZE, (state.page + 1) * INBOX_PAGE_SIZE);
  const blocks: ViewBlock[] = [header, filterBlock(counts, state.filter), sendBlock(items, state.filter)];
  blocks.push({ type: 'divider' });
  if (questions.length === 0) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `Nothing ${FILTER_LABELS[state.filter].toLowerCase()} waiting.` },
    });
  }
  for (const item of shown) blocks.push(...questionBlocks(item));
  if (pages > 1) blocks.push(...pagingBlocks(state, pages, questions.length, shown.length));
  return blocks;
}

function filterBlock(counts: Record<InboxFilter, number>, filter: InboxFilter): ViewBlock {
  const options = (Object.keys(FILTER_LABELS) as InboxFilter[]).map(
    (name): PlainTextOption => ({
      text: { type: 'plain_text', text: `${FILTER_LABELS[name]} (${counts[name]})` },
      value: name,
    }),
  );
  const current = options.find((option) => option.value === filter);
  return {
    type: 'actions',
    block_id: INBOX_BLOCK_IDS.filter,
    elements: [
      {
        type: 'static_select',
        action_id: ACTION_IDS.inboxFilter,
        placeholder: { type: 'plain_text', text: 'Show' },
        options,
        ...(current === undefined ? {} : { initial_option: current }),
      },
    ],
  };
}

function sendBlock(items: readonly InboxItem[], filter: InboxFilter): ViewBlock {
  const ready = readyCount(items, filter);
  if (ready === 0) {
    return {
      type: 'context',
      block_id: INBOX_BLOCK_IDS.sendAll,
      elements: [{ type: 'mrkdwn', text: 'Nothing ready to send: pick an answer (Other needs a note) to send it.' }],
    };
  }
  const answers = ready === 1 ? '1 answer' : `${ready} answers`;
  const where = filter === 'all' ? '' : ` (${FILTER_LABELS[filter].toLowerCase()} only)`;
  return {
    type: 'section',
    block_id: INBOX_BLOCK_IDS.sendAll,
    text: { type: 'mrkdwn', text: `*${answers} ready*${where}` },
    accessory: {
      type: 'button',
      action_id: ACTION_IDS.inboxSendAll,
      text: { type: 'plain_text', text: `Send ${answers}` },
      value: filter,
      style: 'primary',
    },
  };
}

function questionBlocks({ question, draft }: InboxItem): ViewBlock[] {
  const ref = formatQuestionRef(question.project, question.id);
  const status = [readyMark(shownReadiness(question, draft))];
  const notes = draft?.notes;
  if (notes !== undefined && notes.trim() !== '') status.push(notesPreview(notes));
  return [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: [headerMrkdwn(question), questionMrkdwn(question), status.join(' · ')].join('\n') },
    },
    {
      type: 'actions',
      block_id: questionBlockId(ref, draft?.updatedAt ?? 0),
      elements: [
        pickerElement(question, shownSelection(question, draft), ACTION_IDS.inboxPick),
        {
          type: 'button',
          action_id: ACTION_IDS.inboxNotes,
          text: { type: 'plain_text', text: 'Add notes' },
          value: ref,
        },
      ],
    },
    { type: 'divider' },
  ];
}

function pagingBlocks(state: InboxState, pages: number, total: number, shown: number): ViewBlock[] {
  const first = state.page * INBOX_PAGE_SIZE + 1;
  const blocks: ViewBlock[] = [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Page ${state.page + 1} of ${pages} · questions ${first}–${first + shown - 1} of ${total}`,
        },
      ],
    },
  ];
  const pageButton = (blockId: string, label: string, target: number): ViewBlock => ({
    type: 'actions',
    block_id: blockId,
    elements: [
      {
        type: 'button',
        action_id: ACTION_IDS.inboxPage,
        text: { type: 'plain_text', text: label },
        value: String(target),
      },
    ],
  });
  if (state.page > 0) blocks.push(pageButton(INBOX_BLOCK_IDS.previousPage, '← Previous', state.page - 1));
  if (state.page < pages - 1) blocks.push(pageButton(INBOX_BLOCK_IDS.nextPage, 'Next →', state.page + 1));
  return blocks;
}
