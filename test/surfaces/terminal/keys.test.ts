/**
 * The keyboard inbox's keys as pure rules: Ink's key events read by the web inbox's rule, the terminal's own keys,
 * a typed chunk split into keys, a row picked or toggled, and a notes field typed into.
 */
import { describe, expect, it } from 'vitest';
import type { QuestionItem } from '../../../src/core/question.js';
import { rowPick, typeInto } from '../../../src/surfaces/terminal/edits.js';
import { keyOf, screenKey } from '../../../src/surfaces/terminal/keys.js';
import { withCursor } from '../../../src/surfaces/terminal/screen.js';

const none = keyOf('a');
const card = { inCard: true, isSet: false };
const set = { inCard: true, isSet: true };

describe('the keyboard inbox’s keys', () => {
  it('GIVEN the web inbox’s keys THEN they do here what they do on the page', () => {
    expect(screenKey('j', none, card)).toEqual({ kind: 'card', by: 1 });
    expect(screenKey('k', none, { inCard: false, isSet: false })).toEqual({ kind: 'card', by: -1 });
    expect(screenKey('7', none, card)).toEqual({ kind: 'pick', row: 6 });
    expect(screenKey('8', none, card)).toBeUndefined();
    expect(screenKey('n', none, card)).toEqual({ kind: 'notes' });
    expect(screenKey('?', none, card)).toEqual({ kind: 'help' });
    expect(screenKey('', { ...none, return: true }, card)).toEqual({ kind: 'send' });
    expect(screenKey('', { ...none, downArrow: true }, card)).toEqual({ kind: 'row', by: 1 });
    expect(screenKey('', { ...none, rightArrow: true }, set)).toEqual({ kind: 'tab', to: 'next' });
    expect(screenKey('', { ...none, rightArrow: true }, card)).toBeUndefined();
    expect(screenKey('', { ...none, home: true }, set)).toEqual({ kind: 'tab', to: 'first' });
  });

  it('GIVEN the terminal’s own keys THEN Space, q, S, x, Tab, p and the pages act; a modifier never does', () => {
    expect(screenKey(' ', none, card)).toEqual({ kind: 'toggle' });
    expect(screenKey('q', none, card)).toEqual({ kind: 'quit' });
    expect(screenKey('S', none, card)).toEqual({ kind: 'send-ready' });
    expect(screenKey('x', none, card)).toEqual({ kind: 'remove' });
    expect(screenKey('x', none, { inCard: false, isSet: false })).toBeUndefined();
    expect(screenKey('', { ...none, tab: true, shift: true }, card)).toEqual({ kind: 'filter', by: -1 });
    expect(screenKey('p', none, card)).toEqual({ kind: 'project' });
    expect(screenKey('', { ...none, pageDown: true }, card)).toEqual({ kind: 'scroll', by: 1 });
    expect(screenKey('j', { ...none, ctrl: true }, card)).toBeUndefined();
  });

  it('GIVEN characters of a typed chunk THEN Enter, Tab and Backspace are keys', () => {
    expect(keyOf('\r').return).toBe(true);
    expect(keyOf('\t').tab).toBe(true);
    expect(keyOf('\u007f').backspace).toBe(true);
    expect(keyOf('3')).toEqual(none);
  });

  it('GIVEN a row THEN a single-select picks it alone, a multi-select toggles it and keeps the rest', () => {
    const options = [{ label: 'Redis' }, { label: 'Memcached' }, { label: 'None' }];
    const single: QuestionItem = { question: 'Which cache?', options, multiSelect: false, isBlocking: false };
    const multi: QuestionItem = { ...single, multiSelect: true };
    const shown = { choices: ['Redis', 'None'], other: false };
    expect(rowPick(1)(single, shown)).toEqual({ choices: ['Memcached'], other: false });
    expect(rowPick(3)(single, shown)).toEqual({ choices: [], other: true });
    expect(rowPick(1)(multi, shown)).toEqual({ choices: ['Redis', 'Memcached', 'None'], other: false });
    expect(rowPick(0)(multi, shown)).toEqual({ choices: ['None'], other: false });
    expect(rowPick(3)(multi, shown)).toEqual({ choices: ['Redis', 'None'], other: true });
  });

  it('GIVEN a notes field THEN text is added, Backspace takes one character (an emoji whole), Enter and Escape end it', () => {
    const field = { ref: 'r', text: 'ok 👍🏽' };
    expect(typeInto(field, '!', none)).toEqual({ ref: 'r', text: 'ok 👍🏽!' });
    expect(typeInto(field, '', { ...none, backspace: true })).toEqual({ ref: 'r', text: 'ok ' });
    expect(typeInto(field, '\u0007', none)).toEqual(field);
    expect(typeInto(field, '', { ...none, return: true })).toBe('done');
    expect(typeInto(field, '', { ...none, escape: true })).toBe('done');
  });

  it('GIVEN a notes field THEN Left / Right / Home / End move the cursor (an emoji whole), typing and Backspace work at it, and it is drawn there', () => {
    const field = { ref: 'r', text: 'ok 👍🏽' };
    const left = typeInto(field, '', { ...none, leftArrow: true });
    expect(left).toEqual({ ref: 'r', text: 'ok 👍🏽', cursor: 3 });
    if (left === 'done') throw new Error('not done');
    expect(withCursor(left)).toBe('ok █👍🏽');
    const typed = typeInto(left, 'go', none);
    expect(typed).toEqual({ ref: 'r', text: 'ok go👍🏽', cursor: 5 });
    if (typed === 'done') throw new Error('not done');
    const home = typeInto(typed, '', { ...none, home: true });
    expect(home).toEqual({ ref: 'r', text: 'ok go👍🏽', cursor: 0 });
    if (home === 'done') throw new Error('not done');
    // Nothing before the cursor: Backspace leaves the field; Left stays at the start.
    expect(typeInto(home, '', { ...none, backspace: true })).toEqual(home);
    expect(typeInto(home, '', { ...none, leftArrow: true })).toEqual(home);
    const right = typeInto(home, '', { ...none, rightArrow: true });
    expect(right).toEqual({ ref: 'r', text: 'ok go👍🏽', cursor: 1 });
    if (right === 'done') throw new Error('not done');
    expect(typeInto(right, '', { ...none, backspace: true })).toEqual({ ref: 'r', text: 'k go👍🏽', cursor: 0 });
    // End: the cursor at the end again, where typing adds.
    expect(typeInto(right, '', { ...none, end: true })).toEqual({ ref: 'r', text: 'ok go👍🏽' });
    expect(withCursor(field)).toBe('ok 👍🏽█');
  });
});
