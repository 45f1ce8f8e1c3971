/**
 * The keyboard inbox's screen as lines, from what it shows and how it is looked at: the filters with their counts and
 * the project filter, the list of the filter's questions (blocking first, the focused one marked), the focused card
 * (scrolled so the focused option shows), and at the bottom what is going on (a notes field being typed, a set's
 * review, Remove's confirmation, the last outcome) and the keys. Every line fits `width` columns; there are exactly
 * `height` of them. Pure.
 */

import { entryReadiness, INBOX_FILTERS, type InboxItem, type InboxPage, readyCount } from '../../core/inbox.js';
import { cardLines } from '../../render/terminal/card.js';
import { bold, cyan, dim, green, inverse, plain, red, yellow } from '../../render/terminal/style.js';
import { columns, wrap, wrapLines } from '../../render/terminal/wrap.js';
import { FILTER_LABELS, projectName } from '../../render/vocabulary.js';
import { KEY_HELP } from '../../render/web/client/keys.js';
import type { ReviewOf } from '../review.js';

/** What is being typed into a notes field. */
export interface NotesField {
  readonly ref: string;
  readonly member?: number;
  /** The option the notes are for (a multi-select's notes per option); absent: the answer's notes. */
  readonly choice?: string;
  readonly text: string;
  /** Where typing goes in: before this many characters (graphemes) of `text`; absent: at its end. */
  readonly cursor?: number;
}

/** The field's text with the cursor drawn (`█`) where typing goes in. */
export function withCursor(field: NotesField): string {
  if (field.cursor === undefined) return `${field.text}█`;
  const parts = [...graphemes.segment(field.text)].map((each) => each.segment);
  return `${parts.slice(0, field.cursor).join('')}█${parts.slice(field.cursor).join('')}`;
}

/** How the screen is looked at, besides the page it shows. */
export interface ScreenView {
  readonly width: number;
  readonly height: number;
  /** Who answers (the title names them). */
  readonly who: string;
  /** The project filter's name; absent: every project. */
  readonly project?: string;
  /** The focused question (its index on the page). */
  readonly focus: number;
  /** The open member of the focused set. */
  readonly member: number;
  /** The focused option row of the open item (the options, then Other). */
  readonly option: number;
  /** Pages the card is scrolled by from where the focused option shows (PgUp / PgDn). */
  readonly scroll?: number;
  readonly notes?: NotesField;
  readonly review?: ReviewOf;
  /** Remove's confirmation is asked for the focused question. */
  readonly confirmRemove?: boolean;
  readonly help?: boolean;
  /** What just happened (an outcome, a refusal, a question answered elsewhere), newest last. */
  readonly messages: readonly { readonly text: string; readonly ok: boolean }[];
  /** The store's changes are being followed. */
  readonly live: boolean;
}

const KEYS_LINE =
  'j/k question · 1-7 ↑↓ Space pick · ←→ tab · n notes · Enter send · S send all ready · x remove · Tab filter · p project · ? keys · q quit';

/** `text` cut to `width` columns, with `…` when cut (lines of the list; cards are wrapped, never cut). */
export function clip(text: string, width: number): string {
  const bare = plain(text);
  if (columns(bare) <= width) return text;
  let out = '';
  let used = 1; // the ellipsis
  for (const { segment } of graphemes.segment(bare)) {
    used += columns(segment);
    if (used > width) break;
    out += segment;
  }
  return `${out}…`;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function filterLine(page: InboxPage | undefined, view: ScreenView): string {
  const tabs = INBOX_FILTERS.map((filter) => {
    const label = ` ${FILTER_LABELS[filter]} ${page?.counts[filter] ?? 0} `;
    return page?.filter === filter ? inverse(label) : label;
  });
  // More than one page waits: which of them this is (j / k go on past its ends).
  const all = page === undefined ? 0 : page.counts[page.filter];
  const range =
    page !== undefined && all > page.items.length && page.items.length > 0
      ? ` · ${page.offset + 1}–${page.offset + page.items.length} of ${all}`
      : '';
  return `${tabs.join(' ')}  ${dim(`project: ${view.project ?? 'all'}${range}`)}`;
}

function listLines(page: InboxPage, view: ScreenView, rows: number): string[] {
  if (page.items.length === 0)
    return [
      dim(page.counts.all === 0 ? 'Nothing waiting.' : `Nothing ${FILTER_LABELS[page.filter].toLowerCase()} waiting.`),
    ];
  // A row kept for "… more below" when not every question fits, so it never hides the focused one.
  const moreRow = rows > 1 && (page.items.length > rows || page.remaining > 0);
  const itemRows = moreRow ? rows - 1 : rows;
  const first = Math.max(0, Math.min(view.focus - Math.floor(itemRows / 2), page.items.length - itemRows));
  const shown = page.items.slice(first, first + itemRows);
  const lines = shown.map((entry, index) => {
    const at = first + index;
    const { question } = entry;
    const badge = question.isBlocking ? red('BLOCKING') : green('can wait');
    const ready = entryReadiness(entry);
    const mark = ready === 'ready' ? green('✓') : yellow('…');
    const text = `${at === view.focus ? '▸' : ' '} ${mark} #${question.id} ${badge} ${projectName(question.project)} · ${question.members === undefined ? question.question : `a set of ${question.members.length}: ${question.members.map((m) => m.topic).join(', ')}`}`;
    return at === view.focus ? bold(clip(text, view.width)) : clip(text, view.width);
  });
  const more = page.items.length - (first + shown.length) + page.remaining;
  if (more > 0) lines.push(dim(clip(`  … ${more} more below (j)`, view.width)));
  return lines;
}

/** The lines at the bottom: the notes field, the review, the confirmation, the last messages. */
function bottomLines(view: ScreenView, page: InboxPage | undefined): string[] {
  const width = view.width;
  const lines: string[] = [];
  if (view.notes) {
    const what = view.notes.choice === undefined ? 'Notes' : `Notes for ${view.notes.choice}`;
    lines.push(cyan(clip(`✎ ${what} (Enter saves, Esc leaves):`, width)));
    lines.push(...wrapLines(withCursor(view.notes), width, '  '));
  } else if (view.review) {
    lines.push(bold(`Review #${view.review.question.id} before it is sent:`));
    for (const line of view.review.lines) {
      const name = line.topic ?? line.ref;
      lines.push(
        ...wrap(
          `${name}: ${line.answer}${line.selection.notes ? ` (notes: ${line.selection.notes})` : ''}`,
          width,
          '  ',
        ),
      );
    }
    lines.push(green('Enter sends all · Esc goes back to the card'));
  } else if (view.confirmRemove) {
    lines.push(
      yellow(
        clip('Remove this question without answering? The agent will be told. y removes · any other key keeps', width),
      ),
    );
  }
  for (const message of view.messages.slice(-2)) {
    lines.push(...wrap(message.text, width).map(message.ok ? green : yellow));
  }
  const ready = page ? readyCount(page.items, page.filter) : 0;
  lines.push(dim(clip(`${KEYS_LINE}${ready > 0 ? ` · S sends ${ready} ready` : ''}`, width)));
  return lines;
}

function helpLines(width: number): string[] {
  const lines = [bold('Keys'), ''];
  for (const help of KEY_HELP) lines.push(...wrap(help.what, width, `${help.keys.join(' ').padEnd(14)}`));
  lines.push(
    ...wrap('Send every ready answer of the filter shown', width, 'S'.padEnd(14)),
    ...wrap('Remove the focused question (asks first)', width, 'x'.padEnd(14)),
    ...wrap('Next filter: All / Blocking / Non-blocking', width, 'Tab'.padEnd(14)),
    ...wrap('Next project (all, then each)', width, 'p'.padEnd(14)),
    ...wrap('Scroll a long question by a page', width, 'PgUp PgDn'.padEnd(14)),
    ...wrap('In a note being typed: move within it', width, '← → Home End'.padEnd(14)),
    ...wrap('Quit (Ctrl-C too)', width, 'q'.padEnd(14)),
    '',
    dim('Any key closes this.'),
  );
  return lines;
}

/** The index of the line the focused option starts on (the last inverse line: the tabs come before the options). */
function focusLine(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]?.includes('\u001b[7m')) return i;
  return 0;
}

/**
 * A card's lines, drawn once per entry (a page read is new entries), width, open member and focused option: a long
 * context takes a while to lay out, and a screen is drawn again on every key typed into a notes field.
 */
const cards = new WeakMap<InboxItem, Map<string, string[]>>();

function cachedCard(entry: InboxItem, width: number, member: number, option: number): string[] {
  const key = `${width}:${member}:${option}`;
  const drawn = cards.get(entry) ?? new Map<string, string[]>();
  cards.set(entry, drawn);
  let lines = drawn.get(key);
  if (lines === undefined) {
    lines = cardLines(entry, width, { member, option, projectName: projectName(entry.question.project) });
    drawn.set(key, lines);
  }
  return lines;
}

/** The whole screen: exactly `view.height` lines of at most `view.width` columns (a terminal of at least 20 × 8). */
export function screenLines(page: InboxPage | undefined, view: ScreenView): string[] {
  const width = Math.max(20, view.width);
  const height = Math.max(8, view.height);
  const title = `${bold('ask-later inbox')} ${dim(`· answering as ${view.who}`)} ${view.live ? green('● live') : yellow('○ connecting')}`;
  const top = [clip(title, width), clip(filterLine(page, view), width), ''];
  if (view.help) return pad([...top, ...helpLines(width)], width, height);
  const bottom = bottomLines({ ...view, width }, page);
  if (page === undefined) return pad([...top, dim('Reading the inbox…')], width, height, bottom);
  const listRows = Math.max(1, Math.min(page.items.length, Math.floor((height - top.length - bottom.length) / 4)));
  const list = listLines(page, { ...view, width }, listRows);
  const entry = page.items[view.focus];
  const room = height - top.length - list.length - 1 - bottom.length;
  const middle: string[] = [...list];
  if (entry !== undefined && room > 0) {
    middle.push(dim('─'.repeat(width)));
    const card = cachedCard(entry, width, view.member, view.option);
    // Where the focused option shows, moved by whole pages (PgUp / PgDn) when the card is taller than the room.
    const auto = focusLine(card) - Math.floor(room / 2) + (view.scroll ?? 0) * Math.max(1, room - 2);
    const start = card.length <= room ? 0 : Math.max(0, Math.min(auto, card.length - room));
    const shown = card.slice(start, start + room);
    if (start > 0) shown[0] = dim(`… ${start} lines above (PgUp)`);
    if (start + room < card.length) shown[shown.length - 1] = dim(`… ${card.length - start - room} more lines (PgDn)`);
    middle.push(...shown);
  }
  return pad([...top, ...middle], width, height, bottom);
}

function pad(lines: readonly string[], width: number, height: number, bottom: readonly string[] = []): string[] {
  const body = lines.slice(0, Math.max(0, height - bottom.length)).map((line) => clip(line, width));
  while (body.length + bottom.length < height) body.push('');
  return [...body, ...bottom.map((line) => clip(line, width))].slice(-height);
}
