/**
 * One question (or one set of questions) as a card of the web inbox, in every state. Pure; every text is escaped
 * (`html.ts`) and Context and Impact go through the safe Markdown renderer (`markdown.ts`).
 *
 * A single question, pending: header (BLOCKING / can wait, project, ticket, #id, asked, expires) · the question ·
 * Context · Impact · the picker (radio buttons, or checkboxes for a multi-select question; recommendations starred;
 * `Other`; each row with its key, 1 to 7) with what Send would send checked · on a multi-select a notes field under
 * each picked option · Additional notes · the ready mark, Send, and Remove behind a confirmation.
 *
 * A set, pending: the same header (BLOCKING when any of its questions blocks) · its topics as the title · the shared
 * Context and Impact · a tab per question (ARIA tablist: `#12.1`, the topic, that question's ready mark) · a panel per
 * question (`#12.1 · Topic`, blocking or not, the question, its own Context and Impact, picker and notes as above) ·
 * `n of m ready`, Remove (the whole set) and one Send · once every question is ready, the review Send opens: each
 * topic with its answer and notes, and the button that sends them all.
 *
 * Closed: the header with the state, the question (a set: its topics), the outcome (who answered, where and when,
 * the answer with notes per option nested under each option, the notes; a set: each question's, under its ref and
 * topic; delivered or still waiting for the agent; withdrawn, dismissed, expired), Context and Impact folded away.
 *
 * Element ids (from {@link elementKey}: `q-<key>`, `opt-<key>-<row>`, `notes-<key>`, `tab-<key>-<member>`, …) let the
 * client script keep focus, unsaved notes and open folds across a redraw; `data-ref` carries the question ref itself,
 * `data-member` the member of a set (0 for `#12.1`).
 */

import { describeSelection } from '../../core/answer.js';
import { askedBeforeLine } from '../../core/asked-before.js';
import { draftsOf, entryReadiness, type InboxItem, shownMarks, shownSelections } from '../../core/inbox.js';
import { NOTES_MAX } from '../../core/limits.js';
import {
  type Answer,
  type Draft,
  memberRef,
  OTHER_LABEL,
  type Question,
  type QuestionItem,
  type Selection,
  type SetMember,
  selectionsOf,
} from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { APPROVAL_WORD, isApproval } from '../vocabulary.js';
import { formatTime, placeName, projectName, readyMark, stateName } from './format.js';
import { html, type SafeHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

/** One question (a single one or a set) with the viewer's drafts for it, if any (`core/inbox.ts`). */
export type WebInboxItem = InboxItem;

export interface CardOptions {
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
}

/**
 * A ref as it appears in element ids: `<tag>-<id>` (a ref's `.` would need escaping in every CSS selector; the tag
 * has a fixed length, so the result is still unambiguous).
 */
export function elementKey(ref: string): string {
  return ref.replace('.', '-');
}

/** The option values the picker posts: an option's index, or `other`. */
export const OTHER_VALUE = 'other';

/** The card for `item` in its current state. */
export function renderCard(item: WebInboxItem, options: CardOptions = {}): SafeHtml {
  const { question } = item;
  const ref = formatQuestionRef(question.project, question.id);
  const key = elementKey(ref);
  const pending = question.status === 'pending';
  const set = question.members !== undefined;
  const readiness = pending ? entryReadiness(item) : undefined;
  const classes = [
    'card',
    pending ? 'is-pending' : 'is-closed',
    ...(set ? ['is-set'] : []),
    question.isBlocking ? 'is-blocking' : 'is-waiting',
  ];
  const body = pending
    ? set
      ? pendingSet(item, ref, key)
      : pendingSingle(item, ref, key)
    : html`${outcome(question, options)}<details class="more" id="more-${key}"><summary>Context and impact</summary>${renderAllTexts(question)}</details>`;
  return html`<article class="${classes.join(' ')}" id="q-${key}" data-ref="${ref}" data-status="${question.status}" data-blocking="${String(question.isBlocking)}"${readiness === undefined ? '' : html` data-readiness="${readiness}"`} tabindex="${pending ? '0' : '-1'}" aria-labelledby="title-${key}">
${cardHead(question, options)}
${askedBefore(question)}<h2 class="question" id="title-${key}">${titleOf(question)}</h2>
${body}
</article>`;
}

/** The earlier decisions a question was asked again despite, when it was. */
function askedBefore(question: Question): SafeHtml | string {
  if (question.askedBefore === undefined || question.askedBefore.length === 0) return '';
  return html`<ul class="asked-before">${question.askedBefore.map((earlier) => html`<li>${askedBeforeLine(earlier)}</li>`)}</ul>`;
}

/** What a card is titled: the question, or a set's topics (`Database · Caches · Naming`). */
export function titleOf(question: Question): string {
  return question.members === undefined
    ? question.question
    : question.members.map((member) => member.topic).join(' · ');
}

/** A time as the page shows it, machine-readable in `datetime`. */
export function renderTime(ms: number, options: CardOptions = {}): SafeHtml {
  return html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms, options.timeZone)}</time>`;
}

/** BLOCKING, or can wait. */
export function blockingBadge(isBlocking: boolean): SafeHtml {
  return isBlocking
    ? html`<span class="badge badge-blocking">BLOCKING</span>`
    : html`<span class="badge badge-waiting">can wait</span>`;
}

function cardHead(question: Question, options: CardOptions): SafeHtml {
  const expires =
    question.status === 'pending' && question.expiresAt !== undefined
      ? html`<span class="meta">expires ${renderTime(question.expiresAt, options)}</span>`
      : '';
  const size =
    question.members === undefined ? '' : html`<span class="set-size">${question.members.length} questions</span>`;
  const badge = isApproval(question)
    ? html`<span class="badge badge-blocking">${APPROVAL_WORD}</span>`
    : blockingBadge(question.isBlocking);
  return html`<header class="card-head">${badge}<span class="project" title="${question.project}">${projectName(question.project)}</span>${question.ticket === undefined ? '' : html`<span class="ticket">${question.ticket}</span>`}<span class="qid">#${question.id}</span>${size}<span class="meta">asked ${renderTime(question.createdAt, options)}</span>${expires}<span class="state state-${question.status}">${stateName(question.status)}</span></header>`;
}

/** Context and Impact, through the safe Markdown renderer. */
export function renderContextAndImpact(question: Pick<Question, 'context' | 'impact'>): SafeHtml {
  return html`<section class="text"><h3>Context</h3><div class="md">${renderMarkdown(question.context)}</div></section>
<section class="text"><h3>Impact</h3><div class="md">${renderMarkdown(question.impact)}</div></section>`;
}

/** The context and impact a set's question adds to the set's, when it has any. */
function memberTexts(member: SetMember): SafeHtml {
  const part = (title: string, text: string | undefined) =>
    text === undefined || text.trim() === ''
      ? ''
      : html`<section class="text"><h4>${title}</h4><div class="md">${renderMarkdown(text)}</div></section>`;
  return html`${part('Context', member.context)}${part('Impact', member.impact)}`;
}

/** Every text of a question: its Context and Impact, and for a set each question's own, under its ref and topic. */
export function renderAllTexts(question: Question): SafeHtml {
  const shared = renderContextAndImpact(question);
  if (question.members === undefined) return shared;
  const own = question.members
    .map((member, index) => ({ member, index, texts: memberTexts(member) }))
    .filter(({ texts }) => texts.value !== '')
    .map(
      ({ member, index, texts }) =>
        html`<section class="member-texts"><h3>${memberRef(question.id, index)} · ${member.topic}</h3>${texts}</section>`,
    );
  return html`${shared}${own}`;
}

function pendingSingle(item: WebInboxItem, ref: string, key: string): SafeHtml {
  const { question } = item;
  if (question.members !== undefined) return html``;
  const [selection = { choices: [], other: false }] = shownSelections(item);
  const [readiness = 'pick-one'] = shownMarks(item);
  return html`${renderContextAndImpact(question)}
<div class="item">${picker(question, `pick-${ref}`, key, selection, item.draft)}${answerNotes(key, item.draft)}</div>
<footer class="card-actions"><span class="ready ready-${readiness}">${readyMark(readiness)}</span>${noticeBox(key)}<span class="spacer"></span>${removeBox(question, key)}<button type="button" id="send-${key}" class="primary" data-action="send"${readiness === 'ready' ? '' : ' disabled'}>Send</button></footer>`;
}

function pendingSet(item: WebInboxItem, ref: string, key: string): SafeHtml {
  const { question } = item;
  const members = question.members;
  if (members === undefined) return html``;
  const selections = shownSelections(item);
  const marks = shownMarks(item);
  const drafts = draftsOf(item);
  const readiness = entryReadiness(item);
  const ready = marks.filter((mark) => mark === 'ready').length;
  const tabs = members.map((member, index) => {
    const open = index === 0;
    const mark = marks[index] ?? 'pick-one';
    return html`<button type="button" role="tab" class="member-tab${open ? ' is-open' : ''}" id="tab-${key}-${index}" aria-controls="panel-${key}-${index}" aria-selected="${String(open)}" tabindex="${open ? '0' : '-1'}" data-member="${index}"><span class="tab-ref">${memberRef(question.id, index)}</span><span class="tab-topic">${member.topic}</span>${member.isBlocking ? html`<span class="tab-blocking">blocking</span>` : ''}<span class="ready ready-${mark}">${readyMark(mark)}</span></button>`;
  });
  const panels = members.map((member, index) => {
    const mark = marks[index] ?? 'pick-one';
    const itemKey = `${key}-${index}`;
    return html`<section class="item member" role="tabpanel" id="panel-${itemKey}" aria-labelledby="tab-${itemKey}" data-member="${index}" data-readiness="${mark}"${index === 0 ? '' : ' hidden'}>
<p class="member-head"><span class="qid">${memberRef(question.id, index)}</span><span class="topic">${member.topic}</span>${blockingBadge(member.isBlocking)}</p>
<h3 class="question">${member.question}</h3>
${memberTexts(member)}${picker(member, `pick-${ref}-${index}`, itemKey, selections[index] ?? { choices: [], other: false }, drafts[index])}${answerNotes(itemKey, drafts[index])}</section>`;
  });
  const progress = `${ready} of ${members.length} ready`;
  return html`${renderContextAndImpact(question)}
<div class="member-tabs" role="tablist" aria-label="The questions of #${question.id}">${tabs}</div>
${panels}
<footer class="card-actions"><span class="set-progress ready-${readiness}">${progress}</span>${noticeBox(key)}<span class="spacer"></span>${removeBox(question, key)}<button type="button" id="send-${key}" class="primary" data-action="send"${readiness === 'ready' ? '' : html` aria-disabled="true"`} aria-describedby="notice-${key}">Send</button></footer>
${readiness === 'ready' ? reviewBox(question, key, selections) : ''}`;
}

/** A set's review before it is sent: each topic with its answer and notes, and the button that sends them all. */
function reviewBox(question: Question, key: string, selections: readonly Selection[]): SafeHtml {
  const members = question.members ?? [];
  const lines = members.map(
    (member, index) =>
      html`<li><p class="review-head"><span class="qid">${memberRef(question.id, index)}</span><strong class="topic">${member.topic}</strong></p>${renderSelection(member, selections[index] ?? { choices: [], other: false })}</li>`,
  );
  return html`<section class="review" id="review-${key}" aria-labelledby="review-title-${key}" hidden><h3 class="review-title" id="review-title-${key}">Review #${question.id} before sending</h3><ol class="review-lines">${lines}</ol><div class="review-actions"><button type="button" id="back-${key}" data-action="cancel-review">Back</button><button type="button" id="confirm-${key}" class="primary" data-action="confirm">Send all ${members.length} answers</button></div></section>`;
}

function noticeBox(key: string): SafeHtml {
  return html`<p class="notice" id="notice-${key}" hidden></p>`;
}

function removeBox(question: Question, key: string): SafeHtml {
  const what =
    question.members === undefined ? `#${question.id}` : `#${question.id} (all ${question.members.length} questions)`;
  return html`<details class="remove" id="remove-${key}"><summary>Remove</summary><div class="confirm"><span>Remove ${what} without answering? The agent will be told it was dismissed.</span><button type="button" id="remove-button-${key}" class="danger" data-action="remove">Remove #${question.id}</button></div></details>`;
}

/**
 * The picker of one question: a row per option (starred when recommended, checked when shown selected, its key), then
 * `Other`; on a multi-select each option's row also holds its notes field, shown while the option is picked.
 */
function picker(item: QuestionItem, name: string, key: string, selection: Selection, draft: Draft | undefined) {
  const type = item.multiSelect ? 'checkbox' : 'radio';
  const recommended = new Set(item.recommended ?? []);
  const noted = new Map((draft?.choiceNotes ?? []).map((entry) => [entry.choice, entry.notes]));
  const row = (
    row: number,
    value: string,
    label: string,
    description: string | undefined,
    checked: boolean,
    extra: string,
  ) =>
    html`<label class="option${extra}"><input type="${type}" id="opt-${key}-${row}" name="${name}" value="${value}"${checked ? ' checked' : ''}><span class="option-text"><span class="option-label">${label}</span>${description === undefined || description === '' ? '' : html`<span class="option-desc">${description}</span>`}</span><kbd class="key" aria-hidden="true">${row + 1}</kbd></label>`;
  const rows = item.options.map((option, index) => {
    const star = recommended.has(option.label);
    const checked = selection.choices.includes(option.label);
    const shown = row(
      index,
      String(index),
      star ? `★ ${option.label}` : option.label,
      option.description,
      checked,
      star ? ' is-recommended' : '',
    );
    if (!item.multiSelect) return shown;
    return html`<div class="option-row">${shown}<label class="choice-notes"${checked ? '' : ' hidden'}><span class="choice-notes-label">Notes on ${option.label}</span><textarea id="cnotes-${key}-${index}" data-notes="choice" data-choice="${index}" rows="1" maxlength="${NOTES_MAX}" placeholder="Optional: why this one, what to watch for">${noted.get(option.label) ?? ''}</textarea></label></div>`;
  });
  const other = row(
    item.options.length,
    OTHER_VALUE,
    OTHER_LABEL,
    'None of these: say what in the notes',
    selection.other,
    ' is-other',
  );
  rows.push(item.multiSelect ? html`<div class="option-row">${other}</div>` : other);
  return html`<fieldset class="picker" data-multi="${String(item.multiSelect)}"><legend>${item.multiSelect ? 'Pick any' : 'Pick one'}</legend>${rows}</fieldset>`;
}

function answerNotes(key: string, draft: Draft | undefined): SafeHtml {
  return html`<label class="notes"><span class="notes-label">Additional notes</span><textarea id="notes-${key}" data-notes="answer" rows="2" maxlength="${NOTES_MAX}" placeholder="Optional with an option; needed with Other">${draft?.notes ?? ''}</textarea></label>`;
}

/**
 * One question's answer (or what would be sent): the picks in one line, the notes per option nested under each
 * picked option, then the notes.
 */
export function renderSelection(item: Pick<QuestionItem, 'options'>, selection: Selection): SafeHtml {
  const picked = new Set(selection.choices);
  const perOption = (selection.choiceNotes ?? []).filter(
    (entry) => picked.has(entry.choice) && entry.notes.trim() !== '',
  );
  const nested =
    perOption.length === 0
      ? ''
      : html`<ul class="choice-notes-list">${perOption.map((entry) => html`<li><span class="choice">${entry.choice}</span><blockquote class="choice-note">${entry.notes}</blockquote></li>`)}</ul>`;
  const notes =
    selection.notes === undefined || selection.notes.trim() === ''
      ? ''
      : html`<blockquote class="answer-notes">${selection.notes}</blockquote>`;
  return html`<p class="answer">Answer: <strong>${describeSelection(item, selection)}</strong></p>${nested}${notes}`;
}

/** The answer of a question: a single question's selection; a set's, each under its ref, topic and question. */
export function renderAnswer(question: Question, answer: Answer): SafeHtml {
  const selections = selectionsOf(answer);
  if (question.members === undefined) {
    return renderSelection(question, selections[0] ?? { choices: [], other: false });
  }
  const members = question.members.map(
    (member, index) =>
      html`<li class="member-answer"><p class="member-head"><span class="qid">${memberRef(question.id, index)}</span><span class="topic">${member.topic}</span></p><p class="member-question">${member.question}</p>${renderSelection(member, selections[index] ?? { choices: [], other: false })}</li>`,
  );
  return html`<ol class="member-answers">${members}</ol>`;
}

function outcome(question: Question, options: CardOptions): SafeHtml {
  switch (question.status) {
    case 'answered':
    case 'delivered': {
      const answer = question.answer;
      const who =
        answer === undefined
          ? html`<p class="who">Answered</p>`
          : html`<p class="who">Answered by <strong>${answer.by.displayName}</strong> ${placeName(answer.by.platform)} · ${renderTime(answer.at, options)}</p>`;
      const delivery =
        question.status === 'delivered'
          ? html`<p class="delivery is-delivered">Delivered to the agent${question.deliveredAt === undefined ? '' : html` · ${renderTime(question.deliveredAt, options)}`}</p>`
          : html`<p class="delivery">Reaches the agent with the next prompt in its session</p>`;
      return html`<div class="outcome">${who}${answer === undefined ? '' : renderAnswer(question, answer)}${delivery}</div>`;
    }
    case 'cancelled':
      return closedLine(question, 'Withdrawn by the agent', options);
    case 'dismissed': {
      const by = question.closure?.by;
      return closedLine(
        question,
        by === undefined
          ? 'Dismissed'
          : html`Dismissed by <strong>${by.displayName}</strong> ${placeName(by.platform)}`,
        options,
      );
    }
    case 'expired':
      return closedLine(question, 'Expired unanswered', options);
    case 'pending':
      return html``;
  }
}

function closedLine(question: Question, what: SafeHtml | string, options: CardOptions): SafeHtml {
  const at = question.closure?.at;
  const told =
    question.status !== 'cancelled' && question.deliveredAt !== undefined
      ? html`<p class="delivery is-delivered">The agent was told${html` · ${renderTime(question.deliveredAt, options)}`}</p>`
      : '';
  return html`<div class="outcome"><p class="who">${what}${at === undefined ? '' : html` · ${renderTime(at, options)}`}</p>${told}</div>`;
}
