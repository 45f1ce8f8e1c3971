/**
 * Where each project's questions go, and who may answer them: the routing file's routes (`ASK_LATER_CONFIG`) over
 * the default channels (`SLACK_CHANNEL`, `DISCORD_CHANNEL`). Pure: no I/O, nothing read from the environment.
 *
 * The rule:
 * - Routes are tried in order; the first whose `project` pattern matches the project decides, for both platforms.
 *   A platform the matching route does not name gets none of that project's questions.
 * - A project no route matches goes to the default channel of each platform that has one.
 * - Patterns: a project name matches itself; `*` matches any characters except `/` (within one path segment);
 *   `**` matches any characters, `/` included (any depth; `a/**` matches below `a`, `a/**\/b` also matches `a/b`).
 *   Every other character is literal.
 * - Allow-lists: a route's lists for a platform, when present, narrow who may answer its projects' questions on that
 *   platform: a person must pass the global lists (`SLACK_ALLOWED_USERS`, `DISCORD_ALLOWED_USERS` /
 *   `DISCORD_ALLOWED_ROLES`; empty: everyone) *and* the route's (on Discord: listed user *or* holding a listed role).
 */
import type { Platform } from './core/question.js';

/** A route's allow-lists (each absent or empty list: no narrowing). */
export interface RouteAllow {
  readonly slackUsers?: readonly string[];
  readonly discordUsers?: readonly string[];
  readonly discordRoles?: readonly string[];
}

export interface RoutingRoute {
  readonly project: string;
  readonly slack?: string;
  readonly discord?: string;
  readonly allow?: RouteAllow;
}

export interface RoutingInput {
  readonly routes?: readonly RoutingRoute[];
  /** Default channels for projects no route matches. */
  readonly slackChannel?: string;
  readonly discordChannel?: string;
}

/** Where one project's questions go and the route's allow-lists. */
export interface ProjectRoute {
  readonly slack?: string;
  readonly discord?: string;
  /** The matching route's lists; absent for a project on the default channels. */
  readonly allow?: RouteAllow;
  /** Index of the matching route in the file; absent: the defaults. */
  readonly route?: number;
}

export interface RoutingTable {
  /** Where `project`'s questions go, per platform, and the allow-lists of the route that sent them there. */
  routeFor(project: string): ProjectRoute;
  /** The channels of `platform` that `project` goes to (zero or one today). */
  channelsFor(platform: Platform, project: string): readonly string[];
  /** The projects among `knownProjects` whose questions go to `channel` on `platform` (a channel's inbox). */
  projectsRoutedTo(platform: Platform, channel: string, knownProjects: readonly string[]): string[];
}

/** A project pattern as a regular expression (anchored). */
export function compilePattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith('**', i)) {
      const slashBefore = i === 0 || pattern[i - 1] === '/';
      const slashAfter = pattern[i + 2] === '/';
      if (slashBefore && slashAfter) {
        // `**/`: zero or more whole segments.
        source += '(?:.*/)?';
        i += 3;
      } else {
        source += '.*';
        i += 2;
      }
    } else if (pattern[i] === '*') {
      source += '[^/]*';
      i += 1;
    } else {
      source += (pattern[i] ?? '').replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
      i += 1;
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/** Whether `project` matches `pattern` (see the rule above). */
export function matchesProject(pattern: string, project: string): boolean {
  return compilePattern(pattern).test(project);
}

/** Cached answers per project: a serve asks for the same few projects on every event and interaction. */
const CACHE_MAX = 10_000;

export function routingTable(input: RoutingInput): RoutingTable {
  const routes = (input.routes ?? []).map((route) => ({ route, pattern: compilePattern(route.project) }));
  const defaults: ProjectRoute = {
    ...(input.slackChannel !== undefined ? { slack: input.slackChannel } : {}),
    ...(input.discordChannel !== undefined ? { discord: input.discordChannel } : {}),
  };
  const cache = new Map<string, ProjectRoute>();

  const routeFor = (project: string): ProjectRoute => {
    const cached = cache.get(project);
    if (cached) return cached;
    const index = routes.findIndex(({ pattern }) => pattern.test(project));
    const match = routes[index]?.route;
    const found: ProjectRoute = match
      ? {
          ...(match.slack !== undefined ? { slack: match.slack } : {}),
          ...(match.discord !== undefined ? { discord: match.discord } : {}),
          ...(match.allow !== undefined ? { allow: match.allow } : {}),
          route: index,
        }
      : defaults;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(project, found);
    return found;
  };

  const channelsFor = (platform: Platform, project: string): readonly string[] => {
    if (platform !== 'slack' && platform !== 'discord') return [];
    const channel = routeFor(project)[platform];
    return channel === undefined ? [] : [channel];
  };

  return {
    routeFor,
    channelsFor,
    projectsRoutedTo: (platform, channel, knownProjects) =>
      knownProjects.filter((project) => channelsFor(platform, project).includes(channel)),
  };
}
