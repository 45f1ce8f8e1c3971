/**
 * One question as a card of the web inbox, in every state. Pure; every text is escaped (`html.ts`) and Context and
 * Impact go through the safe Markdown renderer (`markdown.ts`).
 *
 * Pending: header (BLOCKING / can wait, project, ticket, #id, asked, expires) · the question · Context · Impact · the
 * picker (radio buttons, or checkboxes for a multi-select question; the recommendation starred; `Other`) with what
 * Send would send checked · Additional notes · the ready mark, Send, and Remove behind a confirmation. Closed:
 * the header with the state, the question, the outcome (who answered, where and when, the answer, the notes;
 * delivered or still waiting for the agent; withdrawn, dismissed, expired), Context and Impact folded away.
 *
 * The element ids (`q-<key>`, `notes-<key>`, `remove-<key>`, `more-<key>`, see {@link elementKey}) let the client
 * script keep focus and open folds across a redraw; `data-ref` carries the question ref itself.
 */
import { describeSelection } from '../../core/answer.js';
import { shownReadiness, shownSelection } from '../../core/inbox.js';
import { NOTES_MAX } from '../../core/limits.js';
import { type Draft, OTHER_LABEL, type Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { formatTime, placeName, projectName, readyMark, stateName } from './format.js';
import { html, type SafeHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

/** One question with the viewer's draft for it, if any. */
export interface WebInboxItem {
  readonly question: Question;
  readonly draft?: Draft;
}

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
  const readiness = pending ? shownReadiness(question, item.draft) : undefined;
  const classes = ['card', pending ? 'is-pending' : 'is-closed', question.isBlocking ? 'is-blocking' : 'is-waiting'];
  return html`<article class="${classes.join(' ')}" id="q-${key}" data-ref="${ref}" data-status="${question.status}" data-blocking="${String(question.isBlocking)}"${readiness === undefined ? '' : html` data-readiness="${readiness}"`}>
${cardHead(question, options)}
<h2 class="question">${question.question}</h2>
${pending ? html`${renderContextAndImpact(question)}${picker(question, ref, item.draft)}${controls(question, ref, item.draft)}` : html`${outcome(question, options)}<details class="more" id="more-${key}"><summary>Context and impact</summary>${renderContextAndImpact(question)}</details>`}
</article>`;
}

/** A time as the page shows it, machine-readable in `datetime`. */
export function renderTime(ms: number, options: CardOptions = {}): SafeHtml {
  return html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms, options.timeZone)}</time>`;
}

function cardHead(question: Question, options: CardOptions): SafeHtml {
  const badge = question.isBlocking
    ? html`<span class="badge badge-blocking">BLOCKING</span>`
    : html`<span class="badge badge-waiting">can wait</span>`;
  const expires =
    question.status === 'pending' && question.expiresAt !== undefined
      ? html`<span class="meta">expires ${renderTime(question.expiresAt, options)}</span>`
      : '';
  return html`<header class="card-head">${badge}<span class="project" title="${question.project}">${projectName(question.project)}</span>${question.ticket === undefined ? '' : html`<span class="ticket">${question.ticket}</span>`}<span class="qid">#${question.id}</span><span class="meta">asked ${renderTime(question.createdAt, options)}</span>${expires}<span class="state state-${question.status}">${stateName(question.status)}</span></header>`;
}

/** Context and Impact, through the safe Markdown renderer. */
export function renderContextAndImpact(question: Pick<Question, 'context' | 'impact'>): SafeHtml {
  return html`<section class="text"><h3>Context</h3><div class="md">${renderMarkdown(question.context)}</div></section>
<section class="text"><h3>Impact</h3><div class="md">${renderMarkdown(question.impact)}</div></section>`;
}

function picker(question: Question, ref: string, draft: Draft | undefined): SafeHtml {
  const selection = shownSelection(question, draft);
  const type = question.multiSelect ? 'checkbox' : 'radio';
  const name = `pick-${ref}`;
  const option = (value: string, label: string, description: string | undefined, checked: boolean, extra: string) =>
    html`<label class="option${extra}"><input type="${type}" name="${name}" value="${value}"${checked ? ' checked' : ''}><span class="option-text"><span class="option-label">${label}</span>${description === undefined || description === '' ? '' : html`<span class="option-desc">${description}</span>`}</span></label>`;
  const rows = question.options.map((opt, index) => {
    const recommended = opt.label === question.recommended;
    return option(
      String(index),
      recommended ? `★ ${opt.label}` : opt.label,
      opt.description,
      selection.choices.includes(opt.label),
      recommended ? ' is-recommended' : '',
    );
  });
  rows.push(option(OTHER_VALUE, OTHER_LABEL, 'None of these: say what in the notes', selection.other, ' is-other'));
  return html`<fieldset class="picker" data-multi="${String(question.multiSelect)}"><legend>${question.multiSelect ? 'Pick any' : 'Pick one'}</legend>${rows}</fieldset>`;
}

function controls(question: Question, ref: string, draft: Draft | undefined): SafeHtml {
  const readiness = shownReadiness(question, draft);
  return html`<label class="notes"><span class="notes-label">Additional notes</span><textarea id="notes-${elementKey(ref)}" data-notes="${ref}" rows="2" maxlength="${NOTES_MAX}" placeholder="Optional with an option; needed with Other">${draft?.notes ?? ''}</textarea></label>
<footer class="card-actions"><span class="ready ready-${readiness}">${readyMark(readiness)}</span><span class="spacer"></span><details class="remove" id="remove-${elementKey(ref)}"><summary>Remove</summary><div class="confirm"><span>Remove #${question.id} without answering? The agent will be told it was dismissed.</span><button type="button" class="danger" data-action="remove">Remove #${question.id}</button></div></details><button type="button" class="primary" data-action="send"${readiness === 'ready' ? '' : ' disabled'}>Send</button></footer>`;
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
      const picked =
        answer === undefined
          ? ''
          : html`<p class="answer">Answer: <strong>${describeSelection(question, answer)}</strong></p>`;
      const notes =
        answer?.notes === undefined || answer.notes.trim() === ''
          ? ''
          : html`<blockquote class="answer-notes">${answer.notes}</blockquote>`;
      const delivery =
        question.status === 'delivered'
          ? html`<p class="delivery is-delivered">Delivered to the agent${question.deliveredAt === undefined ? '' : html` · ${renderTime(question.deliveredAt, options)}`}</p>`
          : html`<p class="delivery">Reaches the agent with the next prompt in its session</p>`;
      return html`<div class="outcome">${who}${picked}${notes}${delivery}</div>`;
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
