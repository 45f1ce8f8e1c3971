/**
 * Text for Telegram's HTML parse mode: escaping (every text from an agent or a person goes through {@link escapeHtml}),
 * the header line, times, and the small Markdown subset shown as HTML. Pure.
 */
import type { Question, QuestionStatus } from '../../core/question.js';
import { oneLine, truncate } from '../../core/text.js';
import { projectName } from '../vocabulary.js';

/** `text` safe inside Telegram HTML: `&`, `<` and `>` as entities (quotes need none outside attributes). */
export { oneLine, truncate } from '../../core/text.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A time as every reader of the chat sees it: `2026-12-03 06:15 UTC` (Telegram has no local-time token). */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

const STATUS_MARKS: Readonly<Record<Exclude<QuestionStatus, 'pending'>, string>> = {
  answered: '✅ Answered',
  delivered: '📬 Delivered',
  cancelled: '↩️ Withdrawn',
  dismissed: '🗑️ Dismissed',
  expired: '⌛ Expired',
};

/** How much of a project's last segment the header shows. */
const PROJECT_SHOWN_MAX = 60;

/** `🔴 <b>BLOCKING</b> · #7 · shop · SHOP-12` while pending, the outcome mark after; HTML, at most ~180 characters. */
export function headerLine(question: Pick<Question, 'status' | 'isBlocking' | 'id' | 'project' | 'ticket'>): string {
  const mark =
    question.status === 'pending'
      ? question.isBlocking
        ? '🔴 <b>BLOCKING</b>'
        : '🟢 <b>can wait</b>'
      : `<b>${STATUS_MARKS[question.status]}</b>`;
  const project = escapeHtml(truncate(oneLine(projectName(question.project)), PROJECT_SHOWN_MAX));
  const ticket = question.ticket === undefined ? '' : ` · ${escapeHtml(question.ticket)}`;
  return `${mark} · #${question.id} · ${project}${ticket}`;
}

/**
 * Markdown as Telegram HTML, for the agent's context and impact: fenced code blocks as `<pre>`, inline code as
 * `<code>`, `**bold**` as `<b>`; everything else escaped as written (lists and headings read well as text). Adds
 * only tags, so the visible length is at most the Markdown's.
 */
export function markdownHtml(markdown: string): string {
  const parts = markdown.split(/```[^\n]*\n?/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1 && index < parts.length - 1) return `<pre>${escapeHtml(part.replace(/\n$/, ''))}</pre>`;
      return escapeHtml(part)
        .replace(/`([^`\n]+)`/g, '<code>$1</code>')
        .replace(/\*\*([^*\n]+)\*\*/g, '<b>$1</b>');
    })
    .join('');
}

/** A mention of a Telegram user by id that notifies them (`tg://user?id=`), shown as `name`. */
export function mention(userId: string, name: string): string {
  return `<a href="tg://user?id=${encodeURIComponent(userId)}">${escapeHtml(name)}</a>`;
}
