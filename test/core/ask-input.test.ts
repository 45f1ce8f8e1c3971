import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AskInput, askInputSchema, formatRefusal, parseAskInput } from '../../src/core/ask-input.js';
import {
  CONTEXT_MAX,
  EXPIRES_MAX_SECONDS,
  EXPIRES_MIN_SECONDS,
  IMPACT_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  SET_MEMBERS_MAX,
  SET_MEMBERS_MIN,
  SET_TEXT_MAX,
  TICKET_MAX,
  WAIT_MAX_SECONDS,
} from '../../src/core/limits.js';
import type { SingleSpec } from '../../src/core/question.js';

const VALID = {
  context:
    'Migrating the billing service off MySQL.\n\n- Postgres keeps the ORM\n- DynamoDB needs a new repository layer',
  question: 'Which database should the billing service move to?',
  impact: 'Postgres: I keep going with the ORM.\nDynamoDB: I rewrite the repository layer first.',
  isBlocking: true,
  options: ['Postgres', { label: 'DynamoDB', description: 'Serverless, pay per request' }],
} as const;

type Raw = Record<string, unknown>;

const withFields = (patch: Raw): Raw => ({ ...VALID, ...patch });

function without(field: string): Raw {
  const copy: Raw = { ...VALID };
  delete copy[field];
  return copy;
}

const text = (length: number, char = 'a'): string => char.repeat(length);
const MB = 1024 * 1024;

function cyclicObject(): Raw {
  const cyclic: Raw = { ...VALID };
  cyclic.self = cyclic;
  return cyclic;
}

function cyclicOption(): Raw {
  const option: Raw = { label: 'Loop' };
  option.self = option;
  return withFields({ options: ['Postgres', option] });
}

function refusal(raw: unknown): string[] {
  const result = parseAskInput(raw);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value).slice(0, 200)}`);
  return result.reasons;
}

/** The accepted call as a single question (not a set). */
function single(value: AskInput): Extract<AskInput, SingleSpec> {
  if (value.members !== undefined) throw new Error('expected a single question, got a set');
  return value as Extract<AskInput, SingleSpec>;
}

function accepted(raw: unknown): AskInput {
  const result = parseAskInput(raw);
  if (!result.ok) throw new Error(`expected acceptance, got:\n${result.reasons.join('\n')}`);
  return result.value;
}

// One row per rule and limit: [behaviour, input, the reason it must give].
const BAD_INPUTS: ReadonlyArray<readonly [string, unknown, RegExp]> = [
  // the arguments as a whole
  ['null', null, /^The arguments must be an object with the fields `context`.*got null$/],
  ['an array', [VALID], /^The arguments must be an object .*got a list of 1 item$/],
  ['a string', 'Which database?', /^The arguments must be an object .*got one text, "Which database\?"$/],
  ['a number', 42, /^The arguments must be an object .*got 42$/],
  ['nothing', undefined, /^The arguments must be an object .*got nothing$/],
  [
    'the typo isBlocked for isBlocking',
    withFields({ isBlocked: false }),
    /^The arguments contain unknown field `isBlocked` \(did you mean `isBlocking`\?\)\. The fields are `context`/,
  ],
  ['an unknown key', withFields({ priority: 'high' }), /^The arguments contain unknown field `priority`\. The fields/],
  ['a cyclic object with an unknown key', cyclicObject(), /unknown field `self`/],
  // context
  ['no context', without('context'), /^`context` is required: a non-empty Markdown string of at most 3000/],
  ['an empty context', withFields({ context: '' }), /^`context` must not be empty$/],
  ['a whitespace-only context', withFields({ context: ' \n\t \r\n ' }), /^`context` must not be only whitespace$/],
  [
    `a context of ${CONTEXT_MAX + 1} characters`,
    withFields({ context: text(CONTEXT_MAX + 1) }),
    /^`context` must be at most 3000 characters, got 3001$/,
  ],
  ['a 1 MB context', withFields({ context: text(MB) }), /^`context` must be at most 3000 characters, got 1048576$/],
  [
    'a NUL in context',
    withFields({ context: 'abcd\u0000' }),
    /^`context` must not contain control characters other than tab and line break: it contains the control character U\+0000 at character 5$/,
  ],
  ['a lone carriage return in context', withFields({ context: 'a\rb' }), /^`context` must use \\n .*character 2$/],
  ['DEL in context', withFields({ context: 'a\u007f' }), /^`context` .*U\+007F at character 2$/],
  ['a C1 control in context', withFields({ context: 'a\u0085b' }), /^`context` .*U\+0085 at character 2$/],
  ['a number as context', withFields({ context: 5 }), /^`context` must be a non-empty Markdown string .*got 5$/],
  // question
  ['no question', without('question'), /^`question` is required: a one-line string of at most 250 characters$/],
  ['an empty question', withFields({ question: '' }), /^`question` must not be empty$/],
  ['a whitespace-only question', withFields({ question: '   ' }), /^`question` must not be only whitespace$/],
  [
    'a line break in question',
    withFields({ question: `${text(40)}\nsecond line` }),
    /^`question` must be one line: it contains a line break at character 41$/,
  ],
  ['a carriage return in question', withFields({ question: 'a\rb' }), /^`question` must be one line: .* character 2$/],
  ['U+2028 in question', withFields({ question: 'ab\u2028c' }), /^`question` must be one line: .* character 3$/],
  ['U+2029 in question', withFields({ question: 'ab\u2029c' }), /^`question` must be one line: .* character 3$/],
  ['NEL (U+0085) in question', withFields({ question: 'a\u0085' }), /^`question` must be one line: .* character 2$/],
  [
    'a tab in question',
    withFields({ question: 'Which\tdatabase?' }),
    /^`question` must be one line of plain text: it contains a tab \(U\+0009\) at character 6$/,
  ],
  [
    'a bell in question',
    withFields({ question: '\u0007' }),
    /^`question` .*the control character U\+0007 at character 1$/,
  ],
  ['DEL in question', withFields({ question: 'a\u007f' }), /^`question` .*U\+007F at character 2$/],
  ['a C1 control in question', withFields({ question: 'a\u009b' }), /^`question` .*U\+009B at character 2$/],
  [
    'an unpaired surrogate in question',
    withFields({ question: 'ab\ud800c' }),
    /^`question` must be well-formed Unicode: it contains an unpaired surrogate U\+D800 at character 3$/,
  ],
  [
    `a question of ${QUESTION_MAX + 1} characters`,
    withFields({ question: text(QUESTION_MAX + 1) }),
    /^`question` must be at most 250 characters, got 251$/,
  ],
  ['a 1 MB question', withFields({ question: text(MB) }), /^`question` must be at most 250 characters, got 1048576$/],
  ['an array as question', withFields({ question: ['a'] }), /^`question` must be a one-line string .*got a list/],
  // impact
  ['no impact', without('impact'), /^`impact` is required: a non-empty Markdown string of at most 1000/],
  ['an empty impact', withFields({ impact: '' }), /^`impact` must not be empty$/],
  [
    `an impact of ${IMPACT_MAX + 1} characters`,
    withFields({ impact: text(IMPACT_MAX + 1) }),
    /^`impact` must be at most 1000 characters, got 1001$/,
  ],
  ['an escape character in impact', withFields({ impact: 'red \u001b[31m' }), /^`impact` .*U\+001B at character 5$/],
  ['an object as impact', withFields({ impact: { text: 'x' } }), /^`impact` must be .*got an object$/],
  // isBlocking
  ['no isBlocking', without('isBlocking'), /^`isBlocking` is required: a JSON boolean/],
  [
    'isBlocking as the string "true"',
    withFields({ isBlocking: 'true' }),
    /^`isBlocking` must be a JSON boolean \(true or false, not a string\), got one text, "true"$/,
  ],
  ['isBlocking as 1', withFields({ isBlocking: 1 }), /^`isBlocking` must be a JSON boolean .*got 1$/],
  // options
  ['no options', without('options'), /^`options` is required: a list of texts \(1 to 6, .*\)$/],
  ['0 options', withFields({ options: [] }), /^`options` must have 1 to 6 entries, got 0$/],
  ['7 options', withFields({ options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), /^`options` .*1 to 6.*got 7$/],
  [
    'options as a string',
    withFields({ options: 'Yes, No' }),
    /^`options` must be a list of texts .*got one text, "Yes, No"$/,
  ],
  [
    'a number as an option',
    withFields({ options: ['Yes', 5] }),
    /^`options\[1\]` must be a one-line string or an object \{label, value\?, description\?\}, got 5$/,
  ],
  ['null as an option', withFields({ options: [null] }), /^`options\[0\]` must be a one-line string .*got null$/],
  ['an empty option', withFields({ options: [''] }), /^`options\[0\]` must not be empty$/],
  [
    `an option of ${OPTION_LABEL_MAX + 1} characters`,
    withFields({ options: [text(OPTION_LABEL_MAX + 1)] }),
    /^`options\[0\]` must be at most 73 characters, got 74$/,
  ],
  [
    `an option label of ${OPTION_LABEL_MAX + 1} characters`,
    withFields({ options: ['Yes', { label: text(OPTION_LABEL_MAX + 1) }] }),
    /^`options\[1\]\.label` must be at most 73 characters, got 74$/,
  ],
  [
    'a 1 MB option label',
    withFields({ options: [{ label: text(MB) }] }),
    /^`options\[0\]\.label` must be at most 73 characters, got 1048576$/,
  ],
  [
    `an option description of ${OPTION_DESCRIPTION_MAX + 1} characters`,
    withFields({ options: ['Yes', { label: 'No', description: text(OPTION_DESCRIPTION_MAX + 1) }] }),
    /^`options\[1\]\.description` must be at most 75 characters, got 76$/,
  ],
  [
    'a line break in an option',
    withFields({ options: ['Yes\nplease'] }),
    /^`options\[0\]` must be one line: it contains a line break at character 4$/,
  ],
  [
    'a line break in an option description',
    withFields({ options: [{ label: 'Yes', description: 'a\u2028b' }] }),
    /^`options\[0\]\.description` must be one line: it contains a line break at character 2$/,
  ],
  [
    'an option without label',
    withFields({ options: ['Yes', { description: 'x' }] }),
    /^`options\[1\]\.label` is required/,
  ],
  [
    'an option with an unknown key',
    withFields({ options: ['Yes', { label: 'No', id: 'no' }] }),
    /^`options\[1\]` has unknown field `id`: an option is a string or \{label, value, description\}$/,
  ],
  ['a cyclic option', cyclicOption(), /^`options\[1\]` has unknown field `self`/],
  [
    'a number as option description',
    withFields({ options: [{ label: 'Yes', description: 3 }] }),
    /^`options\[0\]\.description` must be a one-line string of at most 75 characters, got 3$/,
  ],
  [
    'duplicate labels differing in case and spaces',
    withFields({ options: ['Yes', { label: ' yes ' }] }),
    /^`options` must have different labels \(ignoring case\): `options\[1\]` repeats "yes" from `options\[0\]`$/,
  ],
  [
    'an option labelled Other',
    withFields({ options: ['Yes', 'Other'] }),
    /^`options\[1\]` must not be "Other": every question already offers Other .*leave it out$/,
  ],
  [
    'an option labelled other in lower case',
    withFields({ options: ['Yes', { label: ' other ' }] }),
    /^`options\[1\]\.label` must not be "Other"/,
  ],
  // recommended
  [
    'recommended not among the labels',
    withFields({ recommended: 'MySQL' }),
    /^`recommended` must be copied exactly from one of the options' labels: "Postgres", "DynamoDB"; got "MySQL"$/,
  ],
  [
    'recommended differing in case',
    withFields({ recommended: 'postgres' }),
    /^`recommended` must be copied exactly .*got "postgres" \(did you mean "Postgres"\?\)$/,
  ],
  ['recommended as a number', withFields({ recommended: 1 }), /^`recommended` must be a string copied from .*got 1$/],
  [
    'a 1 MB recommended',
    withFields({ recommended: text(MB) }),
    /^`recommended` must be copied exactly .*got "a{40}…" \(1048576 characters\)$/,
  ],
  // multiSelect
  [
    'multiSelect as the string "false"',
    withFields({ multiSelect: 'false' }),
    /^`multiSelect` must be a JSON boolean .*got one text, "false"$/,
  ],
  // ticket
  [
    `a ticket of ${TICKET_MAX + 1} characters`,
    withFields({ ticket: text(TICKET_MAX + 1) }),
    /^`ticket` must be at most 64 characters, got 65$/,
  ],
  ['a line break in ticket', withFields({ ticket: 'PROJ-1\n' }), /^`ticket` must be one line: .* character 7$/],
  [
    'a number as ticket',
    withFields({ ticket: 3528 }),
    /^`ticket` must be a one-line string of at most 64 characters, got 3528$/,
  ],
  // expiresInSeconds
  [
    `expiresInSeconds ${EXPIRES_MIN_SECONDS - 1}`,
    withFields({ expiresInSeconds: EXPIRES_MIN_SECONDS - 1 }),
    /^`expiresInSeconds` must be an integer from 60 to 2592000, got 59$/,
  ],
  [
    `expiresInSeconds ${EXPIRES_MAX_SECONDS + 1}`,
    withFields({ expiresInSeconds: EXPIRES_MAX_SECONDS + 1 }),
    /^`expiresInSeconds` must be an integer from 60 to 2592000, got 2592001$/,
  ],
  ['a fractional expiresInSeconds', withFields({ expiresInSeconds: 90.5 }), /^`expiresInSeconds` .*got 90\.5$/],
  [
    'expiresInSeconds as a string',
    withFields({ expiresInSeconds: '3600' }),
    /^`expiresInSeconds` .*got one text, "3600"$/,
  ],
  // waitSeconds
  [
    `waitSeconds ${WAIT_MAX_SECONDS + 1}`,
    withFields({ waitSeconds: WAIT_MAX_SECONDS + 1 }),
    /^`waitSeconds` must be an integer from 0 to 600, got 601$/,
  ],
  ['waitSeconds 900', withFields({ waitSeconds: 900 }), /^`waitSeconds` must be an integer from 0 to 600, got 900$/],
  ['a negative waitSeconds', withFields({ waitSeconds: -1 }), /^`waitSeconds` .*0 to 600, got -1$/],
  ['a fractional waitSeconds', withFields({ waitSeconds: 1.5 }), /^`waitSeconds` .*0 to 600, got 1\.5$/],
  ['waitSeconds NaN', withFields({ waitSeconds: Number.NaN }), /^`waitSeconds` .*0 to 600, got NaN$/],
  ['waitSeconds Infinity', withFields({ waitSeconds: Number.POSITIVE_INFINITY }), /^`waitSeconds` .*got Infinity$/],
  ['waitSeconds null', withFields({ waitSeconds: null }), /^`waitSeconds` .*0 to 600, got null$/],
];

describe('parseAskInput refuses every broken rule with a reason the model can act on', () => {
  it.each(BAD_INPUTS)('GIVEN %s THEN refused with the specific reason', (_behaviour, raw, reason) => {
    const reasons = refusal(raw);
    expect(reasons).toContainEqual(expect.stringMatching(reason));
    for (const text of reasons) expect(text.length).toBeLessThan(400);
  });

  it('GIVEN several broken fields THEN every one is reported, in field order', () => {
    const reasons = refusal({ ...without('isBlocking'), question: 'a\nb', waitSeconds: 900, isBlocked: true });
    expect(reasons).toEqual([
      expect.stringMatching(/^The arguments contain unknown field `isBlocked`/),
      expect.stringMatching(/^`question` must be one line/),
      expect.stringMatching(/^`isBlocking` is required/),
      expect.stringMatching(/^`waitSeconds` must be an integer from 0 to 600, got 900$/),
    ]);
  });

  it('GIVEN options as one text THEN one reason names the wrong type, and its characters are not counted as entries', () => {
    expect(refusal(withFields({ options: 'A, B, C' }))).toEqual([
      '`options` must be a list of texts (1 to 6, each an option\'s label or {label, value, description}), got one text, "A, B, C"',
    ]);
  });

  it('GIVEN an unknown field THEN the refusal lists every field the schema has, askAgain included', () => {
    const [reason] = refusal(withFields({ priority: 'high' }));
    for (const field of Object.keys(askInputSchema.shape)) expect(reason).toContain(`\`${field}\``);
    expect(reason).toContain('`askAgain`');
  });

  it('GIVEN 100,000 bad options THEN the refusal stays short and says how many more problems there are', () => {
    const reasons = refusal(withFields({ options: Array.from({ length: 100_000 }, () => 7) }));
    expect(reasons.length).toBeLessThanOrEqual(21);
    expect(reasons[0]).toMatch(/^`options` must have 1 to 6 entries, got 100000$/);
    expect(reasons.at(-1)).toMatch(/^…and \d+ more problems$/);
  });

  it('GIVEN an object whose getter throws THEN refused, not thrown', () => {
    const raw = Object.defineProperty({ ...VALID }, 'context', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(refusal(raw)).toEqual([expect.stringMatching(/could not be read/)]);
  });
});

// Each limit exactly at its maximum (or minimum) is accepted.
const AT_LIMITS: ReadonlyArray<readonly [string, Raw]> = [
  [`a question of ${QUESTION_MAX} characters`, withFields({ question: text(QUESTION_MAX) })],
  [`a context of ${CONTEXT_MAX} characters`, withFields({ context: text(CONTEXT_MAX) })],
  [`an impact of ${IMPACT_MAX} characters`, withFields({ impact: text(IMPACT_MAX) })],
  [`an option of ${OPTION_LABEL_MAX} characters`, withFields({ options: [text(OPTION_LABEL_MAX)] })],
  [`an option label of ${OPTION_LABEL_MAX} characters`, withFields({ options: [{ label: text(OPTION_LABEL_MAX) }] })],
  [
    `an option description of ${OPTION_DESCRIPTION_MAX} characters`,
    withFields({ options: [{ label: 'Yes', description: text(OPTION_DESCRIPTION_MAX) }] }),
  ],
  [`${OPTIONS_MAX} options`, withFields({ options: ['a', 'b', 'c', 'd', 'e', 'f'] })],
  ['1 option', withFields({ options: ['a'] })],
  [`a ticket of ${TICKET_MAX} characters`, withFields({ ticket: text(TICKET_MAX) })],
  [`expiresInSeconds ${EXPIRES_MIN_SECONDS}`, withFields({ expiresInSeconds: EXPIRES_MIN_SECONDS })],
  [`expiresInSeconds ${EXPIRES_MAX_SECONDS}`, withFields({ expiresInSeconds: EXPIRES_MAX_SECONDS })],
  ['waitSeconds 0', withFields({ waitSeconds: 0 })],
  [`waitSeconds ${WAIT_MAX_SECONDS}`, withFields({ waitSeconds: WAIT_MAX_SECONDS })],
  ['an emoji label of 73 UTF-16 units', withFields({ options: [`${'😀'.repeat(36)}a`] })],
];

describe('parseAskInput accepts and normalises good calls', () => {
  it.each(AT_LIMITS)('GIVEN %s THEN accepted', (_behaviour, raw) => {
    expect(parseAskInput(raw).ok).toBe(true);
  });

  it('GIVEN only the required fields THEN string options become objects and multiSelect defaults to false', () => {
    expect(accepted(VALID)).toEqual({
      context: VALID.context,
      question: VALID.question,
      impact: VALID.impact,
      isBlocking: true,
      options: [{ label: 'Postgres' }, { label: 'DynamoDB', description: 'Serverless, pay per request' }],
      multiSelect: false,
    });
    const value = accepted(VALID);
    for (const key of ['recommended', 'ticket', 'expiresInSeconds', 'waitSeconds']) expect(key in value).toBe(false);
    expect('description' in (single(value).options[0] ?? {})).toBe(false);
  });

  it('GIVEN every field THEN each is kept', () => {
    const value = accepted({
      ...VALID,
      isBlocking: false,
      recommended: 'DynamoDB',
      multiSelect: true,
      ticket: 'PROJ-12',
      expiresInSeconds: 3600,
      waitSeconds: 0,
    });
    expect(value).toMatchObject({
      isBlocking: false,
      recommended: ['DynamoDB'],
      multiSelect: true,
      ticket: 'PROJ-12',
      expiresInSeconds: 3600,
      waitSeconds: 0,
    });
  });

  it('GIVEN padded texts and CRLF Markdown THEN texts are trimmed and line breaks become \\n', () => {
    const value = accepted({
      context: '\r\n  \r\n    indented code\r\nnext line\t\r\n\r\n',
      question: '  Which one?  ',
      impact: 'a\r\nb ',
      isBlocking: true,
      options: ['  Yes ', { label: ' No ', description: '  because  ' }],
      recommended: ' Yes ',
      ticket: ' #3528 ',
    });
    expect(value).toMatchObject({
      context: '    indented code\nnext line',
      question: 'Which one?',
      impact: 'a\nb',
      options: [{ label: 'Yes' }, { label: 'No', description: 'because' }],
      recommended: ['Yes'],
      ticket: '#3528',
    });
  });

  it('GIVEN an empty ticket and empty descriptions THEN they are left out rather than kept empty', () => {
    const value = accepted(withFields({ ticket: '  ', options: [{ label: 'Yes', description: '' }] }));
    expect('ticket' in value).toBe(false);
    expect(single(value).options).toEqual([{ label: 'Yes' }]);
  });

  it('GIVEN a tab inside context THEN it is kept', () => {
    expect(accepted(withFields({ context: 'a\tb' })).context).toBe('a\tb');
  });
});

describe('formatRefusal', () => {
  it('GIVEN reasons THEN one text says nothing was stored and lists each reason', () => {
    expect(formatRefusal(['`options` must have 1 to 6 entries, got 7', '`waitSeconds` must be an integer'])).toBe(
      'ask_later refused the question; nothing was stored. Fix these and call again:\n' +
        '- `options` must have 1 to 6 entries, got 7\n' +
        '- `waitSeconds` must be an integer',
    );
  });
});

describe('askInputSchema as the model sees it', () => {
  const jsonSchema = z.toJSONSchema(askInputSchema, { io: 'input' }) as {
    properties: Record<string, { description?: string; maxLength?: number }>;
    required: string[];
    additionalProperties: boolean;
  };

  it('GIVEN the JSON Schema THEN every field is described and the limits are stated', () => {
    expect(jsonSchema.additionalProperties).toBe(false);
    // One question's fields are required by the checks unless `questions` (a set) is given instead.
    expect(jsonSchema.required).toEqual(['context', 'impact']);
    expect(jsonSchema.properties.question?.description).toMatch(/^Required for one question/);
    expect(jsonSchema.properties.questions?.description).toContain(`${SET_MEMBERS_MIN} to ${SET_MEMBERS_MAX}`);
    expect(jsonSchema.properties.questions?.description).toContain(String(SET_TEXT_MAX));
    for (const [field, property] of Object.entries(jsonSchema.properties)) {
      expect(property.description, field).toMatch(/\S{3}/);
    }
    expect(jsonSchema.properties.question?.maxLength).toBe(QUESTION_MAX);
    expect(jsonSchema.properties.question?.description).toContain(String(QUESTION_MAX));
    expect(jsonSchema.properties.context?.description).toContain(String(CONTEXT_MAX));
    expect(jsonSchema.properties.impact?.description).toContain(String(IMPACT_MAX));
    expect(jsonSchema.properties.options?.description).toContain(String(OPTION_LABEL_MAX));
    expect(jsonSchema.properties.options?.description).toContain(String(OPTION_DESCRIPTION_MAX));
    expect(jsonSchema.properties.ticket?.description).toContain(String(TICKET_MAX));
    expect(jsonSchema.properties.waitSeconds?.description).toContain(String(WAIT_MAX_SECONDS));
    expect(jsonSchema.properties.expiresInSeconds?.description).toContain(String(EXPIRES_MAX_SECONDS));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties.

const FIELD_NAMES = new Set([
  'context',
  'question',
  'impact',
  'isBlocking',
  'options',
  'recommended',
  'multiSelect',
  'ticket',
  'expiresInSeconds',
  'waitSeconds',
]);

// Written apart from the implementation: what an accepted value must satisfy.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these rules are about
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cs}/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these rules are about
const NOT_MARKDOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Cs}/u;

function oneLineOk(value: unknown, max: number): boolean {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= max &&
    value === value.trim() &&
    !NOT_ONE_LINE.test(value)
  );
}

function markdownOk(value: unknown, max: number): boolean {
  return (
    typeof value === 'string' &&
    value.trim() !== '' &&
    value.length <= max &&
    value === value.trimEnd() &&
    !NOT_MARKDOWN.test(value)
  );
}

function isInteger(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function followsEveryRule(input: AskInput): boolean {
  if (input.members !== undefined) return false;
  const value = input;
  const options = value.options;
  const labels = options.map((option) => option.label);
  const folded = labels.map((label) => label.toLowerCase());
  return (
    Object.keys(value).every((key) => FIELD_NAMES.has(key)) &&
    Object.values(value).every((field) => field !== undefined) &&
    markdownOk(value.context, CONTEXT_MAX) &&
    oneLineOk(value.question, QUESTION_MAX) &&
    markdownOk(value.impact, IMPACT_MAX) &&
    typeof value.isBlocking === 'boolean' &&
    typeof value.multiSelect === 'boolean' &&
    options.length >= 1 &&
    options.length <= OPTIONS_MAX &&
    options.every(
      (option) =>
        Object.keys(option).every((key) => key === 'label' || key === 'description') &&
        oneLineOk(option.label, OPTION_LABEL_MAX) &&
        (!('description' in option) || oneLineOk(option.description, OPTION_DESCRIPTION_MAX)),
    ) &&
    new Set(folded).size === folded.length &&
    !folded.includes('other') &&
    (value.recommended ?? []).every((label) => labels.includes(label)) &&
    (!('ticket' in value) || oneLineOk(value.ticket, TICKET_MAX)) &&
    (!('expiresInSeconds' in value) || isInteger(value.expiresInSeconds, EXPIRES_MIN_SECONDS, EXPIRES_MAX_SECONDS)) &&
    (!('waitSeconds' in value) || isInteger(value.waitSeconds, 0, WAIT_MAX_SECONDS))
  );
}

function holdsTheContract(raw: unknown): boolean {
  const result = parseAskInput(raw);
  if (result.ok) return followsEveryRule(result.value);
  return result.reasons.length > 0 && result.reasons.every((reason) => typeof reason === 'string' && reason.length > 0);
}

const goodChar = fc.constantFrom('a', 'Z', '7', ' ', '-', 'é', '★', '😀', '`', '*');
const badChar = fc.constantFrom(
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\u0000',
  '\u0007',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ud800',
);
const mostlyGoodChar = fc.oneof({ weight: 40, arbitrary: goodChar }, { weight: 1, arbitrary: badChar });

/** A value that is usually right, sometimes of the wrong kind. */
function usually<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: good },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.anything() },
  );
}

const nearText = (max: number) => fc.string({ unit: mostlyGoodChar, maxLength: max + 3 });
const nearMarkdown = (max: number) =>
  fc
    .string({
      unit: fc.oneof({ weight: 8, arbitrary: mostlyGoodChar }, { weight: 1, arbitrary: fc.constant('\n') }),
      maxLength: Math.min(max + 3, 400),
    })
    .chain((head) => fc.constantFrom(head, head.padEnd(max, 'x'), head.padEnd(max + 1, 'x')));
const nearLabel = fc.oneof(
  { weight: 6, arbitrary: nearText(OPTION_LABEL_MAX) },
  { weight: 1, arbitrary: fc.constantFrom('Other', 'other', 'Yes', 'yes ', 'No') },
);
const nearOption = usually(
  fc.oneof(
    nearLabel,
    fc.record(
      { label: usually(nearLabel), description: usually(nearText(OPTION_DESCRIPTION_MAX)) },
      { requiredKeys: ['label'] },
    ),
  ),
);
const nearInt = (min: number, max: number) =>
  fc.oneof(fc.integer({ min: min - 2, max: max + 2 }), fc.constantFrom(min, max, min - 1, max + 1, 1.5, Number.NaN));

const goodLine = (max: number) =>
  fc.string({ unit: goodChar, minLength: 1, maxLength: max }).filter((s) => s.trim() !== '' && s.length <= max);
const validInput = fc
  .uniqueArray(goodLine(OPTION_LABEL_MAX), {
    minLength: 1,
    maxLength: OPTIONS_MAX,
    selector: (label) => label.trim().toLowerCase(),
  })
  .filter((labels) => labels.every((label) => label.trim().toLowerCase() !== 'other'))
  .chain((labels) =>
    fc.record(
      {
        context: goodLine(200),
        question: goodLine(QUESTION_MAX),
        impact: goodLine(200),
        isBlocking: fc.boolean(),
        options: fc.constant(labels),
        recommended: fc.constantFrom(...labels),
        multiSelect: fc.boolean(),
        ticket: goodLine(TICKET_MAX),
        expiresInSeconds: fc.integer({ min: EXPIRES_MIN_SECONDS, max: EXPIRES_MAX_SECONDS }),
        waitSeconds: fc.integer({ min: 0, max: WAIT_MAX_SECONDS }),
      },
      { requiredKeys: ['context', 'question', 'impact', 'isBlocking', 'options'] },
    ),
  );

/** Marks a mutation that removes the field. */
const REMOVE = Symbol('remove');
/** Marks a mutation that appends options to the valid ones (to reach a duplicate, `Other` or a 7th option). */
const APPEND = 'append options';

/** One change to a valid call that may, or may not, break a rule. */
const mutation = fc.oneof(
  fc.tuple(fc.constant('context'), usually(nearMarkdown(CONTEXT_MAX))),
  fc.tuple(fc.constant('question'), usually(nearText(QUESTION_MAX))),
  fc.tuple(fc.constant('impact'), usually(nearMarkdown(IMPACT_MAX))),
  fc.tuple(fc.constant('isBlocking'), usually(fc.boolean())),
  fc.tuple(fc.constant('options'), usually(fc.array(nearOption, { maxLength: OPTIONS_MAX + 1 }))),
  fc.tuple(fc.constant('recommended'), usually(nearLabel)),
  fc.tuple(fc.constant('multiSelect'), usually(fc.boolean())),
  fc.tuple(fc.constant('ticket'), usually(nearText(TICKET_MAX))),
  fc.tuple(fc.constant('expiresInSeconds'), usually(nearInt(EXPIRES_MIN_SECONDS, EXPIRES_MAX_SECONDS))),
  fc.tuple(fc.constant('waitSeconds'), usually(nearInt(0, WAIT_MAX_SECONDS))),
  fc.tuple(fc.constantFrom('isBlocked', 'label'), fc.anything()),
  fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.constant(REMOVE)),
  fc.tuple(fc.constant(APPEND), fc.array(nearLabel, { minLength: 1, maxLength: OPTIONS_MAX })),
);

const nearInput = fc.tuple(validInput, fc.array(mutation, { maxLength: 3 })).map(([valid, mutations]) => {
  const raw: Raw = { ...valid };
  for (const [field, value] of mutations) {
    if (value === REMOVE) delete raw[field];
    else if (field === APPEND)
      raw.options = [...(Array.isArray(raw.options) ? raw.options : []), ...(value as unknown[])];
    else raw[field] = value;
  }
  return raw;
});

describe('parseAskInput properties', () => {
  it('GIVEN anything at all THEN it never throws and either accepts a rule-abiding value or gives reasons', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withSparseArray: true, withBoxedValues: true }), (raw) => {
        expect(holdsTheContract(raw)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('GIVEN near-valid calls that sometimes break a rule THEN accepted values follow every rule', () => {
    let acceptedCount = 0;
    fc.assert(
      fc.property(nearInput, (raw) => {
        if (parseAskInput(raw).ok) acceptedCount++;
        return holdsTheContract(raw);
      }),
      { numRuns: 1500 },
    );
    // The generator must exercise both sides, or the property says little.
    expect(acceptedCount).toBeGreaterThan(20);
    expect(acceptedCount).toBeLessThan(1500);
  });

  it('GIVEN valid calls THEN accepted, and parsing the result again changes nothing', () => {
    fc.assert(
      fc.property(validInput, (raw) => {
        const first = accepted(raw);
        expect(JSON.stringify(accepted(first))).toBe(JSON.stringify(first));
      }),
      { numRuns: 500 },
    );
  });
});
