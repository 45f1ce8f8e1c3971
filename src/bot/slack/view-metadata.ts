/**
 * Where a view was opened from, kept in its `private_metadata` (≤ 3,000 characters) so a later interaction with it
 * knows its place (the channel, for routing and access) and what to refresh — on any replica, after any restart.
 *
 * - The inbox: blocks' `{"filter","after","back"}` JSON plus `"channel"` (absent on the Home tab). `parseInboxState`
 *   ignores the extra field, so blocks' own reader still works on it.
 * - The notes modal: blocks put the bare ref there; we replace it with `{"ref", "channel"?, "inbox"?}` and read
 *   either form (the bare ref meaning: no known origin).
 */
import {
  formatInboxState,
  type InboxFilter,
  type InboxState,
  inboxStateFields,
  parseInboxState,
  readInboxState,
  refFromNotesMetadata,
} from '../../blocks/slack/ids.js';
import type { SlackView } from '../../blocks/slack/types.js';
import { obj, slackId, str } from './payload.js';

/** An inbox as shown: its state, where it lives, and (modal) its view id. */
export interface InboxOrigin extends InboxState {
  readonly surface: 'modal' | 'home';
  /** The channel `/questions` was run in; absent on the Home tab (every project routed on Slack). */
  readonly channel?: string;
  /** The inbox modal under a pushed notes modal, to refresh it after Save. */
  readonly viewId?: string;
}

export interface NotesOrigin {
  readonly ref: string;
  /** The channel of the message whose "Add notes" opened it. */
  readonly channel?: string;
  /** Set when opened from the inbox (pushed over the modal, or over the Home tab). */
  readonly inbox?: InboxOrigin;
}

/** The inbox view with its channel added to the metadata. */
export function withInboxMetadata(view: SlackView, channel: string | undefined): SlackView {
  const state = parseInboxState(view.private_metadata) ?? { filter: 'all' };
  if (channel === undefined) return { ...view, private_metadata: formatInboxState(state) };
  return { ...view, private_metadata: JSON.stringify({ ...inboxStateFields(state), channel }) };
}

/** The inbox's state and channel from its metadata (an unreadable one shows the first page of everything). */
export function readInboxMetadata(privateMetadata: string | undefined): { state: InboxState; channel?: string } {
  const state = parseInboxState(privateMetadata) ?? { filter: 'all' as InboxFilter };
  let channel: string | undefined;
  try {
    channel = slackId(obj(JSON.parse(privateMetadata ?? ''))?.channel);
  } catch {
    channel = undefined;
  }
  return channel === undefined ? { state } : { state, channel };
}

/** The notes modal with its origin in the metadata. */
export function withNotesOrigin<V extends SlackView>(view: V, origin: NotesOrigin): V {
  return { ...view, private_metadata: JSON.stringify(origin) };
}

export function readNotesOrigin(privateMetadata: string | undefined): NotesOrigin | undefined {
  const bare = refFromNotesMetadata(privateMetadata);
  if (bare !== undefined) return { ref: bare };
  let parsed: unknown;
  try {
    parsed = JSON.parse(privateMetadata ?? '');
  } catch {
    return undefined;
  }
  const o = obj(parsed);
  const ref = refFromNotesMetadata(o?.ref);
  if (!o || ref === undefined) return undefined;
  const channel = slackId(o.channel);
  const inbox = readInboxOrigin(o.inbox);
  return { ref, ...(channel !== undefined ? { channel } : {}), ...(inbox !== undefined ? { inbox } : {}) };
}

function readInboxOrigin(value: unknown): InboxOrigin | undefined {
  const o = obj(value);
  if (!o || (o.surface !== 'modal' && o.surface !== 'home')) return undefined;
  const state = readInboxState({ filter: o.filter, after: o.after, back: o.back });
  if (!state) return undefined;
  const channel = slackId(o.channel);
  const viewId = str(o.viewId, 64) === undefined ? undefined : slackId(o.viewId);
  return {
    ...state,
    surface: o.surface,
    ...(channel !== undefined ? { channel } : {}),
    ...(viewId !== undefined ? { viewId } : {}),
  };
}
