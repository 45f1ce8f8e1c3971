/**
 * The web inbox's keyboard, as a pure rule: which key, pressed where, does what. The client script (`inbox.ts`)
 * asks {@link keyAction} on every keydown and carries the action out; the page's `?` overlay lists
 * {@link KEY_HELP}. No DOM here, so the rule is tested in Node and shared with the server's renderer.
 *
 * Keys typed inside a text field stay text: there only Escape acts (it leaves the field). Keys the browser already
 * gives meaning to are left to it: Enter and Space on a button, link or summary, arrows on a radio group (they move
 * the pick, as a radio group does), Tab everywhere. A modifier (Ctrl, Alt, Meta) is never ours.
 */

/** What has the focus when a key is pressed. */
export type KeyTarget =
  /** A textarea, a text input or a select: keys are text (or the select's own). */
  | 'text'
  /** A radio button of a single-select picker. */
  | 'radio'
  /** A checkbox of a multi-select picker. */
  | 'checkbox'
  /** A tab of a set (one tab per question of the set). */
  | 'tab'
  /** The card itself (a question, or a set). */
  | 'card'
  /** A button, link or summary: Enter and Space are the browser's. */
  | 'control'
  /** Nothing of a card (the page, the toolbar). */
  | 'page';

/** The key as the event reports it. */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
}

/** What a key does. Picks count from 0 over the picker's rows in order (the options, then Other). */
export type KeyAction =
  | { readonly kind: 'help' }
  | { readonly kind: 'pick'; readonly row: number }
  | { readonly kind: 'notes' }
  | { readonly kind: 'send' }
  | { readonly kind: 'leave' }
  | { readonly kind: 'row'; readonly by: 1 | -1 }
  | { readonly kind: 'tab'; readonly to: 'next' | 'previous' | 'first' | 'last' }
  | { readonly kind: 'card'; readonly by: 1 | -1 };

/** Where the key was pressed: what has the focus, and whether it is inside a card that is a set. */
export interface KeyContext {
  readonly target: KeyTarget;
  /** The focus is in a waiting card (a question or a set). */
  readonly inCard: boolean;
  /** That card is a set (it has tabs). */
  readonly isSet: boolean;
}

/** The most rows a picker has: 6 options and Other (`OPTIONS_MAX` + 1), so keys 1 to 7. */
export const PICK_KEYS_MAX = 7;

/** The action for a key pressed in `context`, or undefined: the key is left to the browser. */
export function keyAction(press: KeyPress, context: KeyContext): KeyAction | undefined {
  if (press.ctrlKey || press.altKey || press.metaKey) return undefined;
  const { key } = press;
  const { target } = context;
  if (target === 'text') return key === 'Escape' ? { kind: 'leave' } : undefined;
  if (key === '?') return { kind: 'help' };
  if (key === 'Escape') return context.inCard ? { kind: 'leave' } : undefined;
  if (key === 'j') return { kind: 'card', by: 1 };
  if (key === 'k') return { kind: 'card', by: -1 };
  if (!context.inCard) return undefined;

  if (/^[1-9]$/.test(key)) {
    const row = Number(key) - 1;
    return row < PICK_KEYS_MAX ? { kind: 'pick', row } : undefined;
  }
  if (key === 'n') return { kind: 'notes' };
  if (key === 'Enter') return target === 'control' ? undefined : { kind: 'send' };
  switch (key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const by = key === 'ArrowDown' ? 1 : -1;
      // A radio group moves its pick with the arrows itself; a checkbox list and the card move the focus.
      return target === 'checkbox' || target === 'card' ? { kind: 'row', by } : undefined;
    }
    case 'ArrowLeft':
    case 'ArrowRight': {
      const to = key === 'ArrowRight' ? 'next' : 'previous';
      return target === 'tab' || (target === 'card' && context.isSet) ? { kind: 'tab', to } : undefined;
    }
    case 'Home':
    case 'End':
      return target === 'tab' ? { kind: 'tab', to: key === 'Home' ? 'first' : 'last' } : undefined;
    default:
      return undefined;
  }
}

/** One line of the `?` overlay: the keys, and what they do. */
export interface KeyHelp {
  readonly keys: readonly string[];
  readonly what: string;
}

/** What the `?` overlay lists, in the order a person answers. */
export const KEY_HELP: readonly KeyHelp[] = [
  { keys: ['j', 'k'], what: 'Next / previous question' },
  { keys: ['1', '…', '7'], what: 'Pick that option of the focused question (the last number is Other)' },
  { keys: ['↑', '↓', 'Space'], what: 'Move between the options; Space picks or unpicks' },
  { keys: ['←', '→'], what: 'Previous / next question of a set (its tabs)' },
  { keys: ['n'], what: 'Notes for the focused option (multi-select), else the answer’s notes' },
  { keys: ['Enter'], what: 'Send the focused question; a set shows its review first, Enter again sends it' },
  { keys: ['Esc'], what: 'Leave a field, close the review (back to the card)' },
  { keys: ['?'], what: 'Show or hide these keys' },
];
