import type { APIButtonComponentWithCustomId, APIStringSelectComponent } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { RECOMMENDED_MARK, SET_MEMBERS_MAX, SET_TEXT_MAX, setTextLength } from '../../../src/core/limits.js';
import type { QuestionStatus, SetSelection } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { parseCustomId } from '../../../src/render/discord/ids.js';
import { DISCORD_LIMITS, embedTextLength } from '../../../src/render/discord/limits.js';
import { renderDraftReceipt, renderQuestionMessage } from '../../../src/render/discord/question-message.js';
import type { DiscordMessage } from '../../../src/render/discord/types.js';
import {
  CREATED_AT,
  type ExtremeSetShape,
  embedTexts,
  extremeSet,
  extremeSetAnswer,
  makeSet,
  type SetQuestion,
} from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 12);
const ada = { platform: 'discord', userId: '42', displayName: 'Ada' } as const;
const AT = CREATED_AT + 60_000;
const UNIX = Math.floor(AT / 1000);

const SHAPES: ExtremeSetShape[] = ['options', 'shared text', 'member text'];
const STATES: QuestionStatus[] = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'];

/** `set` moved to `status`, with what that state carries. */
function inState(set: SetQuestion, status: QuestionStatus, answer = extremeSetAnswer(set)): SetQuestion {
  switch (status) {
    case 'pending':
      return set;
    case 'answered':
      return { ...set, status, answer };
    case 'delivered':
      return { ...set, status, answer, deliveredAt: AT + 1000 };
    case 'cancelled':
    case 'expired':
      return { ...set, status, closure: { at: AT } };
    case 'dismissed':
      return { ...set, status, closure: { at: AT, by: ada } };
  }
}

function selects(message: DiscordMessage): APIStringSelectComponent[] {
  return message.components.flatMap((row) => row.components.filter((c): c is APIStringSelectComponent => c.type === 3));
}
function buttons(message: DiscordMessage): APIButtonComponentWithCustomId[] {
  return message.components.flatMap((row) =>
    row.components.filter((c): c is APIButtonComponentWithCustomId => c.type === 2),
  );
}
const defaults = (select: APIStringSelectComponent | undefined) =>
  (select?.options ?? []).filter((option) => option.default).map((option) => option.value);

/** Every text a person reads, with the neutralised @ read back, for "shown in full" checks. */
function shown(message: DiscordMessage): string {
  return [message.content ?? '', ...embedTexts(message.embeds)].join('\n').replaceAll('＠', '@');
}

const ANSWER: SetSelection = {
  members: [
    { choices: ['SQLite'], other: false },
    {
      choices: ['Redis', 'None'],
      other: false,
      notes: 'Keep it small.',
      choiceNotes: [{ choice: 'Redis', notes: 'The shared cluster.\nNot a new one.' }],
    },
    { choices: [], other: true, notes: 'Call it invoicing.' },
  ],
};

describe('a set as one Discord message', () => {
  it('GIVEN a pending set THEN the header shows BLOCKING, the id, project, ticket, the shared context and impact, in red', () => {
    const message = renderQuestionMessage(makeSet());
    const [header] = message.embeds;
    expect(header?.author?.name).toBe('🔴 BLOCKING · #12 · shop · SHOP-12');
    expect(header?.title).toBe('3 questions · answer each, then Send');
    expect(header?.description).toBe('**Context**\nWe are migrating the **billing** service.');
    expect(header?.fields).toEqual([{ name: 'Impact', value: 'Decides the migration scripts.' }]);
    expect(header?.color).toBe(0xd93f0b);
    expect(header?.footer?.text).toBe('📁 /home/ada/src/shop');
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('GIVEN a set that can wait THEN the header is green and says so', () => {
    const set = makeSet({ isBlocking: false });
    const members = set.members.map((member) => ({ ...member, isBlocking: false }));
    const message = renderQuestionMessage({ ...set, members });
    expect(message.embeds[0]?.color).toBe(0x2ea043);
    expect(message.embeds[0]?.author?.name).toBe('🟢 can wait · #12 · shop · SHOP-12');
  });

  it('GIVEN a pending set THEN each member has its embed: ref and topic, blocking mark and colour, question, its own context and impact, options with the recommended starred, and its ready mark', () => {
    const message = renderQuestionMessage(makeSet());
    expect(message.embeds).toHaveLength(4);
    const [, database, caches, naming] = message.embeds;
    expect(database).toMatchObject({
      title: '🔴 #12.1 · Database',
      description: '**Which database should billing use?**',
      color: 0xd93f0b,
      fields: [
        {
          name: 'Options (pick one)',
          value: `• ${RECOMMENDED_MARK}**Postgres** — What the team knows\n• **SQLite**`,
        },
      ],
      footer: { text: '✅ ready as preselected' },
    });
    expect(caches).toMatchObject({
      title: '🟢 #12.2 · Caches',
      description: '**Which caches may billing use?**\n\nBilling reads prices on every request.',
      color: 0x2ea043,
      fields: [
        {
          name: 'Options (pick any)',
          value: `• ${RECOMMENDED_MARK}**Redis** — Shared\n• ${RECOMMENDED_MARK}**In-process**\n• **None**`,
        },
      ],
    });
    expect(naming?.fields).toEqual([
      { name: 'Impact', value: 'The name goes into every dashboard.' },
      { name: 'Options (pick one)', value: '• **billing-v2**\n• **ledger**' },
    ]);
    expect(naming?.footer?.text).toBe('👉 pick one');
  });

  it('GIVEN a pending set THEN one select per member (its id naming the member, the recommendations preselected) and one row of Add notes / Send / Remove', () => {
    const message = renderQuestionMessage(makeSet());
    expect(message.components).toHaveLength(4);
    const [database, caches, naming] = selects(message);
    expect([database, caches, naming].map((select) => parseCustomId(select?.custom_id))).toEqual([
      { kind: 'pick', ref, member: 0 },
      { kind: 'pick', ref, member: 1 },
      { kind: 'pick', ref, member: 2 },
    ]);
    expect(database?.placeholder).toBe('#12.1 · Database: pick an answer');
    expect(defaults(database)).toEqual(['0']);
    expect(defaults(caches)).toEqual(['0', '1']);
    expect([caches?.min_values, caches?.max_values]).toEqual([1, 4]);
    expect(defaults(naming)).toEqual([]);
    expect(naming?.max_values).toBe(1);
    expect(buttons(message).map((b) => [b.label, parseCustomId(b.custom_id)])).toEqual([
      ['Add notes', { kind: 'notes', ref }],
      ['Send', { kind: 'send', ref }],
      ['Remove', { kind: 'remove', ref }],
    ]);
  });

  it('GIVEN an answered set THEN the outcome and the whole answer lead, each member shows its answer, notes and notes per option, in grey, with no controls', () => {
    const message = renderQuestionMessage({ ...makeSet(), status: 'answered', answer: { ...ANSWER, by: ada, at: AT } });
    expect(message.content).toBe(
      `✅ Answered by Ada on Discord at <t:${UNIX}:f>\n**Answer:** Database: SQLite · Caches: Redis, None · Naming: Other`,
    );
    expect(message.components).toEqual([]);
    expect(message.embeds[0]?.author?.name).toBe('✅ Answered · #12 · shop · SHOP-12');
    expect(message.embeds.every((embed) => embed.color === 0x99aab5)).toBe(true);
    expect(message.embeds[1]?.description).toBe('**Which database should billing use?**\n\n**Answer:** SQLite');
    expect(message.embeds[2]?.description).toBe(
      [
        '**Which caches may billing use?**',
        '',
        'Billing reads prices on every request.',
        '',
        '**Answer:** Redis, None',
        '**Notes**',
        '> Keep it small.',
        '**Notes on Redis**',
        '> The shared cluster.',
        '> Not a new one.',
      ].join('\n'),
    );
    expect(message.embeds[3]?.description).toBe(
      '**What do we call the new service?**\n\n**Answer:** Other\n**Notes**\n> Call it invoicing.',
    );
    expect(message.embeds.flatMap((embed) => embed.fields ?? []).map((field) => field.name)).toEqual([
      'Impact',
      'Impact',
    ]);
  });

  const CLOSED: [QuestionStatus, string][] = [
    ['cancelled', `↩️ Withdrawn by the agent at <t:${UNIX}:f>`],
    ['dismissed', `🗑️ Dismissed by Ada at <t:${UNIX}:f>`],
    ['expired', `⌛ Expired unanswered at <t:${UNIX}:f>`],
  ];
  it.each(CLOSED)('GIVEN a %s set THEN the outcome says so and no controls remain', (status, content) => {
    const message = renderQuestionMessage(inState(makeSet(), status));
    expect(message.content).toBe(content);
    expect(message.components).toEqual([]);
    expect(message.embeds).toHaveLength(4);
  });

  it('GIVEN a delivered set THEN the outcome says it reached the agent', () => {
    const message = renderQuestionMessage({
      ...makeSet(),
      status: 'delivered',
      answer: { ...ANSWER, by: ada, at: AT },
      deliveredAt: AT + 1000,
    });
    expect(message.content).toContain(`📬 Delivered to the agent at <t:${UNIX + 1}:f>`);
  });

  it('GIVEN the limits THEN the largest set has SET_MEMBERS_MAX members and its message has 5 rows', () => {
    const set = extremeSet('options');
    expect(set.members).toHaveLength(SET_MEMBERS_MAX);
    expect(setTextLength(set)).toBeLessThanOrEqual(SET_TEXT_MAX);
    expect(setTextLength(set)).toBeGreaterThan(SET_TEXT_MAX - 10);
    const message = renderQuestionMessage(set);
    expect(message.components).toHaveLength(DISCORD_LIMITS.actionRows);
    expect(selects(message).every((select) => select.options.length === 7)).toBe(true);
  });

  const LARGEST = SHAPES.flatMap((shape) => STATES.map((status): [ExtremeSetShape, QuestionStatus] => [shape, status]));
  it.each(LARGEST)('GIVEN the largest set (%s) %s THEN it fits every Discord limit', (shape, status) => {
    const message = renderQuestionMessage(inState(extremeSet(shape), status));
    expect(embedTextLength(message.embeds)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(message.embeds.length).toBeLessThanOrEqual(DISCORD_LIMITS.embeds);
    expect(message.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRows);
    for (const embed of message.embeds) {
      expect(embed.description?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.embedDescription);
    }
    expect(message.content?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  });

  it.each(SHAPES)('GIVEN the largest set (%s) pending THEN every text of it shows in full', (shape) => {
    const set = extremeSet(shape);
    const text = shown(renderQuestionMessage(set));
    for (const part of [set.context, set.impact, set.ticket ?? '']) expect(text).toContain(part);
    for (const member of set.members) {
      for (const part of [member.topic, member.question, member.context ?? '', member.impact ?? '']) {
        expect(text).toContain(part);
      }
      for (const option of member.options) {
        expect(text).toContain(option.label);
        expect(text).toContain(option.description);
      }
    }
  });

  it('GIVEN the largest set answered with notes everywhere THEN topics, questions, impacts and answers show in full, and what was shortened says so', () => {
    const set = extremeSet('member text');
    const message = renderQuestionMessage(inState(set, 'answered'));
    const text = shown(message);
    for (const member of set.members) {
      for (const part of [member.topic, member.question, member.impact ?? '']) expect(text).toContain(part);
    }
    expect(text).toContain(set.impact);
    expect(text).toContain('shortened to fit');
    for (const [index, member] of set.members.entries()) {
      expect(message.embeds[index + 1]?.description?.replaceAll('＠', '@')).toContain(
        `**Answer:** ${member.options[0]?.label}`,
      );
    }
  });
});

describe('the receipt after a member pick', () => {
  it('GIVEN a pick for a member THEN the receipt names the member, the answer, its notes, its mark and how many of the set are ready', () => {
    const set = makeSet();
    const draft = {
      choices: ['Redis'],
      other: false,
      updatedAt: AT,
      choiceNotes: [{ choice: 'Redis', notes: 'shared' }],
    };
    const message = renderDraftReceipt(set, draft, { member: 1, drafts: [undefined, draft, undefined] });
    expect(message.content?.split('\n')).toEqual([
      '**#12.2 · Caches** · Which caches may billing use?',
      'Your answer: **Redis**',
      'Notes on Redis: shared',
      '✅ ready · #12: 👉 2 of 3 ready',
    ]);
  });

  it('GIVEN the last member made ready THEN the receipt says to press Send', () => {
    const set = makeSet();
    const draft = { choices: [], other: true, notes: 'invoicing', updatedAt: AT };
    const message = renderDraftReceipt(set, draft, { member: 2, drafts: [undefined, undefined, draft] });
    expect(message.content).toContain('✅ ready · #12: ✅ 3 of 3 ready — press Send');
    expect(message.content).toContain('Notes: invoicing');
  });

  it('GIVEN the largest set and notes on every option THEN the receipt fits', () => {
    const set = extremeSet('options');
    const answer = extremeSetAnswer(set).members[1];
    if (answer === undefined) throw new Error('fixture');
    const message = renderDraftReceipt(set, { ...answer, updatedAt: AT }, { member: 1, drafts: [] });
    expect(message.content?.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  });
});
