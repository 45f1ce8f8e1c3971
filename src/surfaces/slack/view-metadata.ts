/**
 * Where a view was opened from, kept in its `private_metadata` (≤ 3,000 characters) so a later interaction with it
 * knows its place (the channel, for routing and access) and what to refresh — on any replica, after any restart.
 *
 * - The inbox: blocks' `{"filter","after","back"}` JSON plus `"channel"` (absent on the Home tab). `parseInboxState`
 *   ignores the extra field, so blocks' own reader still works on it.
 * - The notes modal: blocks put the bare ref there (`{"ref","member"}` for a member of a set); we replace it with
 *   `{"ref", "member"?, "channel"?, "inbox"?}` and read every form (the bare ref meaning: no known origin).
 * - The review modal of a set: blocks put the bare ref there; we replace it with `{"ref", "channel", "picks", "fp"}`:
 *   the picks that were reviewed (each member's select values, as the message showed them) and a fingerprint of the
 *   review, so its submit sends exactly what was reviewed, and refuses (showing the review again) if the drafts'
 *   notes changed meanwhile. At most 4 members × 7 values of ≤ 5 characters: far under 3,000.
 */
import {
  formatInboxState,
  type InboxFilter,
  type InboxState,
  inboxStateFields,
  parseInboxState,
  parseMetadataJson,
  parseNotesMetadata,
  parseRefValue,
  readInboxState,
} from '../../render/slack/ids.js';
import type { SlackView } from '../../render/slack/types.js';
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
  /** The member of a set the notes are for (0-based); absent for a single question. */
  readonly member?: number;
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
  const channel = slackId(obj(parseMetadataJson(privateMetadata))?.channel);
  return channel === undefined ? { state } : { state, channel };
}

/** The notes modal with its origin in the metadata. */
export function withNotesOrigin<V extends SlackView>(view: V, origin: NotesOrigin): V {
  return { ...view, private_metadata: JSON.stringify(origin) };
}

export function readNotesOrigin(privateMetadata: string | undefined): NotesOrigin | undefined {
  const blocks = parseNotesMetadata(privateMetadata);
  const o = obj(parseMetadataJson(privateMetadata));
  if (blocks === undefined || o === undefined) return blocks;
  const channel = slackId(o.channel);
  const inbox = readInboxOrigin(o.inbox);
  return {
    ...blocks,
    ...(channel !== undefined ? { channel } : {}),
    ...(inbox !== undefined ? { inbox } : {}),
  };
}

/** What a set's review modal reviewed: where, which picks (each member's select values, null: not shown), and a fingerprint. */
export interface ReviewOrigin {
  readonly ref: string;
  readonly channel: string;
  readonly picks: readonly (readonly string[] | null)[];
  /** A fingerprint of the review shown (selections and notes), see `handlers.ts`. */
  readonly fp: string;
}

/** The review modal with what it reviewed in the metadata. */
export function withReviewOrigin<V extends SlackView>(view: V, origin: ReviewOrigin): V {
  return { ...view, private_metadata: JSON.stringify(origin) };
}

export function readReviewOrigin(privateMetadata: string | undefined): ReviewOrigin | undefined {
  const o = obj(parseMetadataJson(privateMetadata));
  const ref = parseRefValue(o?.ref);
  const channel = slackId(o?.channel);
  const fp = str(o?.fp, 64);
  if (!o || ref === undefined || channel === undefined || fp === undefined || !Array.isArray(o.picks)) return undefined;
  if (o.picks.length > 9) return undefined;
  const picks: (string[] | null)[] = [];
  for (const entry of o.picks) {
    if (entry === null) picks.push(null);
    else if (Array.isArray(entry) && entry.length <= 100 && entry.every((value) => str(value, 8) !== undefined)) {
      picks.push(entry as string[]);
    } else return undefined;
  }
  return { ref, channel, picks, fp };
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
