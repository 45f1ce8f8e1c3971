/**
 * The `callback_data` of every button ask-later draws, at most 64 bytes (a question ref is 26), and its parser.
 * Input from the edge: {@link parseCallbackData} returns undefined for anything it does not recognise.
 *
 * | data                           | button                                                      |
 * | ------------------------------ | ----------------------------------------------------------- |
 * | `p:<ref>:<m>:<o>`              | option `o` of item `m` (`-`: a single question)             |
 * | `x:<ref>:<m>`                  | Other of item `m`                                           |
 * | `n:<ref>:<m>[:<o>]`            | Notes of item `m` (of its picked option `o`)                |
 * | `t:<ref>:<m>`                  | show a set's member `m`                                     |
 * | `s:<ref>`                      | Send (a set: its review first)                              |
 * | `y:<ref>:<check>`              | the review's "Send answers"                                 |
 * | `r:<ref>`, `rr:<ref>`, `rk:<ref>` | Remove, its confirmation, Keep                           |
 * | `q:<f>[:<after>]`              | the inbox (`/questions`): filter `a`/`b`/`n`, page after    |
 * | `qs:<f>[:<after>]`             | the inbox's "Send N answers" (the refs its keyboard shows)  |
 * | `qo:<ref>`                     | the inbox's question: point at its message                  |
 */
import type { InboxFilter } from '../../core/inbox.js';
import { parseQuestionRef } from '../../core/question-ref.js';

export interface InboxState {
  readonly filter: InboxFilter;
  /** The ref of the last question of the page before; absent: the first page. */
  readonly after?: string;
}

export type CallbackData =
  | { readonly kind: 'pick'; readonly ref: string; readonly member?: number; readonly option: number }
  | { readonly kind: 'other'; readonly ref: string; readonly member?: number }
  | { readonly kind: 'notes'; readonly ref: string; readonly member?: number; readonly option?: number }
  | { readonly kind: 'member'; readonly ref: string; readonly member: number }
  | { readonly kind: 'send'; readonly ref: string }
  | { readonly kind: 'send-yes'; readonly ref: string; readonly check: string }
  | { readonly kind: 'remove'; readonly ref: string }
  | { readonly kind: 'remove-yes'; readonly ref: string }
  | { readonly kind: 'remove-no'; readonly ref: string }
  | { readonly kind: 'inbox'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-send'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-open'; readonly ref: string };

const FILTER_CODES: Readonly<Record<InboxFilter, string>> = { all: 'a', blocking: 'b', 'non-blocking': 'n' };

function item(member: number | undefined): string {
  return member === undefined ? '-' : String(member);
}

function inboxPart(state: InboxState): string {
  return `${FILTER_CODES[state.filter]}${state.after === undefined ? '' : `:${state.after}`}`;
}

export function formatCallbackData(data: CallbackData): string {
  switch (data.kind) {
    case 'pick':
      return `p:${data.ref}:${item(data.member)}:${data.option}`;
    case 'other':
      return `x:${data.ref}:${item(data.member)}`;
    case 'notes':
      return `n:${data.ref}:${item(data.member)}${data.option === undefined ? '' : `:${data.option}`}`;
    case 'member':
      return `t:${data.ref}:${data.member}`;
    case 'send':
      return `s:${data.ref}`;
    case 'send-yes':
      return `y:${data.ref}:${data.check}`;
    case 'remove':
      return `r:${data.ref}`;
    case 'remove-yes':
      return `rr:${data.ref}`;
    case 'remove-no':
      return `rk:${data.ref}`;
    case 'inbox':
      return `q:${inboxPart(data.inbox)}`;
    case 'inbox-send':
      return `qs:${inboxPart(data.inbox)}`;
    case 'inbox-open':
      return `qo:${data.ref}`;
  }
}

/** A member or option index: one digit (a set holds at most 4 members, a question 6 options). */
function index(text: string | undefined): number | undefined {
  return text !== undefined && /^\d$/.test(text) ? Number(text) : undefined;
}

/** `-` (a single question) or a member index; `null` when unreadable. */
function memberOf(text: string | undefined): number | undefined | null {
  if (text === '-') return undefined;
  return index(text) ?? null;
}

function inboxState(parts: readonly string[]): InboxState | undefined {
  const [code, after, ...rest] = parts;
  const filter = (Object.keys(FILTER_CODES) as InboxFilter[]).find((key) => FILTER_CODES[key] === code);
  if (filter === undefined || rest.length > 0) return undefined;
  if (after === undefined) return { filter };
  return parseQuestionRef(after) === undefined ? undefined : { filter, after };
}

export function parseCallbackData(data: unknown): CallbackData | undefined {
  if (typeof data !== 'string' || data.length > 64) return undefined;
  const [verb, first, ...rest] = data.split(':');
  if (verb === 'q' || verb === 'qs') {
    const inbox = inboxState([first ?? '', ...rest]);
    return inbox === undefined ? undefined : { kind: verb === 'q' ? 'inbox' : 'inbox-send', inbox };
  }
  const ref = first;
  if (ref === undefined || parseQuestionRef(ref) === undefined) return undefined;
  const [a, b, ...extra] = rest;
  if (extra.length > 0) return undefined;
  const member = memberOf(a);
  const m = (value: number | undefined) => (value === undefined ? {} : { member: value });
  switch (verb) {
    case 'p': {
      const option = index(b);
      return member === null || option === undefined ? undefined : { kind: 'pick', ref, ...m(member), option };
    }
    case 'x':
      return member === null || b !== undefined ? undefined : { kind: 'other', ref, ...m(member) };
    case 'n': {
      const option = index(b);
      if (member === null || (b !== undefined && option === undefined)) return undefined;
      return { kind: 'notes', ref, ...m(member), ...(option === undefined ? {} : { option }) };
    }
    case 't':
      return member === null || member === undefined || b !== undefined ? undefined : { kind: 'member', ref, member };
    case 'y':
      return a !== undefined && /^[A-Za-z0-9_-]{8}$/.test(a) && b === undefined
        ? { kind: 'send-yes', ref, check: a }
        : undefined;
  }
  if (a !== undefined) return undefined;
  switch (verb) {
    case 's':
      return { kind: 'send', ref };
    case 'r':
      return { kind: 'remove', ref };
    case 'rr':
      return { kind: 'remove-yes', ref };
    case 'rk':
      return { kind: 'remove-no', ref };
    case 'qo':
      return { kind: 'inbox-open', ref };
    default:
      return undefined;
  }
}
