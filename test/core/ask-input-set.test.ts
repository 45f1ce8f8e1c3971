/**
 * `ask_later` input for what issue 16 added: sets of questions (`questions`), option values, several recommended
 * options on a multi-select. Every rule of a single question holds for each member, with the member's index in the
 * refusal; a set's own rules (2 to 4 members, distinct topics, its texts together within SET_TEXT_MAX) at and over
 * their limits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AskInput, parseAskInput } from '../../src/core/ask-input.js';
import {
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  SET_MEMBERS_MAX,
  SET_MEMBERS_MIN,
  SET_TEXT_MAX,
  setTextLength,
  TOPIC_MAX,
} from '../../src/core/limits.js';
import { askInputOf, type SetSpec } from '../../src/core/question.js';

type Raw = Record<string, unknown>;

const member = (topic: string, patch: Raw = {}): Raw => ({
  topic,
  question: `Which ${topic.toLowerCase()}?`,
  options: ['A', 'B'],
  isBlocking: false,
  ...patch,
});

const SET = {
  context: 'Splitting the ledger out of billing.',
  impact: 'Decides the first milestone.',
  questions: [
    member('Database', { options: [{ label: 'Postgres', value: 'pg' }, 'SQLite'], recommended: 'Postgres' }),
    member('Caches', { options: ['Redis', 'In-process', 'None'], multiSelect: true, recommended: ['Redis', 'None'] }),
    member('Naming', { isBlocking: true, context: 'Dashboards use it.', impact: 'Renames are costly.' }),
  ],
};

const withSet = (patch: Raw): Raw => ({ ...SET, ...patch });
const withMember = (index: number, patch: Raw): Raw => ({
  ...SET,
  questions: SET.questions.map((each, i) => (i === index ? { ...each, ...patch } : each)),
});
const text = (length: number, char = 'a'): string => char.repeat(length);

function refusal(raw: unknown): string[] {
  const result = parseAskInput(raw);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value).slice(0, 200)}`);
  return result.reasons;
}

function accepted(raw: unknown): AskInput {
  const result = parseAskInput(raw);
  if (!result.ok) throw new Error(`expected acceptance, got:\n${result.reasons.join('\n')}`);
  return result.value;
}

function acceptedSet(raw: unknown): Extract<AskInput, SetSpec> {
  const value = accepted(raw);
  if (value.members === undefined) throw new Error('expected a set');
  return value as Extract<AskInput, SetSpec>;
}

const BAD_SETS: ReadonlyArray<readonly [string, unknown, RegExp]> = [
  // the set as a whole
  [
    'a set of one',
    withSet({ questions: [member('Only')] }),
    /^`questions` must have 2 to 4 questions, got 1 \(park one question/,
  ],
  [
    `a set of ${SET_MEMBERS_MAX + 1}`,
    withSet({ questions: ['A', 'B', 'C', 'D', 'E'].map((t) => member(t)) }),
    /^`questions` must have 2 to 4 questions, got 5: a set is one chat message, and Discord fits one picker per question/,
  ],
  [
    'questions as a string',
    withSet({ questions: 'two' }),
    /^`questions` must be a list of 2 to 4 questions, got one text, "two"$/,
  ],
  [
    'a member that is a string',
    withSet({ questions: ['Which?', member('B')] }),
    /^`questions\[0\]` must be an object with the fields `topic`, `question`, `options`, `isBlocking`/,
  ],
  [
    'two topics differing in case',
    withSet({ questions: [member('Cache'), member(' cache ')] }),
    /^`questions` must have different topics \(ignoring case\): `questions\[1\]\.topic` repeats "cache" from `questions\[0\]\.topic`$/,
  ],
  [
    'a set and a question at once',
    withSet({ question: 'Which?', options: ['A'], isBlocking: true }),
    /^`question` must not be given with `questions`: in a set each question has its own \(`questions\[0\]\.question`, …\)$/,
  ],
  ['isBlocking beside questions', withSet({ isBlocking: true }), /^`isBlocking` must not be given with `questions`/],
  ['recommended beside questions', withSet({ recommended: 'A' }), /^`recommended` must not be given with `questions`/],
  ['multiSelect beside questions', withSet({ multiSelect: true }), /^`multiSelect` must not be given with `questions`/],
  [
    'neither a question nor a set',
    { context: 'c', impact: 'i' },
    /^`question` is required: a one-line string of at most 250 characters$/,
  ],
  [
    `a set over ${SET_TEXT_MAX} characters in all`,
    withSet({
      context: text(3000),
      impact: text(1000),
      questions: [member('A', { context: text(1000) }), member('B', { impact: text(1000) })],
    }),
    /^`questions` must fit in one chat message: the set's texts .* come to \d+ characters, at most 5000\. Shorten them by \d+, or park fewer questions in the set$/,
  ],
  // each member's rules, with its index
  [
    'a member without topic',
    withMember(1, { topic: undefined }),
    /^`questions\[1\]\.topic` is required: a one-line string of at most 30 characters$/,
  ],
  [
    `a topic of ${TOPIC_MAX + 1} characters`,
    withMember(0, { topic: text(TOPIC_MAX + 1) }),
    /^`questions\[0\]\.topic` must be at most 30 characters, got 31$/,
  ],
  ['a line break in a topic', withMember(2, { topic: 'a\nb' }), /^`questions\[2\]\.topic` must be one line/],
  ['a member without question', withMember(2, { question: undefined }), /^`questions\[2\]\.question` is required/],
  [
    `a member question of ${QUESTION_MAX + 1}`,
    withMember(1, { question: text(QUESTION_MAX + 1) }),
    /^`questions\[1\]\.question` must be at most 250 characters, got 251$/,
  ],
  [
    'a member without options',
    withMember(0, { options: undefined }),
    /^`questions\[0\]\.options` is required: a list of texts \(1 to 6, .*\)$/,
  ],
  [
    `a member with ${OPTIONS_MAX + 1} options`,
    withMember(1, { options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }),
    /^`questions\[1\]\.options` must have 1 to 6 entries, got 7$/,
  ],
  [
    'a member offering Other',
    withMember(2, { options: ['A', 'Other'] }),
    /^`questions\[2\]\.options\[1\]` must not be "Other"/,
  ],
  [
    'a member with duplicate labels',
    withMember(0, { options: ['Yes', 'yes'] }),
    /^`questions\[0\]\.options` must have different labels \(ignoring case\): `options\[1\]` repeats "yes" from `options\[0\]`$/,
  ],
  [
    'a member without isBlocking',
    withMember(1, { isBlocking: undefined }),
    /^`questions\[1\]\.isBlocking` is required: a JSON boolean/,
  ],
  [
    'a member isBlocking as a string',
    withMember(1, { isBlocking: 'yes' }),
    /^`questions\[1\]\.isBlocking` must be a JSON boolean .*got one text, "yes"$/,
  ],
  [
    'a member recommending what it does not offer',
    withMember(0, { recommended: 'MySQL' }),
    /^`questions\[0\]\.recommended` must be copied exactly from one of the options' labels: "Postgres", "SQLite"; got "MySQL"$/,
  ],
  [
    'two recommended on a single-select member',
    withMember(0, { recommended: ['Postgres', 'SQLite'] }),
    /^`questions\[0\]\.recommended` must be one label unless `multiSelect` is true \(the person can pick only one\), got 2$/,
  ],
  [
    `member context of ${MEMBER_CONTEXT_MAX + 1}`,
    withMember(2, { context: text(MEMBER_CONTEXT_MAX + 1) }),
    /^`questions\[2\]\.context` must be at most 1000 characters, got 1001$/,
  ],
  [
    `member impact of ${MEMBER_IMPACT_MAX + 1}`,
    withMember(2, { impact: text(MEMBER_IMPACT_MAX + 1) }),
    /^`questions\[2\]\.impact` must be at most 1000 characters, got 1001$/,
  ],
  ['an empty member context', withMember(2, { context: '' }), /^`questions\[2\]\.context` must not be empty$/],
  [
    'a member field that does not exist',
    withMember(1, { ticket: 'X-1' }),
    /^`questions\[1\]` has unknown field `ticket`: a question of a set has `topic`, `question`, `options`, `isBlocking` \(required\)/,
  ],
  ['a typo in a member field', withMember(1, { topics: 'A' }), /unknown field `topics` \(did you mean `topic`\?\)/],
];

const BAD_OPTIONS: ReadonlyArray<readonly [string, unknown, RegExp]> = [
  [
    `an option value of ${OPTION_VALUE_MAX + 1}`,
    { label: 'A', value: text(OPTION_VALUE_MAX + 1) },
    /^`options\[0\]\.value` must be at most 64 characters, got 65$/,
  ],
  ['an empty option value', { label: 'A', value: '' }, /^`options\[0\]\.value` must not be empty$/],
  ['a line break in a value', { label: 'A', value: 'a\nb' }, /^`options\[0\]\.value` must be one line/],
  [
    'a number as value',
    { label: 'A', value: 7 },
    /^`options\[0\]\.value` must be a one-line string of at most 64 characters, got 7$/,
  ],
];

const SINGLE = {
  context: 'c',
  question: 'Which?',
  impact: 'i',
  isBlocking: false,
  options: ['A', 'B'],
};

describe('a set of questions: every rule, each member named by its index', () => {
  it.each(BAD_SETS)('GIVEN %s THEN refused with the specific reason', (_behaviour, raw, reason) => {
    const reasons = refusal(raw);
    expect(reasons).toContainEqual(expect.stringMatching(reason));
    for (const each of reasons) expect(each.length).toBeLessThan(400);
  });

  it.each(BAD_OPTIONS)('GIVEN %s THEN refused with the specific reason', (_behaviour, option, reason) => {
    expect(refusal({ ...SINGLE, options: [option, 'B'] })).toContainEqual(expect.stringMatching(reason));
  });

  it('GIVEN two options with the same value (or a value equal to another label) THEN refused, naming both', () => {
    expect(
      refusal({
        ...SINGLE,
        options: [
          { label: 'A', value: 'x' },
          { label: 'B', value: 'x' },
        ],
      }),
    ).toContainEqual(
      '`options` must have different values (a value defaults to the label): `options[1]` repeats "x" from `options[0]`',
    );
    expect(refusal({ ...SINGLE, options: ['A', { label: 'B', value: 'A' }] })).toContainEqual(
      expect.stringMatching(/^`options` must have different values .*`options\[1\]` repeats "A" from `options\[0\]`$/),
    );
  });

  it('GIVEN several recommended on a single question THEN refused unless multiSelect', () => {
    expect(refusal({ ...SINGLE, recommended: ['A', 'B'] })).toContainEqual(
      expect.stringMatching(/^`recommended` must be one label unless `multiSelect` is true/),
    );
    expect(refusal({ ...SINGLE, multiSelect: true, recommended: ['A', 'A'] })).toContainEqual(
      '`recommended` must name each label once, got "A" more than once',
    );
    expect(refusal({ ...SINGLE, multiSelect: true, recommended: [] })).toContainEqual(
      '`recommended` must name at least one label when it is a list',
    );
  });
});

describe('a set of questions: accepted and normalised', () => {
  it('GIVEN a set of three THEN members keep their own rules, the set blocks when one does, values and lists kept', () => {
    const value = acceptedSet(SET);
    expect(value).toEqual({
      context: SET.context,
      impact: SET.impact,
      isBlocking: true,
      members: [
        {
          topic: 'Database',
          question: 'Which database?',
          options: [{ label: 'Postgres', value: 'pg' }, { label: 'SQLite' }],
          recommended: ['Postgres'],
          multiSelect: false,
          isBlocking: false,
        },
        {
          topic: 'Caches',
          question: 'Which caches?',
          options: [{ label: 'Redis' }, { label: 'In-process' }, { label: 'None' }],
          recommended: ['Redis', 'None'],
          multiSelect: true,
          isBlocking: false,
        },
        {
          topic: 'Naming',
          question: 'Which naming?',
          options: [{ label: 'A' }, { label: 'B' }],
          multiSelect: false,
          isBlocking: true,
          context: 'Dashboards use it.',
          impact: 'Renames are costly.',
        },
      ],
    });
  });

  it('GIVEN no member blocks THEN neither does the set', () => {
    expect(acceptedSet(withMember(2, { isBlocking: false })).isBlocking).toBe(false);
  });

  it('GIVEN recommended labels out of order THEN they are kept in the options’ order; a value equal to its label is dropped', () => {
    const value = accepted({
      ...SINGLE,
      multiSelect: true,
      options: [{ label: 'A', value: 'A' }, 'B', { label: 'C', value: ' c ' }],
      recommended: [' C', 'A'],
    });
    expect(value).toMatchObject({
      options: [{ label: 'A' }, { label: 'B' }, { label: 'C', value: 'c' }],
      recommended: ['A', 'C'],
    });
  });

  it(`GIVEN sets at their limits (${SET_MEMBERS_MIN} and ${SET_MEMBERS_MAX} members, topics of ${TOPIC_MAX}, texts adding up to exactly ${SET_TEXT_MAX}) THEN accepted`, () => {
    expect(acceptedSet(withSet({ questions: [member('A'), member('B')] })).members).toHaveLength(SET_MEMBERS_MIN);
    const largest = largestSet();
    expect(setTextLength(toLengthShape(largest))).toBe(SET_TEXT_MAX);
    expect(acceptedSet(largest).members).toHaveLength(SET_MEMBERS_MAX);
    const over = { ...largest, context: `${largest.context}a` };
    expect(refusal(over)).toContainEqual(
      expect.stringMatching(/come to 5001 characters, at most 5000\. Shorten them by 1/),
    );
  });

  it('GIVEN a parked set turned back into arguments THEN it parses to the same set (how serve receives it over HTTP)', () => {
    const value = acceptedSet(SET);
    expect(accepted(askInputOf(value))).toEqual(value);
  });
});

/** The largest set accepted: 4 members of 6 options with labels and descriptions, its texts adding up to 5000. */
function largestSet(): Raw & { context: string } {
  const option = (m: number, o: number) => ({
    label: `${m}${o}${text(OPTION_LABEL_MAX - 2, 'l')}`.slice(0, 40),
    value: `v${m}${o}`,
    description: text(30, 'd'),
  });
  const questions = Array.from({ length: SET_MEMBERS_MAX }, (_, m) => ({
    topic: `${m}${text(TOPIC_MAX - 1, 't')}`,
    question: text(QUESTION_MAX, 'q'),
    options: Array.from({ length: OPTIONS_MAX }, (_, o) => option(m, o)),
    isBlocking: m === 0,
    multiSelect: m === 1,
  }));
  const raw = { context: '', impact: text(200, 'i'), ticket: 'PROJ-12', questions };
  const used = setTextLength(toLengthShape(raw));
  return { ...raw, context: text(SET_TEXT_MAX - used, 'c') };
}

/** Tool arguments in the shape `setTextLength` measures (its `questions` as `members`). */
function toLengthShape(raw: Raw): Parameters<typeof setTextLength>[0] {
  return { ...raw, members: raw.questions } as unknown as Parameters<typeof setTextLength>[0];
}

describe('a set of questions: properties', () => {
  const oneLine = (max: number) =>
    fc.string({ minLength: 1, maxLength: max }).filter((t) => t.trim() !== '' && !/[\p{Cc}\u2028\u2029]/u.test(t));
  const labels = fc.uniqueArray(fc.constantFrom('Postgres', 'SQLite', 'Redis', 'None', 'Later', 'ledger', 'books'), {
    minLength: 0,
    maxLength: 7,
  });
  const rawMember = fc.record({
    topic: fc.oneof(oneLine(TOPIC_MAX + 2), fc.constantFrom('Database', 'database')),
    question: oneLine(QUESTION_MAX),
    options: labels.chain((names) =>
      fc.tuple(
        ...names.map((label) =>
          fc.oneof(
            fc.constant<unknown>(label),
            fc.record({ label: fc.constant(label), value: fc.constantFrom('a', 'b', label), description: oneLine(90) }),
          ),
        ),
      ),
    ),
    isBlocking: fc.boolean(),
    multiSelect: fc.option(fc.boolean(), { nil: undefined }),
    context: fc.option(oneLine(1200), { nil: undefined }),
  });
  const rawSet = fc.record({
    context: oneLine(3000),
    impact: oneLine(1000),
    questions: fc.array(rawMember, { minLength: 1, maxLength: 5 }),
  });

  it('GIVEN random sets THEN what is accepted keeps every set rule, and what is refused says why', () => {
    let acceptedCount = 0;
    fc.assert(
      fc.property(rawSet, (raw) => {
        const result = parseAskInput(raw);
        if (!result.ok) return result.reasons.length > 0 && result.reasons.every((reason) => reason.length < 400);
        acceptedCount++;
        const value = result.value;
        if (value.members === undefined) return false;
        const topics = value.members.map((m) => m.topic.toLowerCase());
        return (
          value.members.length >= SET_MEMBERS_MIN &&
          value.members.length <= SET_MEMBERS_MAX &&
          new Set(topics).size === topics.length &&
          value.members.every((m) => m.topic.length <= TOPIC_MAX && (m.context?.length ?? 0) <= MEMBER_CONTEXT_MAX) &&
          setTextLength(value) <= SET_TEXT_MAX &&
          value.isBlocking === value.members.some((m) => m.isBlocking) &&
          value.members.every((m) => {
            const values = m.options.map((o) => o.value ?? o.label);
            return (
              m.options.length >= 1 &&
              m.options.length <= OPTIONS_MAX &&
              new Set(values).size === values.length &&
              m.options.every(
                (o) => o.label.length <= OPTION_LABEL_MAX && (o.description?.length ?? 0) <= OPTION_DESCRIPTION_MAX,
              )
            );
          })
        );
      }),
      { numRuns: 400 },
    );
    // The generator is meant to hit both sides: some random sets must pass every rule.
    expect(acceptedCount).toBeGreaterThan(0);
  });
});
