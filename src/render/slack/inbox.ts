/**
 * The `/questions` inbox: one page of the pending questions routed to a channel, as a modal (`views.open` from the
 * slash command) and as the app's Home tab (`views.publish`). Pure. Which questions a filter shows, their order and
 * what "Send N answers" counts are `core/inbox.ts`'s, shared by every surface.
 *
 * Layout: header · filter select (All / Blocking / Non-blocking, with counts of every page; a set counts once) ·
 * "Send N answers" (the ready answers on this page, the questions the person sees, a set only when every member is
 * ready; or "Nothing ready to send": Slack buttons cannot be disabled, so the button is left out) · the page's
 * questions, blocking first then oldest. A single question is a section (mark, #id, project, ticket, question, ready
 * mark, notes preview), an actions block (picker, "Add notes") and a divider: 3 blocks. A set is a section (mark,
 * #id, project, ticket, `2 of 3 ready`), per member a section (ref, topic, question, ready mark, notes preview) and
 * an actions block (picker, "Add notes"; block id `al_q:<ref>:<revision>:<member>`), and a divider: 2 + 2 × members,
 * 10 for the largest set. Then where the page is ("questions 32–62 of 10,000") with Previous / Next when there is
 * more than one page.
 *
 * Paging by blocks: a view takes 100 blocks, and the frame around the entries up to {@link FIXED_BLOCKS}. The
 * handler reads {@link INBOX_PAGE_SIZE} entries (31: as many single questions as fit); the page shows them while
 * their blocks fit and ends early otherwise, its Next then starting after the last entry shown. So a page of single
 * questions holds 31 as before, and a page of the largest sets 9; nothing is ever left half drawn.
 *
 * The viewer's drafts are their own (drafts are kept per person), so the notes preview names no author.
 */
import type { PlainTextOption } from '@slack/types';
import type { Readiness } from '../../core/answer.js';
import { draftsOf, type InboxItem, type InboxPage, readyItems, shownMarks } from '../../core/inbox.js';
import type { Draft } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { FILTER_LABELS, nothingInFilter } from '../vocabulary.js';
import {
  choiceNotesCount,
  headerMrkdwn,
  memberHeadingMrkdwn,
  notesPreview,
  questionMrkdwn,
  readyMark,
  setReadyMark,
} from './format.js';
import {
  ACTION_IDS,
  CALLBACK_IDS,
  formatInboxPaging,
  formatInboxState,
  INBOX_BLOCK_IDS,
  type InboxFilter,
  type InboxState,
  questionBlockId,
} from './ids.js';
import { assertSlackView, SLACK_LIMITS } from './limits.js';
import { pickerElement, shownSelection } from './picker.js';
import type { SlackView, ViewBlock } from './types.js';

export type { InboxItem, InboxPage } from '../../core/inbox.js';

/** Where the inbox is shown. */
export type InboxSurface = 'modal' | 'home';

/** Blocks a single question takes: its section, its actions, a divider. */
const BLOCKS_PER_QUESTION = 3;
/** Blocks around the questions at most: header, filter, send line, divider, page line, Previous, Next. */
const FIXED_BLOCKS = 7;
/** Blocks the entries of one page may take. */
const ENTRY_BLOCKS_MAX = SLACK_LIMITS.viewBlocks - FIXED_BLOCKS;

/**
 * Entries read for a page: as many single questions as fit one view's 100 blocks (31). A page of sets shows fewer
 * (see the module comment).
 */
export const INBOX_PAGE_SIZE = Math.floor(ENTRY_BLOCKS_MAX / BLOCKS_PER_QUESTION);

export { inboxQuestions, readyCount } from '../../core/inbox.js';

/**
 * The inbox for `page` (one page of the pending questions routed to the channel, with the viewer's drafts) shown in
 * `state` (whose filter is the page's), checked against Slack's view limits.
 */
export function renderInbox(page: InboxPage, state: InboxState, surface: InboxSurface): SlackView {
  const blocks = inboxBlocks(page, state);
  const view: SlackView =
    surface === 'modal'
      ? {
          type: 'modal',
          callback_id: CALLBACK_IDS.inbox,
          title: { type: 'plain_text', text: 'Questions' },
          close: { type: 'plain_text', text: 'Close' },
          private_metadata: formatInboxState(state),
          blocks,
        }
      : { type: 'home', callback_id: CALLBACK_IDS.inbox, private_metadata: formatInboxState(state), blocks };
  assertSlackView(view);
  return view;
}

function inboxBlocks(page: InboxPage, state: InboxState): ViewBlock[] {
  const header: ViewBlock = { type: 'header', text: { type: 'plain_text', text: '📥 Questions waiting' } };
  const { counts } = page;
  if (counts.all === 0 && page.items.length === 0) {
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

  // Entries while their blocks fit; a page that ends early goes on after its last entry shown.
  const entries: ViewBlock[][] = [];
  let used = 0;
  for (const item of page.items.slice(0, INBOX_PAGE_SIZE)) {
    const drawn = entryBlocks(item);
    if (used + drawn.length > ENTRY_BLOCKS_MAX) break;
    entries.push(drawn);
    used += drawn.length;
  }
  const shown = page.items.slice(0, entries.length);
  const last = shown.at(-1)?.question;
  const next =
    shown.length < page.items.length && last !== undefined ? formatQuestionRef(last.project, last.id) : page.next;
  const remaining = page.remaining + (page.items.length - shown.length);
  const blocks: ViewBlock[] = [header, filterBlock(counts, page.filter), sendBlock(shown, page.filter)];
  blocks.push({ type: 'divider' });
  if (shown.length === 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          page.offset > 0
            ? 'Nothing more on this page: the questions here were answered meanwhile.'
            : nothingInFilter(page.filter),
      },
    });
  }
  for (const drawn of entries) blocks.push(...drawn);
  const paged = page.offset > 0 || next !== undefined || (state.back?.length ?? 0) > 0;
  if (paged)
    blocks.push(...pagingBlocks({ ...page, remaining, ...(next === undefined ? {} : { next }) }, shown.length, state));
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

function sendBlock(shown: readonly InboxItem[], filter: InboxFilter): ViewBlock {
  const ready = readyItems(shown, filter);
  if (ready.length === 0) {
    return {
      type: 'context',
      block_id: INBOX_BLOCK_IDS.sendAll,
      elements: [{ type: 'mrkdwn', text: 'Nothing ready to send: pick an answer (Other needs a note) to send it.' }],
    };
  }
  const answers = ready.length === 1 ? '1 answer' : `${ready.length} answers`;
  const where = filter === 'all' ? '' : ` (${FILTER_LABELS[filter].toLowerCase()} only)`;
  return {
    type: 'section',
    block_id: INBOX_BLOCK_IDS.sendAll,
    text: { type: 'mrkdwn', text: `*${answers} ready* on this page${where}` },
    accessory: {
      type: 'button',
      action_id: ACTION_IDS.inboxSendAll,
      text: { type: 'plain_text', text: `Send ${answers}` },
      // What is sent: the ready questions shown here (≤ 31 refs of ≤ 26 characters: within the 2,000 a value takes).
      value: ready.map(({ question }) => formatQuestionRef(question.project, question.id)).join(' '),
      style: 'primary',
    },
  };
}

/** One entry's blocks: a single question's 3, a set's 2 + 2 per member. */
function entryBlocks(entry: InboxItem): ViewBlock[] {
  const { question } = entry;
  const ref = formatQuestionRef(question.project, question.id);
  const drafts = draftsOf(entry);
  const marks = shownMarks(entry);
  if (question.members === undefined) {
    const draft = drafts[0];
    return [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: [headerMrkdwn(question), questionMrkdwn(question), statusLine(marks[0] ?? 'pick-one', draft)].join(
            '\n',
          ),
        },
      },
      pickerBlock(ref, question, draft),
      { type: 'divider' },
    ];
  }
  const blocks: ViewBlock[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${headerMrkdwn(question)}\n*${question.members.length} questions* · ${setReadyMark(marks)}`,
      },
    },
  ];
  question.members.forEach((member, index) => {
    const draft = drafts[index];
    blocks.push(
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: [
            memberHeadingMrkdwn(question.id, index, member),
            questionMrkdwn(member),
            statusLine(marks[index] ?? 'pick-one', draft),
          ].join('\n'),
        },
      },
      pickerBlock(ref, member, draft, index),
    );
  });
  blocks.push({ type: 'divider' });
  return blocks;
}

/** `✅ ready · Notes: … · notes on 2 options` (the viewer's own drafts: no author named). */
function statusLine(mark: Readiness, draft: Draft | undefined): string {
  const status = [readyMark(mark)];
  const notes = draft?.notes;
  if (notes !== undefined && notes.trim() !== '') status.push(notesPreview(notes));
  const optionNotes = (draft?.choiceNotes ?? []).filter(
    (entry) => entry.notes.trim() !== '' && draft?.choices.includes(entry.choice),
  ).length;
  if (optionNotes > 0) status.push(choiceNotesCount(optionNotes));
  return status.join(' · ');
}

/** The item's picker and "Add notes", in a block whose id names the question (and member) and the draft's time. */
function pickerBlock(
  ref: string,
  item: Parameters<typeof pickerElement>[0],
  draft: Draft | undefined,
  member?: number,
): ViewBlock {
  return {
    type: 'actions',
    block_id: questionBlockId(ref, draft?.updatedAt ?? 0, member),
    elements: [
      pickerElement(item, shownSelection(item, draft), ACTION_IDS.inboxPick),
      { type: 'button', action_id: ACTION_IDS.inboxNotes, text: { type: 'plain_text', text: 'Add notes' }, value: ref },
    ],
  };
}

function pagingBlocks(page: InboxPage, shown: number, state: InboxState): ViewBlock[] {
  const total = page.offset + shown + page.remaining;
  const first = page.offset + 1;
  const where = shown === 0 ? `${total} in all` : `questions ${first}–${first + shown - 1} of ${total}`;
  const blocks: ViewBlock[] = [{ type: 'context', elements: [{ type: 'mrkdwn', text: where }] }];
  const pageButton = (blockId: string, label: string, value: string): ViewBlock => ({
    type: 'actions',
    block_id: blockId,
    elements: [{ type: 'button', action_id: ACTION_IDS.inboxPage, text: { type: 'plain_text', text: label }, value }],
  });
  if (page.offset > 0 || (state.back?.length ?? 0) > 0 || state.after !== undefined) {
    blocks.push(pageButton(INBOX_BLOCK_IDS.previousPage, '← Previous', formatInboxPaging({ to: 'previous' })));
  }
  if (page.next !== undefined) {
    blocks.push(pageButton(INBOX_BLOCK_IDS.nextPage, 'Next →', formatInboxPaging({ to: 'next', after: page.next })));
  }
  return blocks;
}
