/**
 * The `ask_later` tool input: its schema (the model's only manual), its rules, and the refusal the model reads
 * when a call breaks one.
 *
 * Contract: {@link parseAskInput} accepts exactly the calls that follow every rule of BRIEF "The question" and
 * returns them normalised; anything else is refused with reasons that name the field, what was expected and what
 * came, so the model can fix its call. Limits are refused, never truncated. It never throws.
 *
 * {@link askInputSchema} carries every rule itself (no transforms, so it converts to JSON Schema for MCP), and its
 * issue messages read after the field's path; {@link parseAskInput} adds the path and normalises.
 */
import { z } from 'zod';
import {
  CONTEXT_MAX,
  EXPIRES_MAX_SECONDS,
  EXPIRES_MIN_SECONDS,
  IMPACT_MAX,
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  OPTIONS_MAX,
  OPTIONS_MIN,
  QUESTION_MAX,
  SET_MEMBERS_MAX,
  SET_MEMBERS_MIN,
  SET_TEXT_MAX,
  setTextLength,
  TICKET_MAX,
  TOPIC_MAX,
  WAIT_MAX_SECONDS,
} from './limits.js';
import { OTHER_LABEL, type QuestionOption, type QuestionSpec, type SetMember } from './question.js';

/** A parked question (one, or a set) as the tool received it, validated and normalised. */
export type AskInput = QuestionSpec & { readonly waitSeconds?: number; readonly askAgain?: boolean };

export type AskInputResult = { ok: true; value: AskInput } | { ok: false; reasons: string[] };

/** The most characters of a value a refusal echoes back. */
const ECHO_MAX = 40;

/** The most reasons one refusal lists; a call that breaks more gets the first ones and a count. */
const REASONS_MAX = 20;

/** The call's fields, in the schema's order: read from the schema itself, so no list here can fall behind it. */
function fields(): readonly string[] {
  return Object.keys(askInputSchema.shape);
}

/** What one question needs (the set's members need them each, in `questions`). */
const REQUIRED_FIELDS = ['context', 'question', 'impact', 'isBlocking', 'options'] as const;

/** The fields of one question that a set gives per member instead. */
const ITEM_FIELDS = ['question', 'options', 'isBlocking', 'recommended', 'multiSelect'] as const;

/** A member of `questions`: its fields, read from its schema. */
function memberFields(): readonly string[] {
  return Object.keys(memberSchema.shape);
}
const MEMBER_REQUIRED = ['topic', 'question', 'options', 'isBlocking'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Describing what came, safely: refusals never echo more than ECHO_MAX characters and never throw.

function quote(text: string): string {
  if (text.length <= ECHO_MAX) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, ECHO_MAX)}…`)} (${text.length} characters)`;
}

function describeValue(value: unknown): string {
  try {
    if (value === null) return 'null';
    if (Array.isArray(value)) return `a list of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
    switch (typeof value) {
      case 'undefined':
        return 'nothing';
      case 'string':
        return `one text, ${quote(value)}`;
      case 'number':
        return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint':
        return 'a bigint';
      case 'boolean':
        return String(value);
      case 'object':
        return 'an object';
      default:
        return `a ${typeof value}`;
    }
  } catch {
    return 'a value that could not be read';
  }
}

function lengthOf(value: unknown): string {
  return typeof value === 'string' || Array.isArray(value) ? String(value.length) : describeValue(value);
}

function listFields(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// Text rules. Positions are 1-based indexes into the string as sent.

const LINE_BREAKS = new Set(['\n', '\r', '\u0085', '\u2028', '\u2029']);

function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

function codePointName(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code === 0x09 ? `a tab (${hex})` : `the control character ${hex}`;
}

/** The first reason a one-line text breaks its rules, or undefined. */
function oneLineProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    const code = text.charCodeAt(i);
    if (LINE_BREAKS.has(char)) return `must be one line: it contains a line break at character ${i + 1}`;
    if (isControl(code))
      return `must be one line of plain text: it contains ${codePointName(code)} at character ${i + 1}`;
    const surrogate = surrogateProblem(text, i);
    if (surrogate === 'pair') i++;
    else if (surrogate !== undefined) return surrogate;
  }
  return undefined;
}

/** The first reason a Markdown text breaks its rules, or undefined. `\r\n` is a line break (normalised later). */
function markdownProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x09) continue;
    if (code === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) continue;
      return `must use \\n for line breaks: it contains a carriage return (U+000D) without a line feed at character ${i + 1}`;
    }
    if (isControl(code)) {
      return `must not contain control characters other than tab and line break: it contains ${codePointName(code)} at character ${i + 1}`;
    }
    const surrogate = surrogateProblem(text, i);
    if (surrogate === 'pair') i++;
    else if (surrogate !== undefined) return surrogate;
  }
  return undefined;
}

/** 'pair' when a valid surrogate pair starts at `i`; a reason when a lone surrogate sits there. */
function surrogateProblem(text: string, i: number): 'pair' | string | undefined {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdfff) return undefined;
  const next = text.charCodeAt(i + 1);
  if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return 'pair';
  return `must be well-formed Unicode: it contains an unpaired surrogate U+${code.toString(16).toUpperCase()} at character ${i + 1}`;
}

const isOther = (label: string): boolean => label.trim().toLowerCase() === OTHER_LABEL.toLowerCase();

// ---------------------------------------------------------------------------------------------------------------
// Field schemas. Messages are written to follow the field's path ("`question` must be one line: …").

function typeError(expected: string, required: boolean): (issue: { input?: unknown }) => string {
  return (issue) =>
    required && issue.input === undefined
      ? `is required: ${expected}`
      : `must be ${expected}, got ${describeValue(issue.input)}`;
}

function tooLong(max: number): (issue: { input?: unknown }) => string {
  return (issue) => `must be at most ${max} characters, got ${lengthOf(issue.input)}`;
}

/** A one-line text; `required` texts must say something, optional ones may be empty (and are then dropped). */
function oneLineText(max: number, required: boolean, forbidOther = false) {
  const base = z.string({ error: typeError(`a one-line string of at most ${max} characters`, required) });
  return (required ? base.min(1, { error: 'must not be empty' }) : base)
    .max(max, { error: tooLong(max) })
    .superRefine((text, ctx) => {
      const problem = oneLineProblem(text);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      else if (required && text.length > 0 && text.trim() === '')
        ctx.addIssue({ code: 'custom', message: 'must not be only whitespace' });
      if (forbidOther && isOther(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `must not be ${JSON.stringify(OTHER_LABEL)}: every question already offers ${OTHER_LABEL} (with notes) to the person, so leave it out`,
        });
      }
    });
}

function markdownText(max: number) {
  return z
    .string({ error: typeError(`a non-empty Markdown string of at most ${max} characters`, true) })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: tooLong(max) })
    .superRefine((text, ctx) => {
      const problem = markdownProblem(text);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      else if (text.length > 0 && text.trim() === '')
        ctx.addIssue({ code: 'custom', message: 'must not be only whitespace' });
    });
}

function integerIn(min: number, max: number, required: boolean) {
  const error = typeError(`an integer from ${min} to ${max}`, required);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

const optionLabelSchema = oneLineText(OPTION_LABEL_MAX, true, true);

const OPTION_SHAPE = 'a one-line string or an object {label, value?, description?}';

const optionObjectSchema = z.strictObject(
  {
    label: optionLabelSchema.describe(
      `What the person picks and sees: one line, at most ${OPTION_LABEL_MAX} characters.`,
    ),
    value: oneLineText(OPTION_VALUE_MAX, true)
      .optional()
      .describe(
        `Optional: a stable value for this option that you get back beside the label (such as "pg"): one line, at ` +
          `most ${OPTION_VALUE_MAX} characters; default the label. Values must differ.`,
      ),
    description: oneLineText(OPTION_DESCRIPTION_MAX, false)
      .optional()
      .describe(
        `Optional: one line under the label saying what this answer means or leads to, at most ${OPTION_DESCRIPTION_MAX} characters.`,
      ),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has ${keyList(issue.keys, () => undefined)}: an option is a string or {label, value, description}`
        : `must be ${OPTION_SHAPE}, got ${describeValue(issue.input)}`,
  },
);

const optionSchema = z.union(
  [
    optionLabelSchema.describe(`The option's label: one line, at most ${OPTION_LABEL_MAX} characters.`),
    optionObjectSchema,
  ],
  { error: (issue) => `must be ${OPTION_SHAPE}, got ${describeValue(issue.input)}` },
);

/** Labels as the person will see them, from whatever options parsed as far as labels go. */
function labelsOf(options: unknown): { label: string; index: number }[] {
  if (!Array.isArray(options)) return [];
  const labels: { label: string; index: number }[] = [];
  options.forEach((option: unknown, index) => {
    const label =
      typeof option === 'string'
        ? option
        : typeof option === 'object' && option !== null && 'label' in option
          ? (option as { label: unknown }).label
          : undefined;
    if (typeof label === 'string' && label.length <= OPTION_LABEL_MAX) labels.push({ label: label.trim(), index });
  });
  return labels;
}

function duplicateLabelProblem(options: unknown): string | undefined {
  const seen = new Map<string, number>();
  for (const { label, index } of labelsOf(options)) {
    const key = label.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined && label !== '') {
      return `must have different labels (ignoring case): \`options[${index}]\` repeats ${quote(label)} from \`options[${first}]\``;
    }
    seen.set(key, index);
  }
  return undefined;
}

/** Values as a program will get them (the label where none is given), from whatever options parsed that far. */
function valuesOf(options: unknown): { value: string; index: number }[] {
  if (!Array.isArray(options)) return [];
  const values: { value: string; index: number }[] = [];
  options.forEach((option: unknown, index) => {
    const raw =
      typeof option === 'string'
        ? option
        : typeof option === 'object' && option !== null
          ? ((option as { value?: unknown }).value ?? (option as { label?: unknown }).label)
          : undefined;
    if (typeof raw === 'string' && raw.length <= Math.max(OPTION_VALUE_MAX, OPTION_LABEL_MAX)) {
      values.push({ value: raw.trim(), index });
    }
  });
  return values;
}

function duplicateValueProblem(options: unknown): string | undefined {
  const seen = new Map<string, number>();
  for (const { value, index } of valuesOf(options)) {
    const first = seen.get(value);
    if (first !== undefined && value !== '') {
      return `must have different values (a value defaults to the label): \`options[${index}]\` repeats ${quote(value)} from \`options[${first}]\``;
    }
    seen.set(value, index);
  }
  return undefined;
}

function optionsProblem(options: unknown): string | undefined {
  return duplicateLabelProblem(options) ?? duplicateValueProblem(options);
}

/** `recommended` of one question (the call itself, or a member of `questions`). */
function recommendedProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { recommended, options, multiSelect } = input as {
    recommended?: unknown;
    options?: unknown;
    multiSelect?: unknown;
  };
  const picks: unknown[] =
    typeof recommended === 'string' ? [recommended] : Array.isArray(recommended) ? recommended : [];
  if (!picks.every((pick) => typeof pick === 'string')) return undefined;
  if (picks.length > 1 && multiSelect !== true) {
    return `must be one label unless \`multiSelect\` is true (the person can pick only one), got ${picks.length}`;
  }
  const labels = labelsOf(options).map(({ label }) => label);
  if (labels.length === 0) return undefined;
  const seen = new Set<string>();
  for (const pick of picks as string[]) {
    const wanted = pick.trim();
    if (seen.has(wanted)) return `must name each label once, got ${quote(wanted)} more than once`;
    seen.add(wanted);
    if (labels.includes(wanted)) continue;
    const near = labels.find((label) => label.toLowerCase() === wanted.toLowerCase());
    const hint = near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`;
    return `must be copied exactly from one of the options' labels: ${labels.map((label) => JSON.stringify(label)).join(', ')}; got ${quote(pick)}${hint}`;
  }
  return undefined;
}

/** The closest known field to a misspelt one, when it is close enough to be a typo. */
function suggestField(key: string, fields: readonly string[]): string | undefined {
  if (key.length > ECHO_MAX) return undefined;
  let best: { field: string; distance: number } | undefined;
  for (const field of fields) {
    const distance = editDistance(key.toLowerCase(), field.toLowerCase());
    if (distance <= Math.max(2, Math.floor(field.length / 3)) && (best === undefined || distance < best.distance)) {
      best = { field, distance };
    }
  }
  return best?.field;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** "unknown field `isBlocked` (did you mean `isBlocking`?)", naming at most 5 keys. */
function keyList(keys: readonly string[], suggest: (key: string) => string | undefined): string {
  const shown = keys.slice(0, 5).map((key) => {
    const name = /^[\w$-]{1,40}$/.test(key) ? `\`${key}\`` : quote(key);
    const suggestion = suggest(key);
    return suggestion === undefined ? name : `${name} (did you mean \`${suggestion}\`?)`;
  });
  const more = keys.length > shown.length ? ` and ${keys.length - shown.length} more` : '';
  return `unknown ${keys.length === 1 ? 'field' : 'fields'} ${shown.join(', ')}${more}`;
}

function unknownFieldsMessage(keys: readonly string[]): string {
  const named = new Set<string>(['context', 'impact', 'questions', ...ITEM_FIELDS]);
  const optional = fields().filter((field) => !named.has(field));
  return (
    `contain ${keyList(keys, (key) => suggestField(key, fields()))}. The fields are ${listFields(['context', 'impact'])} ` +
    `(required), then for one question ${listFields(['question', 'options', 'isBlocking'])} (required) and ` +
    `${listFields(['recommended', 'multiSelect'])}, or for a set \`questions\`; and optionally ${listFields(optional)}`
  );
}

function unknownMemberFieldsMessage(keys: readonly string[]): string {
  const optional = memberFields().filter((field) => !(MEMBER_REQUIRED as readonly string[]).includes(field));
  return `has ${keyList(keys, (key) => suggestField(key, memberFields()))}: a question of a set has ${listFields(MEMBER_REQUIRED)} (required) and ${listFields(optional)} (optional)`;
}

// ---------------------------------------------------------------------------------------------------------------
// What one question is made of: the call itself, or each member of a set.

const questionSchema = oneLineText(QUESTION_MAX, true).describe(
  `The question itself: one line (no line breaks, tabs or control characters), at most ${QUESTION_MAX} ` +
    'characters. Ask one thing, answerable by picking an option.',
);

const isBlockingSchema = z
  .boolean({ error: typeError('a JSON boolean (true or false, not a string)', true) })
  .describe(
    'true: part of your work cannot go on without the answer (do not go ahead on what depends on it; carry on ' +
      'with the rest). false: you carry on and the answer comes in a later prompt.',
  );

const OPTIONS_DESCRIPTION =
  `${OPTIONS_MIN} to ${OPTIONS_MAX} suggested answers. Each is a one-line label (a string of at most ` +
  `${OPTION_LABEL_MAX} characters) or {label, value, description}: an optional stable \`value\` you get back ` +
  `(default the label; at most ${OPTION_VALUE_MAX} characters) and an optional one-line description of at most ` +
  `${OPTION_DESCRIPTION_MAX} characters. Labels must differ (ignoring case), and values too. Do not add ` +
  `"${OTHER_LABEL}": the person can always pick ${OTHER_LABEL} and write notes.`;

/** What `options` must be, as refusals say it. */
const OPTIONS_EXPECTED = `a list of texts (${OPTIONS_MIN} to ${OPTIONS_MAX}, each an option's label or {label, value, description})`;

const optionsSchema = z
  .array(optionSchema, { error: typeError(OPTIONS_EXPECTED, true) })
  .min(OPTIONS_MIN, {
    error: (issue) => `must have ${OPTIONS_MIN} to ${OPTIONS_MAX} entries, got ${lengthOf(issue.input)}`,
  })
  .max(OPTIONS_MAX, {
    error: (issue) => `must have ${OPTIONS_MIN} to ${OPTIONS_MAX} entries, got ${lengthOf(issue.input)}`,
  })
  .check(
    z.refine((options: unknown) => optionsProblem(options) === undefined, {
      when: () => true,
      error: (issue) => optionsProblem(issue.input) ?? 'must have different labels and values',
    }),
  );

const RECOMMENDED_EXPECTED = "a string copied from one of the options' labels (with multiSelect, a list of them)";

const recommendedSchema = z.union(
  [
    z.string(),
    z
      .array(z.string({ error: typeError("a string copied from one of the options' labels", true) }))
      .min(1, { error: 'must name at least one label when it is a list' }),
  ],
  { error: typeError(RECOMMENDED_EXPECTED, false) },
);

const RECOMMENDED_DESCRIPTION =
  'The label of the option you recommend, copied exactly from `options` (with `multiSelect`, a list of labels). ' +
  'It is starred and preselected, so the person can send it with one click.';

const multiSelectSchema = z.boolean({ error: typeError('a JSON boolean (true or false, not a string)', false) });

const MULTI_SELECT_DESCRIPTION =
  'Default false. true lets the person pick several options (and write notes per option).';

const memberSchema = z
  .strictObject(
    {
      topic: oneLineText(TOPIC_MAX, true).describe(
        `Required. A short name for this question ("Database", "Cache"), shown as its heading and tab: one line, at most ${TOPIC_MAX} characters. Topics must differ.`,
      ),
      question: questionSchema.describe(`Required. ${questionSchema.description ?? ''}`),
      options: optionsSchema.describe(`Required. ${OPTIONS_DESCRIPTION}`),
      isBlocking: isBlockingSchema.describe(`Required boolean. ${isBlockingSchema.description ?? ''}`),
      recommended: recommendedSchema.optional().describe(`Optional. ${RECOMMENDED_DESCRIPTION}`),
      multiSelect: multiSelectSchema.optional().describe(`Optional. ${MULTI_SELECT_DESCRIPTION}`),
      context: markdownText(MEMBER_CONTEXT_MAX)
        .optional()
        .describe(
          `Optional Markdown this question adds to the set's context, at most ${MEMBER_CONTEXT_MAX} characters.`,
        ),
      impact: markdownText(MEMBER_IMPACT_MAX)
        .optional()
        .describe(`Optional Markdown this question adds to the set's impact, at most ${MEMBER_IMPACT_MAX} characters.`),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownMemberFieldsMessage(issue.keys)
          : `must be an object with the fields ${listFields(MEMBER_REQUIRED)} (and optionally more), got ${describeValue(issue.input)}`,
    },
  )
  .check(
    z.refine((input: unknown) => recommendedProblem(input) === undefined, {
      when: () => true,
      path: ['recommended'],
      error: (issue) => recommendedProblem(issue.input) ?? "must be one of the options' labels",
    }),
  );

/** Two members of a set with the same topic (ignoring case and spaces). */
function duplicateTopicProblem(members: unknown): string | undefined {
  if (!Array.isArray(members)) return undefined;
  const seen = new Map<string, number>();
  for (const [index, member] of members.entries()) {
    const topic = typeof member === 'object' && member !== null ? (member as { topic?: unknown }).topic : undefined;
    if (typeof topic !== 'string' || topic.trim() === '' || topic.length > TOPIC_MAX) continue;
    const key = topic.trim().toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      return `must have different topics (ignoring case): \`questions[${index}].topic\` repeats ${quote(topic.trim())} from \`questions[${first}].topic\``;
    }
    seen.set(key, index);
  }
  return undefined;
}

/** The set's texts together over {@link SET_TEXT_MAX}, measured on whatever parsed as strings. */
function setSizeProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { context, impact, ticket, questions } = input as Record<string, unknown>;
  if (!Array.isArray(questions)) return undefined;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const field = (object: unknown, key: string): unknown =>
    typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined;
  const length = setTextLength({
    context: text(context),
    impact: text(impact),
    ticket: text(ticket),
    members: questions.map((member: unknown) => {
      const options = field(member, 'options');
      return {
        topic: text(field(member, 'topic')),
        question: text(field(member, 'question')),
        context: text(field(member, 'context')),
        impact: text(field(member, 'impact')),
        options: (Array.isArray(options) ? options : []).map((option: unknown) => ({
          label: typeof option === 'string' ? option : text(field(option, 'label')),
          description: text(field(option, 'description')),
        })),
      };
    }),
  });
  if (length <= SET_TEXT_MAX) return undefined;
  return (
    `must fit in one chat message: the set's texts (context, impact, ticket, and each question's topic, question, ` +
    `options and added context and impact) come to ${length} characters, at most ${SET_TEXT_MAX}. Shorten them by ` +
    `${length - SET_TEXT_MAX}, or park fewer questions in the set`
  );
}

const questionsSchema = z
  .array(memberSchema, {
    error: typeError(`a list of ${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX} questions`, false),
  })
  .min(SET_MEMBERS_MIN, {
    error: (issue) =>
      `must have ${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX} questions, got ${lengthOf(issue.input)} (park one question with \`question\` and \`options\` instead)`,
  })
  .max(SET_MEMBERS_MAX, {
    error: (issue) =>
      `must have ${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX} questions, got ${lengthOf(issue.input)}: a set is one chat message, and Discord fits one picker per question and a row of buttons in it. Park the rest as another set`,
  })
  .check(
    z.refine((members: unknown) => duplicateTopicProblem(members) === undefined, {
      when: () => true,
      error: (issue) => duplicateTopicProblem(issue.input) ?? 'must have different topics',
    }),
  );

const ITEM_EXPECTED: Readonly<Record<(typeof ITEM_FIELDS)[number], string>> = {
  question: `a one-line string of at most ${QUESTION_MAX} characters`,
  options: OPTIONS_EXPECTED,
  isBlocking: 'a JSON boolean (true or false, not a string)',
  recommended: RECOMMENDED_EXPECTED,
  multiSelect: 'a JSON boolean',
};

/** One question's fields in a call: a set takes them per member instead, a single question needs three of them. */
function shapeProblem(input: unknown, field: (typeof ITEM_FIELDS)[number]): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const object = input as Record<string, unknown>;
  if (object.questions !== undefined) {
    return object[field] === undefined
      ? undefined
      : `must not be given with \`questions\`: in a set each question has its own (\`questions[0].${field}\`, …)`;
  }
  if (object[field] !== undefined || !(REQUIRED_FIELDS as readonly string[]).includes(field)) return undefined;
  return `is required: ${ITEM_EXPECTED[field]}`;
}

/**
 * The `ask_later` input schema, for the MCP SDK and for {@link parseAskInput}. Every rule is in it; its
 * descriptions are what the model reads about each field. One question's own fields are optional in the schema
 * (a set gives them per member, in `questions`); its checks require them when `questions` is absent.
 */
export const askInputSchema = z
  .strictObject(
    {
      context: markdownText(CONTEXT_MAX).describe(
        `Required. The situation the question comes from, in Markdown (may span lines): what you are working on, ` +
          `what you found, what the choice is between. The person reads it in Slack or Discord without your ` +
          `session, so make it self-contained. Non-empty, at most ${CONTEXT_MAX} characters. A set shares it.`,
      ),
      question: questionSchema
        .optional()
        .describe(`Required for one question (a set has \`questions\` instead). ${questionSchema.description ?? ''}`),
      impact: markdownText(IMPACT_MAX).describe(
        `Required. What changes depending on the answer, in Markdown (may span lines): what you will do for each ` +
          `option and what waits meanwhile. Non-empty, at most ${IMPACT_MAX} characters. A set shares it.`,
      ),
      isBlocking: isBlockingSchema
        .optional()
        .describe(
          `Required boolean for one question (in a set, each has its own). ${isBlockingSchema.description ?? ''}`,
        ),
      options: optionsSchema.optional().describe(`Required for one question. ${OPTIONS_DESCRIPTION}`),
      recommended: recommendedSchema.optional().describe(`Optional. ${RECOMMENDED_DESCRIPTION}`),
      multiSelect: multiSelectSchema.optional().describe(`Optional. ${MULTI_SELECT_DESCRIPTION}`),
      questions: questionsSchema
        .optional()
        .describe(
          `Instead of \`question\`, \`options\`, \`isBlocking\`, \`recommended\` and \`multiSelect\`: a set of ` +
            `${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX} related questions that the person answers together and sends ` +
            'as one after a review. Each has a short `topic`, its own `question`, `options` and `isBlocking`, ' +
            "optional `recommended` and `multiSelect`, and optional `context` and `impact` it adds to the set's. " +
            'The set gets one id (#12; its questions are #12.1, #12.2, …) and its answers arrive together. All ' +
            `the set's texts together: at most ${SET_TEXT_MAX} characters.`,
        ),
      ticket: oneLineText(TICKET_MAX, false)
        .optional()
        .describe(
          `Optional. A one-line reference shown with the question, such as "#3528" or "PROJ-12"; at most ` +
            `${TICKET_MAX} characters. No tracker is read.`,
        ),
      expiresInSeconds: integerIn(EXPIRES_MIN_SECONDS, EXPIRES_MAX_SECONDS, false)
        .optional()
        .describe(
          `Optional. Seconds after which the question, if still unanswered, expires (you are told once that it ` +
            `expired). An integer from ${EXPIRES_MIN_SECONDS} to ${EXPIRES_MAX_SECONDS} (30 days). Leave it out to ` +
            'keep the question until it is answered.',
        ),
      askAgain: z
        .boolean()
        .optional()
        .describe(
          'Optional. Before parking, ask_later looks for the same question still waiting in this project, and for ' +
            'decisions like this one that the person already took, and returns those instead of parking. true parks ' +
            'it anyway: set it only after such a ' +
            'result, when the situation changed, and say in `context` what changed; the person then sees the ' +
            'earlier decision beside it.',
        ),
      waitSeconds: integerIn(0, WAIT_MAX_SECONDS, false)
        .optional()
        .describe(
          `Optional. Hold this call up to this many seconds and return the answer the moment it lands; an integer ` +
            `from 0 to ${WAIT_MAX_SECONDS}. Leave it out (or 0) to get the question's id back at once; the answer ` +
            'then comes with a later prompt.',
        ),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownFieldsMessage(issue.keys)
          : `must be an object with the fields ${listFields(REQUIRED_FIELDS)} (and optionally more), got ${describeValue(issue.input)}`,
    },
  )
  .check(
    ...ITEM_FIELDS.map((field) =>
      z.refine((input: unknown) => shapeProblem(input, field) === undefined, {
        when: () => true,
        path: [field],
        error: (issue) => shapeProblem(issue.input, field) ?? 'is misplaced',
      }),
    ),
    z.refine((input: unknown) => isSetCall(input) || recommendedProblem(input) === undefined, {
      when: () => true,
      path: ['recommended'],
      error: (issue) => recommendedProblem(issue.input) ?? "must be one of the options' labels",
    }),
    z.refine((input: unknown) => setSizeProblem(input) === undefined, {
      when: () => true,
      path: ['questions'],
      error: (issue) => setSizeProblem(issue.input) ?? 'must fit in one chat message',
    }),
  );

function isSetCall(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as { questions?: unknown }).questions !== undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Issues → reasons.

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

interface Reason {
  readonly path: readonly PropertyKey[];
  readonly text: string;
}

function reasonsFrom(issues: readonly z.core.$ZodIssue[], input: unknown, prefix: readonly PropertyKey[]): Reason[] {
  const reasons: Reason[] = [];
  // A value of the wrong type is told so once: not also that it has the wrong length (a text's characters counted).
  const wrongType = new Set(
    issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.map(String).join('\u0000')),
  );
  for (const issue of issues) {
    if (
      (issue.code === 'too_small' || issue.code === 'too_big') &&
      wrongType.has(issue.path.map(String).join('\u0000'))
    )
      continue;
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      // Report the branch the value was meant for: the one it has the right type for.
      const branch = issue.errors.find(
        (errors) => !errors.some((e) => e.path.length === 0 && e.code === 'invalid_type'),
      );
      if (branch !== undefined) {
        reasons.push(...reasonsFrom(branch, input, path));
        continue;
      }
    }
    const subject = path.length === 0 ? 'The arguments' : `\`${formatPath(path)}\``;
    reasons.push({ path, text: `${subject} ${issue.message}` });
  }
  return reasons;
}

/** Root problems first, then fields in schema order, each field's own problem before its entries'. */
function order(reason: Reason): [number, number] {
  const [field] = reason.path;
  const rank = field === undefined ? -1 : (fields() as readonly PropertyKey[]).indexOf(field);
  return [rank, reason.path.length];
}

function normaliseMarkdown(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}

type RawOption = string | { label: string; value?: string | undefined; description?: string | undefined };

/** `{label}` from a string; a value equal to the label is dropped (the label is the value by default). */
function normaliseOption(option: RawOption): QuestionOption {
  if (typeof option === 'string') return { label: option.trim() };
  const label = option.label.trim();
  const value = option.value?.trim();
  const description = option.description?.trim();
  return {
    label,
    ...(value !== undefined && value !== label ? { value } : {}),
    ...(description ? { description } : {}),
  };
}

/** The recommended labels, trimmed, in the options' order. */
function normaliseRecommended(
  recommended: string | readonly string[] | undefined,
  options: readonly QuestionOption[],
): { recommended?: readonly string[] } {
  if (recommended === undefined) return {};
  const wanted = new Set([recommended].flat().map((label) => label.trim()));
  return { recommended: options.map((option) => option.label).filter((label) => wanted.has(label)) };
}

interface RawItem {
  readonly question: string;
  readonly options: readonly RawOption[];
  readonly isBlocking: boolean;
  readonly recommended?: string | readonly string[] | undefined;
  readonly multiSelect?: boolean | undefined;
}

function normaliseItem(item: RawItem) {
  const options = item.options.map(normaliseOption);
  return {
    question: item.question.trim(),
    options,
    ...normaliseRecommended(item.recommended, options),
    multiSelect: item.multiSelect ?? false,
    isBlocking: item.isBlocking,
  };
}

function normaliseMember(
  member: RawItem & { topic: string; context?: string | undefined; impact?: string | undefined },
): SetMember {
  const context = member.context === undefined ? '' : normaliseMarkdown(member.context);
  const impact = member.impact === undefined ? '' : normaliseMarkdown(member.impact);
  return {
    topic: member.topic.trim(),
    ...normaliseItem(member),
    ...(context === '' ? {} : { context }),
    ...(impact === '' ? {} : { impact }),
  };
}

/**
 * Validate and normalise one `ask_later` call's arguments. Never throws, whatever `raw` is.
 *
 * Normalised: texts trimmed (Markdown keeps its inner layout, `\r\n` becomes `\n`), string options become
 * `{label}`, a value equal to its label is dropped, `recommended` becomes a list in the options' order,
 * `multiSelect` defaults to false, empty optional texts (`ticket`, descriptions) are dropped. A set becomes
 * `members`, and is blocking when any member is.
 */
export function parseAskInput(raw: unknown): AskInputResult {
  try {
    const result = askInputSchema.safeParse(raw);
    if (!result.success) {
      const sorted = reasonsFrom(result.error.issues, raw, [])
        .map((reason, index) => ({ reason, index, key: order(reason) }))
        .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index);
      const reasons = [...new Set(sorted.map(({ reason }) => reason.text))];
      if (reasons.length > REASONS_MAX) {
        const more = reasons.length - REASONS_MAX;
        return { ok: false, reasons: [...reasons.slice(0, REASONS_MAX), `…and ${more} more problems`] };
      }
      return { ok: false, reasons: reasons.length > 0 ? reasons : ['The arguments break the input schema'] };
    }
    const input = result.data;
    const ticket = input.ticket?.trim();
    const common = {
      context: normaliseMarkdown(input.context),
      impact: normaliseMarkdown(input.impact),
      ...(ticket ? { ticket } : {}),
      ...(input.expiresInSeconds === undefined ? {} : { expiresInSeconds: input.expiresInSeconds }),
      ...(input.waitSeconds === undefined ? {} : { waitSeconds: input.waitSeconds }),
      ...(input.askAgain === undefined ? {} : { askAgain: input.askAgain }),
    };
    if (input.questions !== undefined) {
      const members = input.questions.map(normaliseMember);
      return { ok: true, value: { ...common, isBlocking: members.some((member) => member.isBlocking), members } };
    }
    // The schema's checks made these present when `questions` is absent.
    const { question, options, isBlocking } = input;
    if (question === undefined || options === undefined || isBlocking === undefined) {
      return { ok: false, reasons: ['The arguments break the input schema'] };
    }
    const item = normaliseItem({
      question,
      options,
      isBlocking,
      recommended: input.recommended,
      multiSelect: input.multiSelect,
    });
    return { ok: true, value: { ...common, ...item } };
  } catch {
    // A getter or proxy that throws while being read: still a refusal, never an exception.
    return { ok: false, reasons: ['The arguments could not be read: send plain JSON data'] };
  }
}

/** The one text the model reads when its call is refused. */
export function formatRefusal(reasons: readonly string[]): string {
  const lines = reasons.length > 0 ? reasons : ['The arguments break the input schema'];
  return `ask_later refused the question; nothing was stored. Fix these and call again:\n${lines.map((reason) => `- ${reason}`).join('\n')}`;
}
