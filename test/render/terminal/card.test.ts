/**
 * The terminal inbox's cards: every question `ask_later` accepts fits an 80-column terminal without losing text
 * (wrapped, never cut), in every state a person can leave it in; and how a card reads.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAskInput } from '../../../src/core/ask-input.js';
import type { InboxItem } from '../../../src/core/inbox.js';
import { itemsOf, type Question } from '../../../src/core/question.js';
import { cardLines } from '../../../src/render/terminal/card.js';
import { markdownLines } from '../../../src/render/terminal/markdown.js';
import { plain } from '../../../src/render/terminal/style.js';
import { columns, wrap } from '../../../src/render/terminal/wrap.js';
import { setSpec, spec } from '../../support/store.js';

const UNITS = ['a', 'Z', '7', ' ', '-', '&', '<', '*', '_', '`', 'é', '★', '😀', '界', 'x'];
const MARKDOWN = [...UNITS, '\n', '#', '>', '1. ', '- ', '`'];
const text = (max: number, units: readonly string[] = UNITS) =>
  fc
    .tuple(fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max }))
    .map(([parts, length]) => parts.join('').repeat(length).slice(0, length));

const option = fc.record({ label: text(73), description: fc.option(text(75), { nil: undefined }) });
const item = fc.record({
  question: text(250),
  options: fc.uniqueArray(option, { minLength: 1, maxLength: 6, selector: (o) => o.label }),
  isBlocking: fc.boolean(),
  multiSelect: fc.boolean(),
});
const raw = fc.oneof(
  fc
    .record({ context: text(3000, MARKDOWN), impact: text(1000, MARKDOWN) })
    .chain((common) => item.map((one) => ({ ...common, ...one }))),
  fc.record({ context: text(800, MARKDOWN), impact: text(400, MARKDOWN) }).chain((common) =>
    fc
      .array(
        fc.record({ topic: text(30) }).chain((t) => item.map((one) => ({ ...t, ...one }))),
        { minLength: 2, maxLength: 4 },
      )
      .map((questions) => ({ ...common, questions })),
  ),
);

function parked(input: unknown): Question | undefined {
  const parsedInput = parseAskInput(input);
  if (!parsedInput.ok) return undefined;
  return {
    ...parsedInput.value,
    project: '/home/dev/projects/ask-later',
    id: 12,
    status: 'pending',
    createdAt: 0,
    messages: [],
  } as Question;
}

/** Text with every space and line break gone: what wrapping may add to, never take from. */
const solid = (value: string) => value.replace(/\s+/g, '');

describe('terminal cards', () => {
  it('GIVEN any question ask_later accepts, every member open and everything picked THEN every line fits 80 columns and every word of it is there', () => {
    fc.assert(
      fc.property(raw, fc.boolean(), (input, pickAll) => {
        const question = parked(input);
        if (!question) return;
        const items = itemsOf(question);
        const drafts = items.map((each) => ({
          choices: pickAll ? each.options.map((o) => o.label).slice(0, each.multiSelect ? 6 : 1) : [],
          other: !pickAll,
          notes: 'Notes of the person, long enough to wrap across the line at least once or twice 😀界',
          updatedAt: 0,
        }));
        const [first] = drafts;
        const entry: InboxItem =
          question.members === undefined && first !== undefined
            ? { question, draft: first }
            : { question, memberDrafts: drafts };
        items.forEach((each, member) => {
          const lines = cardLines(entry, 80, { member, option: 0 });
          for (const line of lines) expect(columns(line)).toBeLessThanOrEqual(80);
          const shown = solid(plain(lines.join('\n')));
          for (const word of [each.question, ...each.options.flatMap((o) => [o.label, o.description ?? ''])]) {
            expect(shown).toContain(solid(word));
          }
          for (const run of `${question.context}\n${question.impact}`.match(/[\p{L}\p{N}]+/gu) ?? []) {
            expect(shown).toContain(run);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('GIVEN a set THEN the card shows its topics as tabs, the open one’s options numbered, the recommended starred and preselected, and the ready mark', () => {
    const question = { ...setSpec(), project: 'p', id: 7, status: 'pending', createdAt: 0, messages: [] } as Question;
    const lines = cardLines({ question }, 80, { member: 1 }).map(plain);
    expect(lines[0]).toBe(' BLOCKING  #7 · p');
    expect(
      lines.some(
        (line) => line.includes('1. Database ✓') && line.includes('2. Caches ✓') && line.includes('3. Naming …'),
      ),
    ).toBe(true);
    expect(lines).toContain('Which caches may billing use?');
    expect(lines).toContain('1 [x] ★ Redis');
    expect(lines).toContain('2 [x] ★ In-process');
    expect(lines).toContain('3 [ ] None');
    expect(lines).toContain('4 [ ] Other');
    expect(lines.at(-1)).toBe('✓ ready · 2 of 3 ready');
    const single = {
      ...spec({ isBlocking: false }),
      project: 'p',
      id: 3,
      status: 'pending',
      createdAt: 0,
      messages: [],
    } as Question;
    const one = cardLines({ question: single }, 60).map(plain);
    expect(one[0]).toBe(' can wait  #3 · p');
    expect(one).toContain('1 (•) ★ Postgres');
    expect(one.at(-1)).toBe('✓ ready');
  });

  it('GIVEN Markdown THEN headings, lists, quotes and code keep their words and their shape', () => {
    const lines = markdownLines(
      '# Plan\n\nWe **must** move [docs](https://x.test/d).\n\n- one\n- two\n\n> quoted\n\n```\ncode line\n```',
      40,
    ).map(plain);
    expect(lines).toEqual([
      'Plan',
      '',
      'We must move docs <https://x.test/d>.',
      '',
      '•  one',
      '•  two',
      '',
      '│ quoted',
      '',
      '    code line',
    ]);
    expect(wrap('a'.repeat(25), 10)).toEqual(['aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa']);
    expect(wrap('界'.repeat(6), 5)).toEqual(['界界', '界界', '界界']);
  });

  it('GIVEN lists and quotes nested deeper than half the width THEN the innermost indents that fit are kept, a quote keeps its bar, and every line fits', () => {
    // The counterexample fast-check found: thirty ordered lists, one inside the other, in 80 columns.
    const deep = markdownLines(`${'1. '.repeat(30)}1`, 80).map(plain);
    expect(Math.max(...deep.map(columns))).toBeLessThanOrEqual(80);
    expect(deep.at(-1)).toBe(`${' '.repeat(36)}1. 1`);
    const nested = markdownLines('- a\n  - b\n    - c\n      > d', 12).map(plain);
    expect(nested).toEqual(['•  a', '   •  b', '   •  c', '   │ d']);
  });
});
