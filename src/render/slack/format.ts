/**
 * Text shared by the Slack renderers: mrkdwn escaping, the header line, dates, the ready mark and the notes
 * preview. Pure.
 */
import { memberRef, type Question, type QuestionItem, type SetMember } from '../../core/question.js';
import { oneLine, truncate } from '../../core/text.js';
import { projectName } from '../vocabulary.js';
import { SLACK_LIMITS } from './limits.js';

/**
 * Escapes the three characters Slack's mrkdwn gives meaning to (`&`, `<`, `>`), so agent or person text can never
 * form a link, a mention (`<!channel>`) or an entity. Formatting characters (`*`, `_`, `~`) have no escape in mrkdwn
 * and are left alone.
 */
export { oneLine, truncate } from '../../core/text.js';

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `text` escaped for mrkdwn and cut so the *escaped* text is at most `max` UTF-16 units (an ellipsis included),
 * never inside an entity or a surrogate pair. For previews, names and paths, whose budget must hold however many
 * `&`, `<`, `>` they contain.
 */
export function escapeMrkdwnWithin(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let out = '';
  for (const char of text) {
    const next = escapeMrkdwn(char);
    if (out.length + next.length > max - 1) break;
    out += next;
  }
  return `${out}…`;
}

export { projectName, readyMark, setReadyMark } from '../vocabulary.js';

/** A Slack date token: the viewer's own time zone, with the ISO time as the fallback text. */
export function slackDate(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `<!date^${seconds}^{date_short_pretty} at {time}|${new Date(ms).toISOString()}>`;
}

export { placeOf, platformName } from '../../core/question.js';

/** 🔴 BLOCKING / 🟢 can wait. */
export function blockingMark(isBlocking: boolean): string {
  return isBlocking ? '🔴 BLOCKING' : '🟢 can wait';
}

/**
 * How much of a project's full path (escaped) the renderers show: project names are unbounded, and the last
 * segment is what reads.
 */
export const PROJECT_PATH_SHOWN_MAX = 150;

/**
 * The plain-text header: `🔴 BLOCKING · #7 · shop · PROJ-12`, within Slack's 150-character header. The ticket
 * (≤ 64) and id always fit; only the project's last segment is shortened when it would not (its full path is
 * shown elsewhere).
 */
export function headerLine(question: Pick<Question, 'isBlocking' | 'id' | 'project' | 'ticket'>): string {
  const head = `${blockingMark(question.isBlocking)} · #${question.id} · `;
  const tail = question.ticket === undefined ? '' : ` · ${question.ticket}`;
  const room = SLACK_LIMITS.headerText - head.length - tail.length;
  return `${head}${truncate(projectName(question.project), Math.max(room, 1))}${tail}`;
}

/** The compact one-line header in mrkdwn: `🔴 *BLOCKING* · #7 · shop · PROJ-12`, escaped. */
export function headerMrkdwn(question: Pick<Question, 'isBlocking' | 'id' | 'project' | 'ticket'>): string {
  const mark = question.isBlocking ? '🔴 *BLOCKING*' : '🟢 can wait';
  const project = escapeMrkdwnWithin(projectName(question.project), PROJECT_PATH_SHOWN_MAX);
  const ticket = question.ticket === undefined ? '' : ` · ${escapeMrkdwn(question.ticket)}`;
  return `${mark} · #${question.id} · ${project}${ticket}`;
}

/** The question (of a single question or a set member) as bold mrkdwn. */
export function questionMrkdwn(question: Pick<QuestionItem, 'question'>): string {
  return `*${escapeMrkdwn(question.question)}*`;
}

/** A set member's heading in mrkdwn: `#12.1 · *Database* · 🔴 blocking` (the mark only when it blocks), escaped. */
export function memberHeadingMrkdwn(
  id: number,
  index: number,
  member: Pick<SetMember, 'topic' | 'isBlocking'>,
): string {
  const mark = member.isBlocking ? ' · 🔴 blocking' : '';
  return `${memberRef(id, index)} · *${escapeMrkdwn(member.topic)}*${mark}`;
}

/** `notes on 1 option` / `notes on 3 options`: the draft's notes per option, counted (a multi-select). */
export function choiceNotesCount(count: number): string {
  return `notes on ${count} ${count === 1 ? 'option' : 'options'}`;
}

/** How many characters (escaped) of the notes a preview shows, on one line; the stored notes are never cut. */
export const NOTES_PREVIEW_MAX = 120;

/** How many characters (escaped) of a person's display name the renderers show. */
export const DISPLAY_NAME_SHOWN_MAX = 80;

/** A display name for mrkdwn: one line, escaped, within {@link DISPLAY_NAME_SHOWN_MAX}. */
export function displayNameMrkdwn(name: string): string {
  return escapeMrkdwnWithin(oneLine(name), DISPLAY_NAME_SHOWN_MAX);
}

/** `Notes by Ada: …` (or `Notes: …` without a name), one line, escaped and cut to {@link NOTES_PREVIEW_MAX}. */
export function notesPreview(notes: string, by?: string): string {
  const who = by === undefined || by.trim() === '' ? 'Notes' : `Notes by ${displayNameMrkdwn(by)}`;
  return `${who}: ${escapeMrkdwnWithin(oneLine(notes), NOTES_PREVIEW_MAX)}`;
}
