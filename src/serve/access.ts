/**
 * Who may answer a project's questions: the global allow-lists (`SLACK_ALLOWED_USERS`, `DISCORD_ALLOWED_USERS`,
 * `DISCORD_ALLOWED_ROLES`, `TELEGRAM_ALLOWED_USERS`) and, when the project's route has lists for the person's platform, those too. Both
 * must let the person in; an empty or absent list lets everyone in (see `src/config/routing.ts`). A person either list
 * names is granted the project's questions outside its channel too (Slack's Home tab).
 */

import type { RouteAllow, RoutingTable } from '../config/routing.js';
import { type AccessPolicy, type AllowLists, allowListPolicy } from '../surfaces/interactions.js';

export function routedAccessPolicy(global: AllowLists, table: RoutingTable): AccessPolicy {
  const everywhere = allowListPolicy(global);
  const perRoute = new WeakMap<RouteAllow, AccessPolicy>();
  const routePolicy = (project: string): AccessPolicy | undefined => {
    const allow = table.routeFor(project).allow;
    if (allow === undefined) return undefined;
    let policy = perRoute.get(allow);
    if (!policy) {
      policy = allowListPolicy({
        users: {
          slack: allow.slackUsers ?? [],
          discord: allow.discordUsers ?? [],
          telegram: allow.telegramUsers ?? [],
        },
        discordRoles: allow.discordRoles ?? [],
      });
      perRoute.set(allow, policy);
    }
    return policy;
  };
  const mayAnswer = (actor: Parameters<AccessPolicy['mayAnswer']>[0], project: string) =>
    everywhere.mayAnswer(actor, project) && (routePolicy(project)?.mayAnswer(actor, project) ?? true);
  return {
    mayAnswer,
    // Named by either list, and let in by both.
    grants: (actor, project) =>
      mayAnswer(actor, project) &&
      (everywhere.grants(actor, project) || (routePolicy(project)?.grants(actor, project) ?? false)),
  };
}
