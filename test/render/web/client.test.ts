/**
 * The web inbox's client script: the committed bundle is what scripts/bundle-client.mjs builds from the TypeScript
 * sources (a forgotten `npm run build:client` fails here), it parses, writes no markup from data, and its keyboard rule
 * (`client/keys.ts`) does what the `?` overlay says.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { INBOX_CLIENT_SCRIPT } from '../../../src/generated/web-inbox-client.js';
import { type KeyAction, type KeyContext, type KeyTarget, keyAction } from '../../../src/render/web/client/keys.js';

const root = new URL('../../../', import.meta.url).pathname;

describe('the bundle', () => {
  it('GIVEN the TypeScript sources THEN src/generated/web-inbox-client.ts is exactly what scripts/bundle-client.mjs builds from them', () => {
    const fresh = execFileSync(process.execPath, ['scripts/bundle-client.mjs', '--stdout'], {
      cwd: root,
      encoding: 'utf8',
    });
    const committed = readFileSync(new URL('../../../src/generated/web-inbox-client.ts', import.meta.url), 'utf8');
    expect(committed === fresh, 'src/generated/web-inbox-client.ts is stale: run `npm run build:client`').toBe(true);
  });

  it('GIVEN the served script THEN it parses as a classic script, knows the routes, and writes markup only by swapping in the server’s fragment', () => {
    expect(() => new Script(INBOX_CLIENT_SCRIPT)).not.toThrow();
    expect(INBOX_CLIENT_SCRIPT).not.toMatch(/^\s*(?:import|export)\s/m);
    for (const path of ['/api/draft', '/api/review', '/api/send', '/api/send-ready', '/api/remove', '/events']) {
      expect(INBOX_CLIENT_SCRIPT).toContain(`"${path}"`);
    }
    expect(INBOX_CLIENT_SCRIPT.match(/innerHTML/g)).toEqual(['innerHTML']);
    expect(INBOX_CLIENT_SCRIPT).toContain('template.innerHTML = markup;');
    expect(INBOX_CLIENT_SCRIPT).not.toMatch(/insertAdjacentHTML|outerHTML|document\.write|eval\(|new Function/);
  });
});

const press = (key: string, modifiers: Partial<Record<'ctrlKey' | 'altKey' | 'metaKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...modifiers,
});
const at = (target: KeyTarget, inCard = target !== 'page', isSet = false): KeyContext => ({ target, inCard, isSet });

describe('the keys', () => {
  it.each<[string, string, KeyContext, KeyAction | undefined]>([
    ['1 on a card', '1', at('card'), { kind: 'pick', row: 0 }],
    ['7 (Other after six options) on a radio', '7', at('radio'), { kind: 'pick', row: 6 }],
    ['8: no picker has an eighth row', '8', at('card'), undefined],
    ['3 on a set’s tab', '3', at('tab', true, true), { kind: 'pick', row: 2 }],
    ['a digit outside any card', '1', at('page'), undefined],
    ['n on a checkbox', 'n', at('checkbox'), { kind: 'notes' }],
    ['Enter on the card', 'Enter', at('card'), { kind: 'send' }],
    ['Enter on a radio', 'Enter', at('radio'), { kind: 'send' }],
    ['Enter on a set’s tab', 'Enter', at('tab', true, true), { kind: 'send' }],
    ['Enter on a button (the browser clicks it)', 'Enter', at('control'), undefined],
    ['Escape in a notes field', 'Escape', at('text'), { kind: 'leave' }],
    ['Escape on a card’s control', 'Escape', at('control'), { kind: 'leave' }],
    ['Escape outside any card', 'Escape', at('page'), undefined],
    ['? anywhere but a field', '?', at('page'), { kind: 'help' }],
    ['j outside a card', 'j', at('page'), { kind: 'card', by: 1 }],
    ['k on a card', 'k', at('card'), { kind: 'card', by: -1 }],
    ['ArrowDown on a checkbox', 'ArrowDown', at('checkbox'), { kind: 'row', by: 1 }],
    ['ArrowUp on the card', 'ArrowUp', at('card'), { kind: 'row', by: -1 }],
    ['ArrowDown on a radio (the radio group moves its pick itself)', 'ArrowDown', at('radio'), undefined],
    ['ArrowRight on a tab', 'ArrowRight', at('tab', true, true), { kind: 'tab', to: 'next' }],
    ['ArrowLeft on a set’s card', 'ArrowLeft', at('card', true, true), { kind: 'tab', to: 'previous' }],
    ['ArrowLeft on a single question’s card', 'ArrowLeft', at('card'), undefined],
    ['Home on a tab', 'Home', at('tab', true, true), { kind: 'tab', to: 'first' }],
    ['End on a tab', 'End', at('tab', true, true), { kind: 'tab', to: 'last' }],
    ['Space on a checkbox (the browser toggles it)', ' ', at('checkbox'), undefined],
  ])('GIVEN %s THEN the action is as the overlay says', (_, key, context, action) => {
    expect(keyAction(press(key), context)).toEqual(action);
  });

  it.each([
    '1',
    'n',
    'j',
    '?',
    'Enter',
    'ArrowDown',
    ' ',
  ])('GIVEN %j typed in a text field THEN it stays text', (key) => {
    expect(keyAction(press(key), at('text'))).toBeUndefined();
  });

  it.each([
    { ctrlKey: true },
    { altKey: true },
    { metaKey: true },
  ])('GIVEN a modifier (%o) THEN no key is ours', (modifier) => {
    for (const key of ['1', 'n', 'Enter', '?', 'j', 'Escape']) {
      expect(keyAction(press(key, modifier), at('card'))).toBeUndefined();
    }
  });
});
