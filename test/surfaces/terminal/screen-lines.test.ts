/**
 * The keyboard inbox's screen as pure lines: whatever the terminal's size, exactly its height of lines, none wider
 * than it, in every state the screen can be in (a notes field, a review, a confirmation, the keys).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InboxPage } from '../../../src/core/inbox.js';
import type { Question } from '../../../src/core/question.js';
import { plain } from '../../../src/render/terminal/style.js';
import { columns } from '../../../src/render/terminal/wrap.js';
import { reviewOf } from '../../../src/surfaces/review.js';
import { type ScreenView, screenLines } from '../../../src/surfaces/terminal/screen.js';
import { setSpec, spec } from '../../support/store.js';

const long = 'A long paragraph of context, with 界 wide characters and an emoji 😀 in it. '.repeat(6);
const set = {
  ...setSpec({ context: long }),
  project: '/srv/repos/shop',
  id: 3,
  status: 'pending',
  createdAt: 0,
  messages: [],
} as Question;
const single = {
  ...spec({ ticket: 'SHOP-1' }),
  project: '/srv/repos/api',
  id: 1,
  status: 'pending',
  createdAt: 0,
  messages: [],
} as Question;
const page: InboxPage = {
  filter: 'all',
  items: [{ question: set }, { question: single, draft: { choices: [], other: true, notes: long, updatedAt: 0 } }],
  counts: { all: 2, blocking: 1, 'non-blocking': 1 },
  offset: 0,
  remaining: 0,
};

describe('the keyboard inbox’s screen', () => {
  it('GIVEN any terminal size and state THEN exactly its height of lines, none wider than it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 160 }),
        fc.integer({ min: 8, max: 60 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('notes', 'review', 'confirm', 'help', 'plain'),
        fc.integer({ min: -3, max: 3 }),
        (width, height, focus, member, state, scroll) => {
          const view: ScreenView = {
            width,
            height,
            who: 'ada',
            focus,
            member,
            option: 1,
            scroll,
            messages: [{ text: long, ok: false }],
            live: true,
            ...(state === 'notes' ? { notes: { ref: 'x.3', member, choice: 'Redis', text: long } } : {}),
            ...(state === 'review' ? { review: reviewOf(set, []) } : {}),
            ...(state === 'confirm' ? { confirmRemove: true } : {}),
            ...(state === 'help' ? { help: true } : {}),
          };
          const lines = screenLines(page, view);
          expect(lines).toHaveLength(height);
          for (const line of lines) expect(columns(plain(line))).toBeLessThanOrEqual(width);
        },
      ),
      { numRuns: 40 },
    );
  });
});
