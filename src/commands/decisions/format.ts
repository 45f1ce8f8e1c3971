/**
 * The decision trail as text: a Markdown decision log a team can commit, JSON for tools, CSV for spreadsheets.
 * Pure: decisions in (from `listDecisions`), a string out.
 *
 * Whose words are whose: the question, its context, impact and options are the agent's; the answer and the notes are
 * the person's. Text from either side cannot break the log's structure: one-line fields lose their line breaks and
 * have Markdown's inline marks escaped; Context and Impact are kept as written (their headings nested below the
 * section's), unless they would leave a code fence or an HTML block open over the rest of the log, in which case
 * they are block-quoted (a quote closes whatever it holds); every line of the notes is block-quoted. CSV fields
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return get a leading `'`, so a spreadsheet shows them as
 * text instead of running them as a formula.
 */
import MarkdownIt from 'markdown-it';
import { describeSelection } from '../../core/answer.js';
import {
  type DeliveryPath,
  itemsOf,
  memberRef,
  OTHER_LABEL,
  optionValue,
  type Platform,
  placeOf,
  platformName,
  type QuestionItem,
  type Selection,
  type SetMember,
  selectionsOf,
} from '../../core/question.js';
import { oneLine as flatten } from '../../core/text.js';
import type { Decision } from '../../store/decision-query.js';

/** The formats `ask-later decisions --format` prints. */
export const DECISION_FORMATS = ['md', 'json', 'csv'] as const;
export type DecisionFormat = (typeof DECISION_FORMATS)[number];

/** What the listing was narrowed to, for the Markdown log's opening line. */
export interface DecisionScope {
  /** The project pattern given. */
  readonly project?: string;
  /** Only answers given at or after this time (ms since the epoch). */
  readonly since?: number;
}

/**
 * One decision as plain data: the shape of the JSON output and of the CSV's columns. Field names are a contract
 * (scripts read them): add fields, never rename or drop one. Absent values are `null`, times ISO 8601 in UTC. A set
 * of questions answered together is one record per member (same `id`, `ref` `#12.1`, `#12.2`, …, with its `topic`),
 * sharing the set's context, impact, who and when.
 */
export interface DecisionRecord {
  readonly project: string;
  readonly id: number;
  readonly ticket: string | null;
  readonly question: string;
  /** Markdown, as the agent wrote it. */
  readonly context: string;
  /** Markdown, as the agent wrote it. */
  readonly impact: string;
  readonly blocking: boolean;
  readonly multiSelect: boolean;
  readonly options: readonly {
    readonly label: string;
    readonly description: string | null;
    readonly recommended: boolean;
    readonly chosen: boolean;
    /** The option's value (its label when the agent gave none). */
    readonly value: string;
  }[];
  readonly answer: {
    /** The picks as one line: the chosen labels in the options' order, then `Other`, joined with ", ". */
    readonly text: string;
    readonly choices: readonly string[];
    /** Whether the person answered `Other` (their notes then say what the answer is). */
    readonly other: boolean;
    readonly notes: string | null;
    /** The chosen options' values, in the same order as `choices`. */
    readonly values: readonly string[];
    /** The person's notes on single picked options (multi-select), in the options' order. */
    readonly optionNotes: readonly { readonly choice: string; readonly notes: string }[];
  };
  readonly answeredBy: { readonly displayName: string; readonly userId: string; readonly platform: Platform };
  /** Every copy of the question that was posted (the web inbox's channel is `local`). */
  readonly postedTo: readonly { readonly platform: Platform; readonly channel: string; readonly messageId: string }[];
  readonly askedAt: string;
  readonly answeredAt: string;
  /** When the answer reached the agent; null while it has not yet. */
  readonly deliveredAt: string | null;
  /** How it reached the agent; null before delivery and for answers delivered before this was kept. */
  readonly deliveredVia: DeliveryPath | null;
  readonly status: 'answered' | 'delivered';
  /** `#12`, or `#12.1` for the first question of the set #12. */
  readonly ref: string;
  /** The member's topic when the question was one of a set; null otherwise. */
  readonly topic: string | null;
}

/** The decisions in `format`, ending with a line break. */
export function formatDecisions(
  decisions: readonly Decision[],
  format: DecisionFormat,
  scope: DecisionScope = {},
): string {
  switch (format) {
    case 'md':
      return decisionsMarkdown(decisions, scope);
    case 'json':
      return decisionsJson(decisions);
    case 'csv':
      return decisionsCsv(decisions);
  }
}

/** A decision as plain data: one record, or one per member of a set (see {@link DecisionRecord}). */
export function decisionRecords(decision: Decision): DecisionRecord[] {
  const { answer } = decision;
  const selections = selectionsOf(answer);
  return itemsOf(decision).map((item, index) => {
    const selection = selections[index] ?? { choices: [], other: false };
    const member: SetMember | undefined = decision.members?.[index];
    return {
      project: decision.project,
      id: decision.id,
      ticket: decision.ticket ?? null,
      question: item.question,
      context: joinMarkdown(decision.context, member?.context),
      impact: joinMarkdown(decision.impact, member?.impact),
      blocking: item.isBlocking,
      multiSelect: item.multiSelect,
      options: item.options.map((option) => ({
        label: option.label,
        description: option.description ?? null,
        recommended: (item.recommended ?? []).includes(option.label),
        chosen: selection.choices.includes(option.label),
        value: optionValue(option),
      })),
      answer: {
        text: describeSelection(item, selection),
        choices: [...selection.choices],
        other: selection.other,
        notes: selection.notes ?? null,
        values: valuesOf(item, selection),
        optionNotes: (selection.choiceNotes ?? []).map(({ choice, notes }) => ({ choice, notes })),
      },
      answeredBy: { displayName: answer.by.displayName, userId: answer.by.userId, platform: answer.by.platform },
      postedTo: decision.messages.map((ref) => ({
        platform: ref.platform,
        channel: ref.channel,
        messageId: ref.messageId,
      })),
      askedAt: iso(decision.createdAt),
      answeredAt: iso(answer.at),
      deliveredAt: decision.deliveredAt === undefined ? null : iso(decision.deliveredAt),
      deliveredVia: decision.deliveredVia ?? null,
      status: decision.status === 'delivered' ? 'delivered' : 'answered',
      ref: member === undefined ? `#${decision.id}` : memberRef(decision.id, index),
      topic: member?.topic ?? null,
    };
  });
}

/** A set's context or impact with what one member adds, a blank line between. */
function joinMarkdown(shared: string, added: string | undefined): string {
  return added === undefined ? shared : `${shared}\n\n${added}`;
}

function valuesOf(item: QuestionItem, selection: Selection): string[] {
  return selection.choices.map((choice) => {
    const option = item.options.find((candidate) => candidate.label === choice);
    return option === undefined ? choice : optionValue(option);
  });
}

/** A JSON array of {@link DecisionRecord}s, newest first as given; `[]` when there are none. */
export function decisionsJson(decisions: readonly Decision[]): string {
  return `${JSON.stringify(decisions.flatMap(decisionRecords), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV (RFC 4180)

/** The CSV's columns, in order: the header row. */
export const CSV_COLUMNS = [
  'project',
  'id',
  'ticket',
  'question',
  'context',
  'impact',
  'blocking',
  'multiSelect',
  'options',
  'recommended',
  'answer',
  'choices',
  'other',
  'notes',
  'answeredBy',
  'answeredById',
  'answeredOn',
  'postedTo',
  'askedAt',
  'answeredAt',
  'deliveredAt',
  'deliveredVia',
  'status',
  'ref',
  'topic',
  'values',
  'optionNotes',
] as const;

type CsvRow = Readonly<Record<(typeof CSV_COLUMNS)[number], string>>;

/**
 * RFC 4180: a header row, then one record per decision (per member of a set), CRLF after every record. Lists
 * (options, choices, values, copies) are one field with one item per line; notes per option one per line as
 * `label: notes` (line breaks in them kept). Columns added later come last. Empty: the header row alone.
 */
export function decisionsCsv(decisions: readonly Decision[]): string {
  const rows = decisions.flatMap(decisionRecords).map(csvRow);
  const lines = [
    CSV_COLUMNS.join(','),
    ...rows.map((row) => CSV_COLUMNS.map((column) => csvField(row[column])).join(',')),
  ];
  return lines.map((line) => `${line}\r\n`).join('');
}

function csvRow(record: DecisionRecord): CsvRow {
  return {
    project: record.project,
    id: String(record.id),
    ticket: record.ticket ?? '',
    question: record.question,
    context: record.context,
    impact: record.impact,
    blocking: String(record.blocking),
    multiSelect: String(record.multiSelect),
    options: record.options.map((option) => option.label).join('\n'),
    recommended: record.options
      .filter((option) => option.recommended)
      .map((option) => option.label)
      .join('\n'),
    answer: record.answer.text,
    choices: [...record.answer.choices, ...(record.answer.other ? [OTHER_LABEL] : [])].join('\n'),
    other: String(record.answer.other),
    notes: record.answer.notes ?? '',
    answeredBy: record.answeredBy.displayName,
    answeredById: record.answeredBy.userId,
    answeredOn: record.answeredBy.platform,
    postedTo: record.postedTo.map((ref) => `${ref.platform}:${ref.channel}`).join('\n'),
    askedAt: record.askedAt,
    answeredAt: record.answeredAt,
    deliveredAt: record.deliveredAt ?? '',
    deliveredVia: record.deliveredVia ?? '',
    status: record.status,
    ref: record.ref,
    topic: record.topic ?? '',
    values: record.answer.values.join('\n'),
    optionNotes: record.answer.optionNotes.map(({ choice, notes }) => `${choice}: ${notes}`).join('\n'),
  };
}

/** Characters that make a spreadsheet read a cell as a formula (or hide its start). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: formula guard first, then quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
export function csvField(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown

const DELIVERY_WORDS: Readonly<Record<DeliveryPath, string>> = {
  prompt: 'with a prompt the person typed',
  'tool-call': 'at a tool call while the agent worked',
  wake: 'by waking the idle session',
  'tool-result': 'as a tool result (get_answer, or ask_later waiting for it)',
};

/**
 * The decision log: a title, a line saying what it holds, then one section per decision, newest first. Nothing to
 * show: one line saying so.
 */
export function decisionsMarkdown(decisions: readonly Decision[], scope: DecisionScope = {}): string {
  const narrowed = [
    ...(scope.project === undefined ? [] : [`project ${code(scope.project)}`]),
    ...(scope.since === undefined ? [] : [`answered since ${utc(scope.since)}`]),
  ];
  if (decisions.length === 0) {
    return `No answered questions${narrowed.length === 0 ? '' : ` (${narrowed.join(', ')})`}.\n`;
  }
  const count = decisions.length === 1 ? '1 answered question' : `${decisions.length} answered questions`;
  const lines = ['# Decision log', '', [`${count}, newest answer first`, ...narrowed].join(' · ')];
  for (const decision of decisions) lines.push('', ...decisionSection(decision));
  return `${lines.join('\n')}\n`;
}

function decisionSection(decision: Decision): string[] {
  const { answer } = decision;
  const title =
    decision.members === undefined ? decision.question : `Set: ${decision.members.map((m) => m.topic).join(' · ')}`;
  const heading = [
    `#${decision.id}`,
    inline(title),
    inline(projectName(decision.project)),
    ...(decision.ticket === undefined ? [] : [ticket(decision.ticket)]),
  ].join(' · ');
  const posted = decision.messages.map((ref) =>
    ref.platform === 'web' ? platformName('web') : `${platformName(ref.platform)} ${code(ref.channel)}`,
  );
  const delivered =
    decision.deliveredAt === undefined
      ? 'not yet: the agent has not collected the answer'
      : `${utc(decision.deliveredAt)}${decision.deliveredVia === undefined ? '' : `, ${DELIVERY_WORDS[decision.deliveredVia]}`}`;
  const facts = [
    `- **Project:** ${code(decision.project)}`,
    ...(decision.ticket === undefined ? [] : [`- **Ticket:** ${ticket(decision.ticket)}`]),
    `- **Blocking:** ${decision.isBlocking ? 'yes, the agent could not go on without it' : 'no, it could wait'}`,
    `- **Asked:** ${utc(decision.createdAt)}`,
    `- **Answered:** ${utc(answer.at)} by ${inline(answer.by.displayName)} (${code(answer.by.userId)} ${placeOf(answer.by)})`,
    ...(posted.length === 0 ? [] : [`- **Posted to:** ${posted.join(', ')}`]),
    `- **Delivered:** ${delivered}`,
  ];
  const shared = [
    `## ${heading.replace(/#+$/, (hashes) => hashes.replaceAll('#', '\\#'))}`,
    '',
    ...facts,
    '',
    '### Context',
    '',
    ...nestedMarkdown(decision.context, HEADING_SHIFT),
    '',
    '### Impact',
    '',
    ...nestedMarkdown(decision.impact, HEADING_SHIFT),
  ];
  const selections = selectionsOf(answer);
  if (decision.members === undefined) {
    return [...shared, '', ...itemLines(decision, selections[0], '###')];
  }
  return [
    ...shared,
    ...decision.members.flatMap((member, index) => [
      '',
      `### ${memberRef(decision.id, index)} · ${inline(member.topic)}${member.isBlocking ? ' (blocking)' : ''}`,
      '',
      `**Question:** ${inline(member.question)}`,
      ...(member.context === undefined
        ? []
        : ['', '#### Context', '', ...nestedMarkdown(member.context, HEADING_SHIFT + 1)]),
      ...(member.impact === undefined
        ? []
        : ['', '#### Impact', '', ...nestedMarkdown(member.impact, HEADING_SHIFT + 1)]),
      '',
      ...itemLines(member, selections[index], '####'),
    ]),
  ];
}

/** An item's options (the chosen ones checked) and its answer, with notes per option nested under their option. */
function itemLines(item: QuestionItem, selection: Selection | undefined, level: string): string[] {
  const picked = selection ?? { choices: [], other: false };
  const options = item.options.map((option) => {
    const chosen = picked.choices.includes(option.label);
    const label = chosen ? `**${inline(option.label)}**` : inline(option.label);
    const description = option.description === undefined ? '' : ` — ${inline(option.description)}`;
    const recommended = (item.recommended ?? []).includes(option.label) ? ' (recommended)' : '';
    return `- [${chosen ? 'x' : ' '}] ${label}${description}${recommended}`;
  });
  options.push(`- [${picked.other ? 'x' : ' '}] ${picked.other ? `**${OTHER_LABEL}**` : OTHER_LABEL}`);
  const picks = [...picked.choices, ...(picked.other ? [OTHER_LABEL] : [])];
  const notes = normalise(picked.notes ?? '').trim();
  const optionNotes = (picked.choiceNotes ?? []).flatMap(({ choice, notes: text }) => [
    '>',
    `> - ${inline(choice)}:`,
    ...quote(nestHeadings(normalise(text).trim(), HEADING_SHIFT)).map((line) => `>   ${line}`),
  ]);
  return [
    `${level} Options${item.multiSelect ? ' (several could be picked)' : ''}`,
    '',
    ...options,
    '',
    `${level} Answer`,
    '',
    `> ${picks.map((pick) => `**${inline(pick)}**`).join(', ')}`,
    ...optionNotes,
    ...(notes === '' ? [] : ['>', ...quote(nestHeadings(notes, HEADING_SHIFT))]),
  ];
}

/** The parser that decides what a text's lines are, as GitHub would (CommonMark, tables, raw HTML honoured). */
const parser = new MarkdownIt({ html: true });

/** Headings inside a section's texts start below the section's own `###`. */
const HEADING_SHIFT = 3;

/**
 * Context or Impact as lines of the log: as written, with headings nested; block-quoted instead when the text would
 * leave a code fence or an HTML block open over what follows (a quote closes everything it holds).
 */
function nestedMarkdown(text: string, shift: number): string[] {
  const nested = nestHeadings(normalise(text).trim(), shift);
  return closesCleanly(nested) ? nested.split('\n') : quote(nested);
}

/** Whether a heading written after `text` (and a blank line) is still a heading of the document. */
function closesCleanly(text: string): boolean {
  const sentinel = 'ask-later-section-end';
  const tokens = parser.parse(`${text}\n\n# ${sentinel}`, {});
  const open = tokens.at(-3);
  return open?.type === 'heading_open' && open.level === 0 && tokens.at(-2)?.content === sentinel;
}

/** Top-level headings moved down `shift` levels (at most `######`); setext headings become ATX. */
function nestHeadings(text: string, shift: number): string {
  const lines = text.split('\n');
  const tokens = parser.parse(text, {});
  // From the last heading up, so replacing a setext heading's lines leaves earlier line numbers valid.
  for (const token of tokens.toReversed()) {
    if (token.type !== 'heading_open' || token.level !== 0 || token.map === null) continue;
    const [start, end] = token.map;
    const level = Math.min(6, Number(token.tag.slice(1)) + shift);
    const marks = '#'.repeat(level);
    if (token.markup.startsWith('#')) {
      lines[start] = (lines[start] ?? '').replace(/^( {0,3})#{1,6}/, `$1${marks}`);
    } else {
      const content = lines
        .slice(start, end - 1)
        .map((line) => line.trim())
        .join(' ');
      lines.splice(start, end - start, `${marks} ${content}`);
    }
  }
  return lines.join('\n');
}

/** Every line behind `> ` (a blank one as `>`), so nothing in it reaches the log's own structure. */
function quote(text: string): string[] {
  return text.split('\n').map((line) => (line.trim() === '' ? '>' : `> ${line}`));
}

/** Line breaks as `\n`; other control characters (but tab) as a space. */
function normalise(text: string): string {
  return text
    .replace(/\r\n?|[\v\f\u0085\u2028\u2029]/g, '\n')
    .replace(/[\p{Cc}]/gu, (char) => (char === '\n' || char === '\t' ? char : ' '));
}

/** A one-line text inside a line of the log: line breaks become spaces, Markdown's inline marks are escaped. */
function inline(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>~]/g, '\\$&');
}

function oneLine(text: string): string {
  return flatten(normalise(text));
}

/** A code span that holds any text: its fence is longer than the longest run of backticks inside. */
function code(text: string): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** A ticket: a link when it is a web address, else text. */
function ticket(value: string): string {
  const text = oneLine(value);
  return /^https?:\/\/[^\s<>]+$/i.test(text) ? `<${text}>` : inline(text);
}

/** The last segment of a project path (`/srv/repos/billing` → `billing`). */
function projectName(project: string): string {
  return project.split(/[\\/]/).findLast((segment) => segment !== '') ?? project;
}

/** `2027-01-15 08:42 UTC`: minutes are enough for a log, and UTC reads the same for the whole team. */
function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
