/**
 * Who acts and where, and who may: the actor as a surface identifies them, the place an interaction happened, the
 * allow-list rule, channel membership for places without a channel, and the routing as the person's side sees it.
 * `InteractionService` applies these; surfaces only fill them in from their payloads.
 */
import { DISPLAY_NAME_MAX } from '../core/limits.js';
import { matchesProject } from '../core/project-pattern.js';
import type { Platform, Responder } from '../core/question.js';

/** The person acting, as the platform identifies them. `roles` are Discord role ids (empty elsewhere). */
export interface Actor extends Responder {
  readonly roles?: readonly string[];
  /**
   * The project patterns (routing's `*`, `**`) this person's sign-in reaches: the web inbox signed in with a
   * person's own token. Absent: no limit beyond the routing and the allow-lists.
   */
  readonly projects?: readonly string[];
}

/** Whether the actor's sign-in reaches the project (always, for an actor without patterns). */
export function reachesProject(actor: Actor, project: string): boolean {
  return actor.projects === undefined || actor.projects.some((pattern) => matchesProject(pattern, project));
}

/** The actor as the store keeps them: platform, id, and a display name within the limit. */
export function responderOf(actor: Actor): Responder {
  const displayName = actor.displayName.trim().slice(0, DISPLAY_NAME_MAX) || actor.userId;
  return {
    platform: actor.platform,
    userId: actor.userId,
    displayName,
    ...(actor.place === undefined ? {} : { place: actor.place }),
  };
}

/** Who may answer: by default everyone in the routed channel; narrowed by allow-lists. */
export interface AccessPolicy {
  mayAnswer(actor: Actor, project: string): boolean;
  /**
   * Whether an allow-list names this person for the project (their user id, or on Discord one of their roles):
   * they may then reach its questions from a place without a channel (Slack's Home tab) without being a member of
   * the channel it is routed to. Implies `mayAnswer`.
   */
  grants(actor: Actor, project: string): boolean;
}

export interface AllowLists {
  /** User ids per platform; absent or empty means everyone. */
  readonly users?: Partial<Record<Platform, readonly string[]>>;
  /** Discord role ids; a Discord user with any of them is allowed too. */
  readonly discordRoles?: readonly string[];
}

export function allowListPolicy(lists: AllowLists): AccessPolicy {
  const listsFor = (actor: Actor) => ({
    users: lists.users?.[actor.platform] ?? [],
    roles: actor.platform === 'discord' ? (lists.discordRoles ?? []) : [],
  });
  const names = (actor: Actor) => {
    const { users, roles } = listsFor(actor);
    return users.includes(actor.userId) || (actor.roles ?? []).some((role) => roles.includes(role));
  };
  return {
    mayAnswer(actor) {
      const { users, roles } = listsFor(actor);
      return (users.length === 0 && roles.length === 0) || names(actor);
    },
    grants: names,
  };
}

/**
 * The channels a person is a member of, on one platform, for places without a channel (Slack's Home tab).
 * Implementations ask the platform and may answer from a cache for a short while.
 */
export interface Membership {
  /** The person's channels. `fresh`: the cached answer said no; ask the platform again (as often as it allows). */
  channelsOf(actor: Actor, options?: { readonly fresh?: boolean }): Promise<ReadonlySet<string>>;
}

/**
 * Channels each platform routes a project to (the bridge's routing, seen from the person's side). `actor`, when
 * given, is the person asking: a surface whose reach depends on who signs in (the web inbox with a person's own
 * token) answers per person.
 */
export type Routing = (platform: Platform, project: string, actor?: Actor) => readonly string[];

/**
 * Where an interaction happened: a channel, or a place without one (Slack's Home tab), where a person reaches
 * only the projects routed to channels they are a member of, and those an allow-list names them for.
 */
export interface Place {
  readonly channel?: string;
}
