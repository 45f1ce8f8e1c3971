import type {
  APIActionRowComponent,
  APIButtonComponentWithCustomId,
  APIEmbed,
  APILabelComponent,
  APISelectMenuOption,
  APIStringSelectComponent,
  APITextInputComponent,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { DiscordPayloadError } from '../../../src/render/discord/discord-payload-error.js';
import {
  assertDiscordMessage,
  assertDiscordModal,
  DISCORD_LIMITS,
  type DiscordLimit,
  type DiscordRule,
  embedTextLength,
} from '../../../src/render/discord/limits.js';
import type { DiscordMessage, DiscordModal } from '../../../src/render/discord/types.js';

const x = (length: number): string => 'x'.repeat(length);

const message = (overrides: Partial<DiscordMessage> = {}): DiscordMessage => ({
  content: 'hello',
  embeds: [],
  components: [],
  allowed_mentions: { parse: [] },
  ...overrides,
});
const button = (overrides: Partial<APIButtonComponentWithCustomId> = {}): APIButtonComponentWithCustomId => ({
  type: 2,
  style: 1,
  label: 'Go',
  custom_id: 'b',
  ...overrides,
});
const buttons = (n: number): APIButtonComponentWithCustomId[] =>
  Array.from({ length: n }, (_, i) => button({ custom_id: `b${i}` }));
/** A row of buttons or of a select (a row's type says which it holds). */
const row = <T extends APIButtonComponentWithCustomId | APIStringSelectComponent>(
  ...components: T[]
): APIActionRowComponent<T> => ({ type: 1, components });
const options = (n: number): APISelectMenuOption[] =>
  Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `${i}` }));
const select = (overrides: Partial<APIStringSelectComponent> = {}): APIStringSelectComponent => ({
  type: 3,
  custom_id: 's',
  options: options(2),
  ...overrides,
});
const withSelect = (overrides: Partial<APIStringSelectComponent> = {}): DiscordMessage =>
  message({ components: [row(select(overrides))] });
const withEmbed = (embed: APIEmbed): DiscordMessage => message({ embeds: [embed] });
const input = (overrides: Partial<APITextInputComponent> = {}): APITextInputComponent => ({
  type: 4,
  custom_id: 'n',
  style: 2,
  ...overrides,
});
const label = (
  component: APITextInputComponent | APIStringSelectComponent,
  overrides: Partial<APILabelComponent> = {},
): APILabelComponent => ({
  type: 18,
  label: 'Notes',
  component,
  ...overrides,
});
const modal = (overrides: Partial<DiscordModal> = {}): DiscordModal => ({
  custom_id: 'm',
  title: 'Title',
  components: [label(input())],
  ...overrides,
});

/** Embeds whose counted text adds up to exactly `total`, in descriptions of at most 4096. */
function embedsWorth(total: number): APIEmbed[] {
  const embeds: APIEmbed[] = [];
  for (let left = total; left > 0; left -= DISCORD_LIMITS.embedDescription) {
    embeds.push({ description: x(Math.min(left, DISCORD_LIMITS.embedDescription)) });
  }
  return embeds;
}

type Payload = { kind: 'message'; payload: DiscordMessage } | { kind: 'modal'; payload: DiscordModal };
const asMessage = (payload: DiscordMessage): Payload => ({ kind: 'message', payload });
const asModal = (payload: DiscordModal): Payload => ({ kind: 'modal', payload });
const check = (payload: Payload): void =>
  payload.kind === 'message' ? assertDiscordMessage(payload.payload) : assertDiscordModal(payload.payload);

/** Each limit: a payload at the limit and one past it. */
const AT_LIMIT: [DiscordLimit, (size: number) => Payload][] = [
  ['customId', (n) => asMessage(message({ components: [row(button({ custom_id: x(n) }))] }))],
  ['content', (n) => asMessage(message({ content: x(n) }))],
  ['embeds', (n) => asMessage(message({ embeds: Array.from({ length: n }, () => ({ description: 'd' })) }))],
  ['embedTitle', (n) => asMessage(withEmbed({ title: x(n) }))],
  ['embedDescription', (n) => asMessage(withEmbed({ description: x(n) }))],
  [
    'embedFields',
    (n) => asMessage(withEmbed({ fields: Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: 'v' })) })),
  ],
  ['fieldName', (n) => asMessage(withEmbed({ fields: [{ name: x(n), value: 'v' }] }))],
  ['fieldValue', (n) => asMessage(withEmbed({ fields: [{ name: 'n', value: x(n) }] }))],
  ['footerText', (n) => asMessage(withEmbed({ footer: { text: x(n) } }))],
  ['authorName', (n) => asMessage(withEmbed({ author: { name: x(n) } }))],
  ['embedTotal', (n) => asMessage(message({ embeds: embedsWorth(n) }))],
  [
    'actionRows',
    (n) => asMessage(message({ components: Array.from({ length: n }, (_, i) => row(button({ custom_id: `r${i}` }))) })),
  ],
  ['rowButtons', (n) => asMessage(message({ components: [row(...buttons(n))] }))],
  ['buttonLabel', (n) => asMessage(message({ components: [row(button({ label: x(n) }))] }))],
  ['selectOptions', (n) => asMessage(withSelect({ options: options(n) }))],
  ['optionLabel', (n) => asMessage(withSelect({ options: [{ label: x(n), value: 'v' }] }))],
  ['optionValue', (n) => asMessage(withSelect({ options: [{ label: 'l', value: x(n) }] }))],
  ['optionDescription', (n) => asMessage(withSelect({ options: [{ label: 'l', value: 'v', description: x(n) }] }))],
  ['selectPlaceholder', (n) => asMessage(withSelect({ placeholder: x(n) }))],
  ['selectValues', (n) => asMessage(withSelect({ options: options(25), min_values: 1, max_values: n }))],
  ['modalTitle', (n) => asModal(modal({ title: x(n) }))],
  [
    'modalComponents',
    (n) => asModal(modal({ components: Array.from({ length: n }, (_, i) => label(input({ custom_id: `n${i}` }))) })),
  ],
  ['labelText', (n) => asModal(modal({ components: [label(input(), { label: x(n) })] }))],
  ['labelDescription', (n) => asModal(modal({ components: [label(input(), { description: x(n) })] }))],
  ['textInputLength', (n) => asModal(modal({ components: [label(input({ max_length: n }))] }))],
  ['textInputPlaceholder', (n) => asModal(modal({ components: [label(input({ placeholder: x(n) }))] }))],
  ['textDisplay', (n) => asModal(modal({ components: [{ type: 10, content: x(n) }, label(input())] }))],
];

describe('Discord limits', () => {
  it('GIVEN every limit THEN the table covers it', () => {
    expect(AT_LIMIT.map(([name]) => name).sort()).toEqual(Object.keys(DISCORD_LIMITS).sort());
  });

  it.each(AT_LIMIT)('GIVEN %s at its limit THEN the payload passes', (name, build) => {
    expect(() => check(build(DISCORD_LIMITS[name]))).not.toThrow();
  });

  it.each(
    AT_LIMIT,
  )('GIVEN %s one past its limit THEN DiscordPayloadError names it, with the zod error as cause', (name, build) => {
    let caught: unknown;
    try {
      check(build(DISCORD_LIMITS[name] + 1));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DiscordPayloadError);
    const error = caught as DiscordPayloadError;
    expect(error.name).toBe('DiscordPayloadError');
    expect(error.message).toContain(`${name}: at most ${DISCORD_LIMITS[name]}`);
    expect(error.cause).toBeInstanceOf(ZodError);
  });

  it('GIVEN a field value one past its limit THEN the error says where', () => {
    expect(() =>
      check(
        asMessage(
          withEmbed({
            fields: [
              { name: 'ok', value: 'v' },
              { name: 'n', value: x(1025) },
            ],
          }),
        ),
      ),
    ).toThrow('(at embeds[0].fields[1].value)');
  });

  it('GIVEN embeds of every counted kind THEN the total counts title, description, fields, footer and author', () => {
    expect(
      embedTextLength([
        {
          title: 'ab',
          description: 'cde',
          fields: [{ name: 'f', value: 'gh' }],
          footer: { text: 'ijk' },
          author: { name: 'l' },
        },
        { description: 'mn' },
      ]),
    ).toBe(14);
  });

  const RULES: [DiscordRule, Payload][] = [
    ['emptyText', asMessage(withEmbed({ fields: [{ name: '', value: 'v' }] }))],
    ['emptyText', asMessage(message({ components: [row(button({ label: '' }))] }))],
    ['rowShape', asMessage(message({ components: [{ type: 1, components: [select(), button()] as never }] }))],
    [
      'uniqueCustomId',
      asMessage(message({ components: [row(button({ custom_id: 'a' })), row(button({ custom_id: 'a' }))] })),
    ],
    ['uniqueCustomId', asModal(modal({ components: [label(input()), label(input())] }))],
    ['selectValueCounts', asMessage(withSelect({ min_values: 2, max_values: 1 }))],
    ['selectValueCounts', asMessage(withSelect({ max_values: 3 }))],
    [
      'selectValueCounts',
      asMessage(
        withSelect({
          options: [
            { label: 'a', value: 'a', default: true },
            { label: 'b', value: 'b', default: true },
          ],
        }),
      ),
    ],
    ['textInputValue', asModal(modal({ components: [label(input({ max_length: 10, value: x(11) }))] }))],
    ['emptyMessage', asMessage(message({ content: '' }))],
    ['noMentions', asMessage({ ...message(), allowed_mentions: { parse: ['everyone'] } as never })],
    ['noMentions', asMessage({ content: 'hi', embeds: [], components: [] } as never)],
  ];
  it.each(RULES)('GIVEN a payload breaking %s THEN DiscordPayloadError names the rule', (rule, payload) => {
    expect(() => check(payload)).toThrow(DiscordPayloadError);
    expect(() => check(payload)).toThrow(`${rule}:`);
  });

  it('GIVEN the largest legal shapes THEN they pass: 5 rows of 5 buttons, a 25-option select with 25 defaults', () => {
    const rows = Array.from({ length: 5 }, (_, r) =>
      row(...Array.from({ length: 5 }, (_, b) => button({ custom_id: `b${r}-${b}` }))),
    );
    expect(() => assertDiscordMessage(message({ components: rows }))).not.toThrow();
    const all = options(25).map((option) => ({ ...option, default: true }));
    expect(() => assertDiscordMessage(withSelect({ options: all, min_values: 0, max_values: 25 }))).not.toThrow();
  });
});
