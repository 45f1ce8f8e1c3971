/**
 * The web inbox's cards for question sets and the richer answers, as pure renderers: a set is one card with a tab per
 * question (ARIA tablist), shared context above the tabs, one Send and its review; several recommendations starred and
 * checked on a multi-select; a notes field per picked option; answers with notes nested under their options; the
 * inbox counting a set once. Every card is checked well-formed, and hostile text stays text.
 */
import { describe, expect, it } from 'vitest';
import { parseAskInput } from '../../../src/core/ask-input.js';
import {
  NOTES_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  SET_TEXT_MAX,
  setTextLength,
  TOPIC_MAX,
} from '../../../src/core/limits.js';
import type { Draft, Question, QuestionState, SetSpec, SingleSpec } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { renderDecision } from '../../../src/render/web/answered.js';
import { renderCard, type WebInboxItem } from '../../../src/render/web/card.js';
import { KEY_HELP } from '../../../src/render/web/client/keys.js';
import { readyCount, renderInboxFragment, renderKeysHelp } from '../../../src/render/web/page.js';
import type { Decision } from '../../../src/store/decision-query.js';
import { inboxPageOf } from '../../support/inbox.js';
import { person, setSpec, spec } from '../../support/store.js';
import { assertWellFormed } from './well-formed.js';

const AT = Date.UTC(2027, 0, 15, 10, 20);
const PROJECT = '/home/me/src/shop';

function state(id: number, overrides: Partial<QuestionState> = {}): QuestionState {
  return { project: PROJECT, id, status: 'pending', createdAt: AT, messages: [], ...overrides };
}

function aSet(id = 12, overrides: Partial<SetSpec & QuestionState> = {}): Question {
  return { ...setSpec(), ...state(id), ...overrides } as Question;
}

function aSingle(id: number, overrides: Partial<SingleSpec & QuestionState> = {}): Question {
  return { ...spec(), ...state(id), ...overrides } as Question;
}

function draft(selection: Omit<Draft, 'updatedAt'>): Draft {
  return { ...selection, updatedAt: AT };
}

const render = (item: WebInboxItem) => {
  const markup = renderCard(item, { timeZone: 'UTC' }).toString();
  assertWellFormed(markup);
  return markup;
};

/** The markup between the element with `id` and the next `</section>` (a panel holds no section of its own but texts). */
function panel(markup: string, index: number): string {
  const start = markup.indexOf(
    `role="tabpanel" id="panel-`,
    markup.indexOf(`data-member="${index}" data-readiness`) - 400,
  );
  const ends = markup.indexOf('</fieldset>', start);
  return markup.slice(start, ends);
}

describe('a set, waiting', () => {
  it('GIVEN a set of three without drafts THEN one card: BLOCKING, its topics, shared context, a tab per question with its ready mark, the first panel open, 2 of 3 ready, Send refusing', () => {
    const markup = render({ question: aSet(12, { ticket: 'BILL-7' }) });
    const ref = formatQuestionRef(PROJECT, 12);
    expect(markup.match(/<article /g)).toHaveLength(1);
    expect(markup).toContain(`data-ref="${ref}"`);
    expect(markup).toContain('class="card is-pending is-set is-blocking"');
    expect(markup).toContain('<span class="badge badge-blocking">BLOCKING</span>');
    expect(markup).toContain('<span class="ticket">BILL-7</span><span class="qid">#12</span>');
    expect(markup).toContain('<span class="set-size">3 questions</span>');
    expect(markup).toMatch(/<h2 class="question" id="title-[^"]+">Database · Caches · Naming<\/h2>/);
    // The shared context and impact come before the tabs.
    expect(markup.indexOf('We are migrating the <strong>billing</strong> service.')).toBeLessThan(
      markup.indexOf('role="tablist"'),
    );
    expect(markup).toContain('role="tablist" aria-label="The questions of #12"');

    const tabs = [...markup.matchAll(/<button type="button" role="tab"[^>]*>(.*?)<\/button>/g)];
    expect(
      tabs.map((tab) =>
        tab[1]
          ?.replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    ).toEqual(['#12.1 Database blocking ready', '#12.2 Caches ready', '#12.3 Naming pick one']);
    expect(tabs[0]?.[0]).toContain('aria-selected="true" tabindex="0" data-member="0"');
    expect(tabs[1]?.[0]).toContain('aria-selected="false" tabindex="-1" data-member="1"');
    for (const [index, tab] of tabs.entries()) {
      const id = /id="(tab-[^"]+)"/.exec(tab[0])?.[1];
      const controls = /aria-controls="([^"]+)"/.exec(tab[0])?.[1];
      expect(markup).toContain(`role="tabpanel" id="${controls}" aria-labelledby="${id}" data-member="${index}"`);
    }
    // Only the first panel shows; each panel has its ref, topic, blocking mark, question, picker and notes.
    expect(markup.match(/role="tabpanel"[^>]*data-readiness="[^"]+">/g)).toHaveLength(1);
    expect(markup.match(/role="tabpanel"[^>]*data-readiness="[^"]+" hidden>/g)).toHaveLength(2);
    expect(panel(markup, 0)).toContain(
      '<p class="member-head"><span class="qid">#12.1</span><span class="topic">Database</span><span class="badge badge-blocking">BLOCKING</span></p>',
    );
    expect(panel(markup, 0)).toContain('<h3 class="question">Which database should billing use?</h3>');
    expect(panel(markup, 1)).toContain('<span class="badge badge-waiting">can wait</span>');
    // A member's own context and impact are in its panel.
    expect(panel(markup, 1)).toContain('Billing reads prices on every request.');
    expect(panel(markup, 0)).not.toContain('Billing reads prices');
    expect(markup).toContain('The name goes into every dashboard.');
    // One picker per member, names apart; one Send; not ready: aria-disabled, no review yet.
    expect(markup).toContain(`name="pick-${ref}-0"`);
    expect(markup).toContain(`name="pick-${ref}-2"`);
    expect(markup.match(/data-action="send"/g)).toHaveLength(1);
    expect(markup).toContain('<span class="set-progress ready-pick-one">2 of 3 ready</span>');
    expect(markup).toMatch(/data-action="send" aria-disabled="true" aria-describedby="notice-[^"]+">Send<\/button>/);
    expect(markup).not.toContain('class="review"');
    expect(markup).toContain('Remove #12 (all 3 questions) without answering?');
  });

  it('GIVEN a multi-select with two recommendations THEN both are starred and checked, each with its notes field shown; the others’ fields are hidden', () => {
    const markup = render({ question: aSet() });
    const caches = panel(markup, 1);
    expect(caches).toContain('<legend>Pick any</legend>');
    expect(caches).toMatch(
      /<label class="option is-recommended"><input type="checkbox" id="opt-[^"]+-1-0" name="[^"]+" value="0" checked><span class="option-text"><span class="option-label">★ Redis<\/span><span class="option-desc">Shared<\/span><\/span><kbd class="key" aria-hidden="true">1<\/kbd><\/label>/,
    );
    expect(caches).toMatch(/value="1" checked><span class="option-text"><span class="option-label">★ In-process</);
    expect(caches).toMatch(/value="2"><span class="option-text"><span class="option-label">None</);
    expect(caches).toMatch(
      /<label class="choice-notes"><span class="choice-notes-label">Notes on Redis<\/span><textarea id="cnotes-[^"]+-1-0" data-notes="choice" data-choice="0"/,
    );
    expect(caches).toMatch(/<label class="choice-notes" hidden><span class="choice-notes-label">Notes on None<\/span>/);
    // Other is the last row, key 4; it has no notes of its own (the answer's notes say what).
    expect(caches).toMatch(
      /value="other"><span class="option-text"><span class="option-label">Other<\/span>.*<kbd class="key" aria-hidden="true">4<\/kbd><\/label><\/div>/,
    );
    expect(caches).not.toContain('Notes on Other');
  });

  it('GIVEN drafts with notes per option and notes THEN the fields hold them, the marks follow, and a single-select has no notes per option', () => {
    const markup = render({
      question: aSet(),
      memberDrafts: [
        draft({ choices: ['SQLite'], other: false }),
        draft({ choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'Shared </textarea>' }] }),
        draft({ choices: [], other: true }),
      ],
    });
    expect(panel(markup, 0)).toMatch(/value="1" checked><span class="option-text"><span class="option-label">SQLite/);
    expect(panel(markup, 0)).not.toContain('data-notes="choice"');
    expect(markup).toContain(
      'data-choice="0" rows="1" maxlength="3000" placeholder="Optional: why this one, what to watch for">Shared &lt;/textarea&gt;</textarea>',
    );
    expect(panel(markup, 1)).toMatch(
      /<label class="choice-notes" hidden><span class="choice-notes-label">Notes on In-process/,
    );
    expect(markup).toContain(
      '<span class="tab-topic">Naming</span><span class="ready ready-needs-note">needs a note</span>',
    );
    expect(markup).toContain('<span class="set-progress ready-needs-note">2 of 3 ready</span>');
    expect(markup).toContain('data-readiness="needs-note"');
  });

  it('GIVEN every question ready THEN Send is enabled and the review lists each topic with its answer, notes per option nested under the option, and the notes, with the button that sends them all', () => {
    const markup = render({
      question: aSet(),
      memberDrafts: [
        undefined,
        draft({
          choices: ['Redis', 'In-process'],
          other: false,
          choiceNotes: [
            { choice: 'Redis', notes: 'Shared <b>across</b> pods' },
            { choice: 'None', notes: 'kept while unpicked, never shown' },
          ],
          notes: 'Both, layered.',
        }),
        draft({ choices: [], other: true, notes: 'payments' }),
      ],
    });
    expect(markup).toContain('data-readiness="ready"');
    expect(markup).toContain('<span class="set-progress ready-ready">3 of 3 ready</span>');
    expect(markup).toMatch(/data-action="send" aria-describedby="notice-[^"]+">Send<\/button>/);
    const review = markup.slice(markup.indexOf('<section class="review"'));
    expect(review).toMatch(
      /^<section class="review" id="review-[^"]+" aria-labelledby="review-title-[^"]+" hidden><h3 class="review-title" id="review-title-[^"]+">Review #12 before sending<\/h3>/,
    );
    const lines = [
      ...review.matchAll(/<li><p class="review-head">(.*?)<\/li>(?=<li><p class="review-head">|<\/ol>)/g),
    ].map((m) => m[1]);
    expect(lines).toEqual([
      '<span class="qid">#12.1</span><strong class="topic">Database</strong></p><p class="answer">Answer: <strong>Postgres</strong></p>',
      '<span class="qid">#12.2</span><strong class="topic">Caches</strong></p><p class="answer">Answer: <strong>Redis, In-process</strong></p><ul class="choice-notes-list"><li><span class="choice">Redis</span><blockquote class="choice-note">Shared &lt;b&gt;across&lt;/b&gt; pods</blockquote></li></ul><blockquote class="answer-notes">Both, layered.</blockquote>',
      '<span class="qid">#12.3</span><strong class="topic">Naming</strong></p><p class="answer">Answer: <strong>Other</strong></p><blockquote class="answer-notes">payments</blockquote>',
    ]);
    expect(review).toContain('data-action="cancel-review">Back</button>');
    expect(review).toMatch(/id="confirm-[^"]+" class="primary" data-action="confirm">Send all 3 answers<\/button>/);
  });

  it('GIVEN hostile text in every text of a set THEN the card carries none of it as markup', () => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const base = setSpec();
    const markup = render({
      question: aSet(12, {
        context: `Shared ${evil}`,
        members: base.members.map((member, index) => ({
          ...member,
          topic: `T${index}<b>`,
          question: `Q ${evil}`,
          context: `C ${evil}`,
          impact: `I ${evil}`,
          options: member.options.map((option) => ({ ...option, label: `${option.label}"><i>` })),
          recommended: (member.recommended ?? []).map((label) => `${label}"><i>`),
        })),
      }),
      memberDrafts: [undefined, draft({ choices: [], other: true, notes: `</textarea>${evil}` }), undefined],
    });
    expect(markup).not.toMatch(/<script|<img|<b>|<i>/i);
    expect(markup).toContain('<span class="tab-topic">T0&lt;b&gt;</span>');
    expect(markup).toContain('Notes on Redis&quot;&gt;&lt;i&gt;');
  });
});

describe('a single question with the richer answers', () => {
  it('GIVEN a multi-select with several recommended THEN each is starred and checked, with a notes field per picked option beside the answer’s notes', () => {
    const markup = render({ question: aSingle(3, { multiSelect: true, recommended: ['Postgres', 'SQLite'] }) });
    expect(markup.match(/class="option is-recommended"><input type="checkbox"[^>]*checked>/g)).toHaveLength(2);
    expect(markup.match(/<label class="choice-notes">/g)).toHaveLength(2);
    expect(markup).toMatch(/<textarea id="notes-[^"]+" data-notes="answer"/);
    expect(markup).toContain('data-readiness="ready"');
    // No tabs, no review: a single question sends at once.
    expect(markup).not.toMatch(/role="tab"|class="review"/);
  });

  it('GIVEN a single-select THEN there is no notes field per option, only the answer’s notes', () => {
    const markup = render({ question: aSingle(4) });
    expect(markup).not.toContain('data-notes="choice"');
    expect(markup.match(/data-notes="answer"/g)).toHaveLength(1);
  });
});

describe('answers shown', () => {
  const ada = person('U1', 'slack');

  it('GIVEN an answered set THEN the card shows each question’s answer under its ref and topic, notes per option nested, and the notes', () => {
    const markup = render({
      question: aSet(12, {
        status: 'answered',
        answer: {
          members: [
            { choices: ['Postgres'], other: false },
            {
              choices: ['Redis', 'In-process'],
              other: false,
              choiceNotes: [{ choice: 'In-process', notes: 'per pod' }],
            },
            { choices: [], other: true, notes: 'payments' },
          ],
          by: ada,
          at: AT,
        },
      }),
    });
    expect(markup).toContain('class="card is-closed is-set is-blocking"');
    expect(markup).not.toMatch(/<input|<textarea|data-action|role="tab"/);
    expect(markup).toContain('Answered by <strong>Person U1</strong> on Slack');
    const members = [
      ...markup.matchAll(/<li class="member-answer">(.*?)<\/li>(?=<li class="member-answer">|<\/ol>)/g),
    ].map((m) => m[1]);
    expect(members).toEqual([
      '<p class="member-head"><span class="qid">#12.1</span><span class="topic">Database</span></p><p class="member-question">Which database should billing use?</p><p class="answer">Answer: <strong>Postgres</strong></p>',
      '<p class="member-head"><span class="qid">#12.2</span><span class="topic">Caches</span></p><p class="member-question">Which caches may billing use?</p><p class="answer">Answer: <strong>Redis, In-process</strong></p><ul class="choice-notes-list"><li><span class="choice">In-process</span><blockquote class="choice-note">per pod</blockquote></li></ul>',
      '<p class="member-head"><span class="qid">#12.3</span><span class="topic">Naming</span></p><p class="member-question">What do we call the new service?</p><p class="answer">Answer: <strong>Other</strong></p><blockquote class="answer-notes">payments</blockquote>',
    ]);
    // Context and impact, the shared and each question's own, folded away.
    const more = markup.slice(markup.indexOf('<details class="more"'));
    expect(more).toContain('<h3>#12.2 · Caches</h3>');
    expect(more).toContain('Billing reads prices on every request.');
    expect(more).toContain('<h3>#12.3 · Naming</h3>');
    expect(more).not.toContain('#12.1 · Database');
  });

  it('GIVEN an answered multi-select single question with notes per option THEN they are nested under their options', () => {
    const markup = render({
      question: aSingle(5, {
        multiSelect: true,
        status: 'delivered',
        deliveredAt: AT + 1,
        answer: {
          choices: ['Postgres', 'SQLite'],
          other: false,
          notes: 'Both for now.',
          choiceNotes: [{ choice: 'SQLite', notes: 'tests only' }],
          by: ada,
          at: AT,
        },
      }),
    });
    expect(markup).toContain(
      '<p class="answer">Answer: <strong>Postgres, SQLite</strong></p><ul class="choice-notes-list"><li><span class="choice">SQLite</span><blockquote class="choice-note">tests only</blockquote></li></ul><blockquote class="answer-notes">Both for now.</blockquote>',
    );
  });

  it('GIVEN a set in the Answered view THEN the decision shows its topics, each question’s answer and notes, well-formed', () => {
    const decision = aSet(12, {
      status: 'delivered',
      deliveredAt: AT + 60_000,
      deliveredVia: 'prompt',
      answer: {
        members: [
          { choices: ['SQLite'], other: false, notes: 'one file' },
          { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'shared' }] },
          { choices: ['ledger'], other: false },
        ],
        by: ada,
        at: AT,
      },
    }) as Decision;
    const markup = renderDecision(decision, { timeZone: 'UTC' }).toString();
    assertWellFormed(markup);
    expect(markup).toContain('<h2 class="question">Database · Caches · Naming</h2>');
    expect(markup).toContain('<span class="set-size">3 questions</span>');
    expect(markup).toContain(
      '<span class="topic">Database</span></p><p class="member-question">Which database should billing use?</p><p class="answer">Answer: <strong>SQLite</strong></p><blockquote class="answer-notes">one file</blockquote>',
    );
    expect(markup).toContain(
      '<li><span class="choice">Redis</span><blockquote class="choice-note">shared</blockquote></li>',
    );
    expect(markup).toContain('Answer: <strong>ledger</strong>');
  });
});

describe('the inbox with sets', () => {
  const items: WebInboxItem[] = [
    { question: aSet(1) }, // 2 of 3 ready: not sendable
    {
      question: aSet(2, { isBlocking: false }),
      memberDrafts: [undefined, undefined, draft({ choices: ['ledger'], other: false })],
    }, // all ready
    { question: aSingle(3) }, // ready (recommendation)
  ];

  it('GIVEN sets and a single question THEN a set counts once in the filters and in Send N, only when every question is ready, and shows n of m ready', () => {
    const page = inboxPageOf(items, 'all');
    expect(page.counts).toEqual({ all: 3, blocking: 1, 'non-blocking': 2 });
    expect(readyCount(page.items)).toBe(2);
    const fragment = renderInboxFragment({ page, closed: [], projects: [], state: { filter: 'all' } }).toString();
    expect(fragment).toContain('>Send 2 answers</button>');
    expect(fragment).toContain('All <span class="count">3</span>');
    expect(fragment).toContain('<span class="set-progress ready-pick-one">2 of 3 ready</span>');
    expect(fragment).toContain('<span class="set-progress ready-ready">3 of 3 ready</span>');
  });

  it('GIVEN the keys overlay THEN it is a dialog listing every key the client knows', () => {
    const markup = renderKeysHelp().toString();
    assertWellFormed(markup);
    expect(markup).toMatch(/^<dialog id="keys-help" class="keys-help" aria-labelledby="keys-title">/);
    expect(markup.match(/<dt>/g)).toHaveLength(KEY_HELP.length);
    for (const key of ['j', 'k', '1', '7', 'n', 'Enter', 'Esc', '?']) expect(markup).toContain(`<kbd>${key}</kbd>`);
    expect(markup).toContain('data-action="close-keys">Close</button>');
  });
});

describe('the largest accepted set', () => {
  /**
   * `ask_later`'s largest set: 4 questions, 6 options each with labels and descriptions at their limits, every text
   * as long as the set's total allows, and markup-heavy text (`&` and `"` grow the most when escaped).
   */
  function largestSet(): SetSpec {
    const text = (length: number) => '&"<'.repeat(Math.ceil(length / 3)).slice(0, length);
    const members = [0, 1, 2, 3].map((index) => ({
      topic: `${index}${text(TOPIC_MAX - 1)}`,
      question: text(QUESTION_MAX),
      options: Array.from({ length: OPTIONS_MAX }, (_, option) => ({
        label: `${option}${text(OPTION_LABEL_MAX - 1)}`,
        description: text(OPTION_DESCRIPTION_MAX),
      })),
      recommended: [`0${text(OPTION_LABEL_MAX - 1)}`],
      multiSelect: index % 2 === 1,
      isBlocking: index === 0,
    }));
    const used = setTextLength({ context: '', impact: '', members });
    const left = SET_TEXT_MAX - used;
    const raw = {
      context: text(Math.floor(left / 2)),
      impact: text(left - Math.floor(left / 2)),
      ticket: undefined,
      questions: members,
    };
    const parsed = parseAskInput(raw);
    if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
    if (parsed.value.members === undefined) throw new Error('expected a set');
    return parsed.value as SetSpec;
  }

  it('GIVEN the largest set ask_later accepts THEN every state of its card is well-formed: under 64 KB, and the viewer’s own notes add at most twice their length (their fields and the review)', () => {
    const spec = largestSet();
    expect(setTextLength(spec)).toBe(SET_TEXT_MAX);
    const question = { ...spec, ...state(99) } as Question;
    const bare = render({ question }).length;
    expect(bare).toBeLessThan(64 * 1024);

    const memberDrafts = spec.members.map((member) => {
      const choices = member.options.slice(0, member.multiSelect ? OPTIONS_MAX : 1).map((option) => option.label);
      return draft({
        choices,
        other: false,
        notes: 'n'.repeat(NOTES_MAX),
        ...(member.multiSelect
          ? { choiceNotes: choices.map((choice) => ({ choice, notes: 'o'.repeat(NOTES_MAX) })) }
          : {}),
      });
    });
    const typed = memberDrafts.reduce(
      (sum, entry) =>
        sum + (entry.notes?.length ?? 0) + (entry.choiceNotes ?? []).reduce((n, c) => n + c.notes.length, 0),
      0,
    );
    const drafted = render({ question, memberDrafts });
    expect(drafted).toContain('class="review"');
    expect(drafted.length - bare).toBeLessThan(2 * typed + 16 * 1024);

    const answer = {
      members: memberDrafts.map(({ updatedAt: _, ...selection }) => selection),
      by: person(),
      at: AT,
    };
    expect(render({ question: { ...question, status: 'answered', answer } as Question }).length).toBeLessThan(
      64 * 1024 + typed,
    );
  });
});
