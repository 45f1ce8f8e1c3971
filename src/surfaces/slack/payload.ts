/**
 * Reading Slack's interaction payloads: unknown JSON from the edge, read with small guards. Every reader returns
 * undefined for a shape it does not recognise; the handler then acks, logs ids and drops the payload.
 * Nothing here trusts a field's type because Slack documents it: payloads can be forged (after the signature check
 * only by the holder of the secret, but a replayed, truncated or future-shaped payload must still not throw).
 */
import { parseQuestionBlockId } from '../../render/slack/ids.js';
import type { Actor } from '../interactions.js';

export type Json = Record<string, unknown>;

/** `value` when it is a plain object, else undefined. */
export function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `value` when it is a non-empty string (at most `max` characters), else undefined. */
export function str(value: unknown, max = 3000): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= max ? value : undefined;
}

/** A Slack id: letters and digits (U…, C…, V…, B…), as Slack issues them. */
export function slackId(value: unknown): string | undefined {
  const id = str(value, 64);
  return id !== undefined && /^[A-Z0-9]+$/.test(id) ? id : undefined;
}

/** A message timestamp (`1700000000.000100`). */
export function messageTs(value: unknown): string | undefined {
  const ts = str(value, 32);
  return ts !== undefined && /^\d+\.\d+$/.test(ts) ? ts : undefined;
}

/**
 * The person acting, from a payload's `user` object (`{id, username, name}`) or a slash command's `user_id` /
 * `user_name`. The display name is the Slack handle the payload carries (no `users.info` call: no extra scope, no
 * extra latency inside the 3-second window); the user id when there is none.
 */
export function actorOf(userId: unknown, ...names: unknown[]): Actor | undefined {
  const id = slackId(userId);
  if (id === undefined) return undefined;
  const name = names.map((n) => str(n, 200)).find((n) => n !== undefined);
  return { platform: 'slack', userId: id, displayName: name ?? id };
}

/** The actor of a `block_actions` or `view_submission` payload. */
export function payloadActor(body: Json): Actor | undefined {
  const user = obj(body.user);
  return user ? actorOf(user.id, user.name, user.username) : undefined;
}

/** The view an interaction came from (a modal or the Home tab), as far as the handlers need it. */
export interface ViewInfo {
  readonly id: string;
  readonly hash?: string;
  readonly type: 'modal' | 'home';
  readonly callbackId?: string;
  readonly privateMetadata?: string;
  /** For a pushed modal: the view below it. */
  readonly previousViewId?: string;
  readonly stateValues?: Json;
}

export function viewOf(value: unknown): ViewInfo | undefined {
  const view = obj(value);
  const id = slackId(view?.id);
  if (!view || id === undefined) return undefined;
  const type = view.type === 'home' ? 'home' : view.type === 'modal' ? 'modal' : undefined;
  if (type === undefined) return undefined;
  const hash = str(view.hash, 200);
  const callbackId = str(view.callback_id, 255);
  const privateMetadata = str(view.private_metadata);
  const previousViewId = slackId(view.previous_view_id);
  const stateValues = obj(obj(view.state)?.values);
  return {
    id,
    type,
    ...(hash !== undefined ? { hash } : {}),
    ...(callbackId !== undefined ? { callbackId } : {}),
    ...(privateMetadata !== undefined ? { privateMetadata } : {}),
    ...(previousViewId !== undefined ? { previousViewId } : {}),
    ...(stateValues !== undefined ? { stateValues } : {}),
  };
}

/** A `block_actions` payload, read. */
export interface BlockActions {
  readonly actor: Actor;
  /** The first (and, for clicks, only) action. */
  readonly action: Json;
  readonly actionId: string;
  readonly triggerId?: string;
  readonly responseUrl?: string;
  /** Set when the action came from a message. */
  readonly message?: { readonly channel: string; readonly ts: string };
  /** Set when the action came from a modal or the Home tab. */
  readonly view?: ViewInfo;
  /** `state.values` of the message (or of the view), for this viewer. */
  readonly stateValues?: Json;
}

export function readBlockActions(body: unknown): BlockActions | undefined {
  const b = obj(body);
  if (!b || b.type !== 'block_actions') return undefined;
  const actor = payloadActor(b);
  const action = Array.isArray(b.actions) ? obj(b.actions[0]) : undefined;
  const actionId = str(action?.action_id, 255);
  if (!actor || !action || actionId === undefined) return undefined;
  const container = obj(b.container);
  const channel = slackId(obj(b.channel)?.id) ?? slackId(container?.channel_id);
  const ts = messageTs(container?.message_ts) ?? messageTs(obj(b.message)?.ts);
  const view = viewOf(b.view);
  const triggerId = str(b.trigger_id, 200);
  const responseUrl = str(b.response_url, 2000);
  const stateValues = obj(obj(b.state)?.values) ?? view?.stateValues;
  return {
    actor,
    action,
    actionId,
    ...(triggerId !== undefined ? { triggerId } : {}),
    ...(responseUrl !== undefined && /^https?:\/\//.test(responseUrl) ? { responseUrl } : {}),
    ...(channel !== undefined && ts !== undefined && view === undefined ? { message: { channel, ts } } : {}),
    ...(view !== undefined ? { view } : {}),
    ...(stateValues !== undefined ? { stateValues } : {}),
  };
}

/**
 * The state of the select `actionId` in the question block of `ref` (`al_q:<ref>:<revision>`; a set's `member`:
 * `al_q:<ref>:<revision>:<member>`), taking the newest revision when a payload somehow holds several. Undefined
 * when the payload carries no such state.
 */
export function selectStateFor(stateValues: Json | undefined, ref: string, actionId: string, member?: number): unknown {
  if (!stateValues) return undefined;
  let best: { revision: number; state: unknown } | undefined;
  for (const [blockId, block] of Object.entries(stateValues)) {
    const parsed = parseQuestionBlockId(blockId);
    if (parsed?.ref !== ref || parsed.member !== member) continue;
    const state = obj(block)?.[actionId];
    if (state !== undefined && (best === undefined || parsed.revision > best.revision)) {
      best = { revision: parsed.revision, state };
    }
  }
  return best?.state;
}

/** `state.values[blockId][actionId]` of a view. */
export function inputState(stateValues: Json | undefined, blockId: string, actionId: string): Json | undefined {
  return obj(obj(stateValues?.[blockId])?.[actionId]);
}

/** The ids a log line may carry about a payload: team, user, channel, view, action ids. Never values or text. */
export function payloadIds(payload: unknown): Record<string, unknown> {
  const p = obj(payload);
  if (!p) return {};
  const user = slackId(obj(p.user)?.id) ?? slackId(p.user_id) ?? slackId(p.user);
  const channel = slackId(obj(p.channel)?.id) ?? slackId(p.channel_id);
  const view = slackId(obj(p.view)?.id);
  const action = Array.isArray(p.actions) ? str(obj(p.actions[0])?.action_id, 64) : str(obj(p.action)?.action_id, 64);
  const ids: Record<string, unknown> = {};
  if (user !== undefined) ids.user = user;
  if (channel !== undefined) ids.channel = channel;
  if (view !== undefined) ids.view = view;
  if (action !== undefined && /^[\w.-]+$/.test(action)) ids.action = action;
  return ids;
}
