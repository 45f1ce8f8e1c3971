/**
 * Who may answer a project's questions: the global allow-lists (`SLACK_ALLOWED_USERS`, `DISCORD_ALLOWED_USERS`,
 * `DISCORD_ALLOWED_ROLES`) and, when the project's route has lists for the person's platform, those too. Both
 * must let the person in; an empty or absent list lets everyone in (see `src/routing.ts`).
 */
import { type AccessPolicy, type AllowLists, allowListPolicy } from '../bot/interactions.js';
import type { RouteAllow, RoutingTable } from '../routing.js';

export function routedAccessPolicy(global: AllowLists, table: RoutingTable): AccessPolicy {
  const everywhere = allowListPolicy(global);
  const perRoute = new WeakMap<RouteAllow, AccessPolicy>();
  return {
    mayAnswer(actor, project) {
      if (!everywhere.mayAnswer(actor, project)) return false;
      const allow = table.routeFor(project).allow;
      if (allow === undefined) return true;
      let policy = perRoute.get(allow);
      if (!policy) {
        policy = allowListPolicy({
          users: { slack: allow.slackUsers ?? [], discord: allow.discordUsers ?? [] },
          discordRoles: allow.discordRoles ?? [],
        });
        perRoute.set(allow, policy);
      }
      return policy.mayAnswer(actor, project);
    },
  };
}
