/**
 * The keyboard inbox's keys: the web inbox's rule (`render/web/client/keys.ts`: j/k, 1–7, arrows, n, Enter, Escape,
 * ?) read from Ink's key events, and what only a terminal needs besides (Space on the focused option, q to quit, the
 * filters and the project on Tab and p, S for Send N, x for Remove). Pure.
 */
import { type KeyAction, keyAction } from '../../render/web/client/keys.js';

/** The key as Ink reports it (`useInput`'s arguments, the fields read here). */
export interface InkKey {
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly leftArrow: boolean;
  readonly rightArrow: boolean;
  readonly home: boolean;
  readonly pageUp: boolean;
  readonly pageDown: boolean;
  readonly end: boolean;
  readonly return: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
  readonly meta: boolean;
  readonly shift: boolean;
  readonly tab: boolean;
  readonly backspace: boolean;
  readonly delete: boolean;
}

/** The key one character of a chunk of typed text is (Enter, Tab and Backspace are characters too). */
export function keyOf(char: string): InkKey {
  const none = { upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, home: false, end: false };
  const pages = { pageUp: false, pageDown: false };
  return {
    ...none,
    ...pages,
    return: char === '\r' || char === '\n',
    escape: false,
    ctrl: false,
    meta: false,
    shift: false,
    tab: char === '\t',
    backspace: char === '\u007f' || char === '\b',
    delete: false,
  };
}

/** What a key does on the inbox (not while typing notes, nor in a review or a confirmation). */
export type ScreenKey =
  | KeyAction
  | { readonly kind: 'toggle' }
  | { readonly kind: 'quit' }
  | { readonly kind: 'send-ready' }
  | { readonly kind: 'remove' }
  | { readonly kind: 'filter'; readonly by: 1 | -1 }
  | { readonly kind: 'project' }
  | { readonly kind: 'scroll'; readonly by: 1 | -1 };

/** The key's name as a browser's `KeyboardEvent.key` says it, so the web inbox's rule reads it. */
export function keyName(input: string, key: InkKey): string {
  if (key.return) return 'Enter';
  if (key.escape) return 'Escape';
  if (key.upArrow) return 'ArrowUp';
  if (key.downArrow) return 'ArrowDown';
  if (key.leftArrow) return 'ArrowLeft';
  if (key.rightArrow) return 'ArrowRight';
  if (key.home) return 'Home';
  if (key.end) return 'End';
  if (key.tab) return 'Tab';
  return input;
}

/** What `input` does on the inbox, given whether a question is focused and is a set. */
export function screenKey(
  input: string,
  key: InkKey,
  context: { readonly inCard: boolean; readonly isSet: boolean },
): ScreenKey | undefined {
  if (key.ctrl || key.meta) return undefined;
  if (key.tab) return { kind: 'filter', by: key.shift ? -1 : 1 };
  if (key.pageUp || key.pageDown) return { kind: 'scroll', by: key.pageDown ? 1 : -1 };
  if (input === 'q') return { kind: 'quit' };
  if (input === 'p') return { kind: 'project' };
  if (input === 'S') return { kind: 'send-ready' };
  if (context.inCard && input === ' ') return { kind: 'toggle' };
  if (context.inCard && input === 'x') return { kind: 'remove' };
  const name = keyName(input, key);
  // Home/End move between a set's tabs, as on the web page's tab list.
  const target = context.isSet && (name === 'Home' || name === 'End') ? 'tab' : context.inCard ? 'card' : 'page';
  return keyAction({ key: name, ctrlKey: false, altKey: false, metaKey: false }, { target, ...context });
}
