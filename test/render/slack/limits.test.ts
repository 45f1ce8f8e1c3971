import type { Button, PlainTextElement, PlainTextOption } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import {
  assertSlackMessage,
  assertSlackView,
  blockTextLength,
  SLACK_LIMITS,
  type SlackLimit,
} from '../../../src/render/slack/limits.js';
import { SlackPayloadError } from '../../../src/render/slack/slack-payload-error.js';
import type { MessageBlock, ModalView, SlackMessage, SlackView, ViewBlock } from '../../../src/render/slack/types.js';

const plain = (text: string): PlainTextElement => ({ type: 'plain_text', text });
const x = (length: number): string => 'x'.repeat(length);

function message(blocks: MessageBlock[], text = 'fallback'): SlackMessage {
  return {
    text,
    blocks,
    metadata: { event_type: 'ask_later_question', event_payload: { ref: 'AAAAAAAAAAAAAAAA.1', project: 'p', id: 1 } },
  };
}

function modal(blocks: ViewBlock[], overrides: Partial<ModalView> = {}): ModalView {
  return { type: 'modal', callback_id: 'al_test', title: plain('Title'), blocks, ...overrides };
}

const button = (overrides: Partial<Button> = {}): Button => ({
  type: 'button',
  action_id: 'b',
  text: plain('Go'),
  ...overrides,
});
const actions = (...elements: Button[]): MessageBlock => ({ type: 'actions', elements });
const option = (value: string, text = value, description?: string): PlainTextOption =>
  description === undefined
    ? { text: plain(text), value }
    : { text: plain(text), value, description: plain(description) };
const select = (options: PlainTextOption[]): MessageBlock => ({
  type: 'actions',
  elements: [{ type: 'static_select', action_id: 's', options }],
});
const input = (maxLength: number, initial?: string): ViewBlock => ({
  type: 'input',
  label: plain('Notes'),
  element: {
    type: 'plain_text_input',
    action_id: 'n',
    max_length: maxLength,
    ...(initial === undefined ? {} : { initial_value: initial }),
  },
});

/** Blocks whose texts add up to exactly `total` characters, in sections of at most 3000. */
function textWorth(total: number): MessageBlock[] {
  const blocks: MessageBlock[] = [];
  for (let left = total; left > 0; left -= SLACK_LIMITS.sectionText) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: x(Math.min(left, SLACK_LIMITS.sectionText)) } });
  }
  return blocks;
}

type Payload = { kind: 'message'; payload: SlackMessage } | { kind: 'view'; payload: SlackView };
const asMessage = (payload: SlackMessage): Payload => ({ kind: 'message', payload });
const asView = (payload: SlackView): Payload => ({ kind: 'view', payload });

function check(payload: Payload): void {
  if (payload.kind === 'message') assertSlackMessage(payload.payload);
  else assertSlackView(payload.payload);
}

function thrown(fn: () => void): SlackPayloadError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SlackPayloadError) return error;
    throw error;
  }
  throw new Error('expected a SlackPayloadError');
}

/** Each limit: a payload that puts exactly `n` of the measured thing where the limit applies. */
const LIMIT_CASES: [SlackLimit, (n: number) => Payload][] = [
  ['messageBlocks', (n) => asMessage(message(Array.from({ length: n }, () => ({ type: 'divider' }) as const)))],
  ['viewBlocks', (n) => asView(modal(Array.from({ length: n }, () => ({ type: 'divider' }) as const)))],
  [
    'viewBlocks',
    (n) => asView({ type: 'home', blocks: Array.from({ length: n }, () => ({ type: 'divider' }) as const) }),
  ],
  ['messageBlockText', (n) => asMessage(message(textWorth(n)))],
  ['fallbackText', (n) => asMessage(message([{ type: 'divider' }], x(n)))],
  ['headerText', (n) => asMessage(message([{ type: 'header', text: plain(x(n)) }]))],
  ['sectionText', (n) => asMessage(message([{ type: 'section', text: { type: 'mrkdwn', text: x(n) } }]))],
  ['sectionText', (n) => asMessage(message([{ type: 'section', text: plain(x(n)) }]))],
  [
    'sectionFields',
    (n) => asMessage(message([{ type: 'section', fields: Array.from({ length: n }, () => plain('f')) }])),
  ],
  ['sectionFieldText', (n) => asMessage(message([{ type: 'section', fields: [plain(x(n))] }]))],
  ['markdownText', (n) => asMessage(message([{ type: 'markdown', text: x(n) }]))],
  [
    'contextElements',
    (n) => asMessage(message([{ type: 'context', elements: Array.from({ length: n }, () => plain('c')) }])),
  ],
  ['contextText', (n) => asMessage(message([{ type: 'context', elements: [{ type: 'mrkdwn', text: x(n) }] }]))],
  [
    'actionsElements',
    (n) => asMessage(message([actions(...Array.from({ length: n }, (_, i) => button({ action_id: `b${i}` })))])),
  ],
  ['selectOptions', (n) => asMessage(message([select(Array.from({ length: n }, (_, i) => option(String(i))))]))],
  ['optionText', (n) => asMessage(message([select([option('0', x(n))])]))],
  ['optionDescription', (n) => asMessage(message([select([option('0', 'zero', x(n))])]))],
  ['optionValue', (n) => asMessage(message([select([option(x(n), 'zero')])]))],
  ['buttonText', (n) => asMessage(message([actions(button({ text: plain(x(n)) }))]))],
  ['buttonValue', (n) => asMessage(message([actions(button({ value: x(n) }))]))],
  [
    'placeholder',
    (n) =>
      asMessage(
        message([
          {
            type: 'actions',
            elements: [{ type: 'static_select', action_id: 's', placeholder: plain(x(n)), options: [option('0')] }],
          },
        ]),
      ),
  ],
  [
    'confirmTitle',
    (n) =>
      asMessage(
        message([
          actions(button({ confirm: { title: plain(x(n)), text: plain('?'), confirm: plain('Y'), deny: plain('N') } })),
        ]),
      ),
  ],
  [
    'confirmText',
    (n) =>
      asMessage(
        message([
          actions(button({ confirm: { title: plain('T'), text: plain(x(n)), confirm: plain('Y'), deny: plain('N') } })),
        ]),
      ),
  ],
  [
    'confirmButton',
    (n) =>
      asMessage(
        message([
          actions(button({ confirm: { title: plain('T'), text: plain('?'), confirm: plain(x(n)), deny: plain('N') } })),
        ]),
      ),
  ],
  ['blockId', (n) => asMessage(message([{ type: 'divider', block_id: x(n) }]))],
  ['actionId', (n) => asMessage(message([actions(button({ action_id: x(n) }))]))],
  ['viewTitle', (n) => asView(modal([{ type: 'divider' }], { title: plain(x(n)) }))],
  ['viewSubmit', (n) => asView(modal([{ type: 'divider' }], { submit: plain(x(n)) }))],
  ['viewClose', (n) => asView(modal([{ type: 'divider' }], { close: plain(x(n)) }))],
  ['callbackId', (n) => asView(modal([{ type: 'divider' }], { callback_id: x(n) }))],
  ['privateMetadata', (n) => asView(modal([{ type: 'divider' }], { private_metadata: x(n) }))],
  ['privateMetadata', (n) => asView({ type: 'home', private_metadata: x(n), blocks: [{ type: 'divider' }] })],
  ['inputMaxLength', (n) => asView(modal([input(n)], { submit: plain('Save') }))],
  [
    'inputLabel',
    (n) =>
      asView(
        modal([{ type: 'input', label: plain(x(n)), element: { type: 'plain_text_input', action_id: 'n' } }], {
          submit: plain('Save'),
        }),
      ),
  ],
  [
    'inputHint',
    (n) =>
      asView(
        modal(
          [
            {
              type: 'input',
              label: plain('L'),
              hint: plain(x(n)),
              element: { type: 'plain_text_input', action_id: 'n' },
            },
          ],
          { submit: plain('Save') },
        ),
      ),
  ],
];

describe('Slack limits', () => {
  it.each(LIMIT_CASES)('GIVEN %s exactly at its limit THEN the payload passes', (limit, build) => {
    expect(() => check(build(SLACK_LIMITS[limit]))).not.toThrow();
  });

  it.each(LIMIT_CASES)('GIVEN %s one over its limit THEN SlackPayloadError names the limit', (limit, build) => {
    const error = thrown(() => check(build(SLACK_LIMITS[limit] + 1)));
    expect(error.name).toBe('SlackPayloadError');
    expect(error.message).toContain(`${limit}: at most ${SLACK_LIMITS[limit]}`);
    expect(error.cause).toBeInstanceOf(ZodError);
  });

  it('GIVEN a section one over THEN the error says where, and what came', () => {
    const error = thrown(() =>
      assertSlackMessage(message([{ type: 'divider' }, { type: 'section', text: { type: 'mrkdwn', text: x(3001) } }])),
    );
    expect(error.message).toBe(
      'Slack message breaks a limit: sectionText: at most 3000 characters, got 3001 (at blocks[1].text.text)',
    );
  });

  it('GIVEN the documented limits THEN they are the figures FACTS.md gives', () => {
    expect(SLACK_LIMITS).toMatchObject({
      messageBlocks: 50,
      viewBlocks: 100,
      headerText: 150,
      sectionText: 3000,
      markdownText: 12_000,
      contextElements: 10,
      actionsElements: 25,
      selectOptions: 100,
      optionText: 75,
      optionDescription: 75,
      optionValue: 75,
      blockId: 255,
      actionId: 255,
      viewTitle: 24,
      viewSubmit: 24,
      viewClose: 24,
      privateMetadata: 3000,
      inputMaxLength: 3000,
      messageBlockText: 12_000,
    });
  });
});

describe('Slack rules', () => {
  const zero = option('0', 'zero');
  const RULE_CASES: [string, string, Payload][] = [
    ['empty text', 'emptyText', asMessage(message([{ type: 'section', text: { type: 'mrkdwn', text: '' } }]))],
    ['a section with neither text nor fields', 'emptyText', asMessage(message([{ type: 'section' }]))],
    [
      'an initial option that is not one of the options',
      'initialOption',
      asMessage(
        message([
          {
            type: 'actions',
            elements: [{ type: 'static_select', action_id: 's', options: [zero], initial_option: option('1', 'one') }],
          },
        ]),
      ),
    ],
    [
      'an initial option with the same value but another text',
      'initialOption',
      asMessage(
        message([
          {
            type: 'actions',
            elements: [
              { type: 'static_select', action_id: 's', options: [zero], initial_option: option('0', '★ zero') },
            ],
          },
        ]),
      ),
    ],
    [
      'initial options of a multi-select not among the options',
      'initialOption',
      asMessage(
        message([
          {
            type: 'actions',
            elements: [
              { type: 'multi_static_select', action_id: 's', options: [zero], initial_options: [zero, option('1')] },
            ],
          },
        ]),
      ),
    ],
    [
      'a block id used twice',
      'uniqueBlockId',
      asMessage(
        message([
          { type: 'divider', block_id: 'same' },
          { type: 'divider', block_id: 'same' },
        ]),
      ),
    ],
    ['an action id used twice in one block', 'uniqueActionId', asMessage(message([actions(button(), button())]))],
    [
      'an initial value longer than max_length',
      'inputInitialValue',
      asView(modal([input(10, x(11))], { submit: plain('Save') })),
    ],
    ['a modal with inputs and no submit', 'viewSubmitRequired', asView(modal([input(10)]))],
    [
      'a markdown block in a modal',
      'blockType',
      asView(modal([{ type: 'markdown', text: 'x' } as unknown as ViewBlock])),
    ],
  ];

  it.each(RULE_CASES)('GIVEN %s THEN SlackPayloadError names %s', (_name, rule, payload) => {
    expect(thrown(() => check(payload)).message).toContain(`${rule}:`);
  });

  it('GIVEN an initial option equal to one of the options THEN it passes', () => {
    expect(() =>
      assertSlackMessage(
        message([
          {
            type: 'actions',
            elements: [{ type: 'static_select', action_id: 's', options: [zero], initial_option: option('0', 'zero') }],
          },
        ]),
      ),
    ).not.toThrow();
  });

  it('GIVEN the same action id in two blocks THEN it passes (ids are unique per block)', () => {
    expect(() => assertSlackMessage(message([actions(button()), actions(button())]))).not.toThrow();
  });
});

describe('blockTextLength', () => {
  it('GIVEN blocks THEN it sums every text, options and confirm dialogs included, not ids or values', () => {
    const blocks: MessageBlock[] = [
      { type: 'header', block_id: 'ignored', text: plain('abc') },
      {
        type: 'actions',
        elements: [
          { type: 'static_select', action_id: 'ignored', options: [option('ignored', 'de', 'fg')] },
          button({ text: plain('h'), value: 'ignored' }),
        ],
      },
      { type: 'markdown', text: 'ij' },
    ];
    expect(blockTextLength(blocks)).toBe(10);
  });
});
