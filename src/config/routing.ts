/**
 * Where each project's questions go, and who may answer them: the routing file's routes (`ASK_LATER_CONFIG`) over
 * the default channels (`SLACK_CHANNEL`, `DISCORD_CHANNEL`, `TELEGRAM_CHAT`: a Telegram chat is its channel). Pure: no I/O, nothing read from the environment.
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
 *   `DISCORD_ALLOWED_ROLES`, `TELEGRAM_ALLOWED_USERS`; empty: everyone) *and* the route's (on Discord: listed user *or* holding a listed role).
 * - Reminders (blocking questions only): the matching route's `remindAfter` / `remindTimes` / `owners`; what a route
 *   leaves out, and every project no route matches, takes the defaults (`ASK_LATER_REMIND_AFTER`, else 30 minutes;
 *   2 reminders; no owners, so no one is mentioned). `remindAfter` 0 or `remindTimes` 0: no reminders.
 */
import { compilePattern } from '../core/project-pattern.js';
import type { Platform } from '../core/question.js';
import type { ReminderSchedule } from '../core/reminder.js';

/** A route's allow-lists (each absent or empty list: no narrowing). */
export interface RouteAllow {
  readonly slackUsers?: readonly string[];
  readonly discordUsers?: readonly string[];
  readonly discordRoles?: readonly string[];
  readonly telegramUsers?: readonly string[];
}

/** Who a route's reminders mention, per platform (user ids; each absent or empty list: no one). */
export interface RouteOwners {
  readonly slack?: readonly string[];
  readonly discord?: readonly string[];
  readonly telegram?: readonly string[];
}

/** One entry of the routing file: the projects it matches and where their questions go. */
export interface RoutingRoute {
  /** A project name, or a glob: `*` matches within a path segment, `**` across any depth. */
  readonly project: string;
  /** Slack channel id (`C…`/`G…`). A platform the route does not name gets none of its projects. */
  readonly slack?: string;
  /** Discord channel id (17–20 digits). */
  readonly discord?: string;
  /** Telegram chat id (an integer; groups and channels are negative). */
  readonly telegram?: string;
  readonly allow?: RouteAllow;
  /** How long a blocking question waits before each reminder, in ms; 0: none. Absent: the default. */
  readonly remindAfterMs?: number;
  /** At most this many reminders per question; 0: none. Absent: the default. */
  readonly remindTimes?: number;
  readonly owners?: RouteOwners;
}

export interface RoutingInput {
  readonly routes?: readonly RoutingRoute[];
  /** Default channels for projects no route matches. */
  readonly slackChannel?: string;
  readonly discordChannel?: string;
  readonly telegramChat?: string;
  /** `remindAfter` of routes that do not set it and of projects no route matches (default 30 minutes; 0: off). */
  readonly remindAfterMs?: number;
}

/** The default wait before each reminder of a blocking question. */
export const DEFAULT_REMIND_AFTER_MS = 30 * 60_000;
/** The default number of reminders per blocking question. */
export const DEFAULT_REMIND_TIMES = 2;

/**
 * How one project's blocking questions are reminded (`core/reminder.ts` holds when one is due) and whom the
 * reminders mention.
 */
export interface ReminderPolicy extends ReminderSchedule {
  readonly owners: RouteOwners;
}

/** Where one project's questions go and the route's allow-lists. */
export interface ProjectRoute {
  readonly slack?: string;
  readonly discord?: string;
  readonly telegram?: string;
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
  /** How `project`'s blocking questions are reminded: the matching route's settings over the defaults. */
  remindersFor(project: string): ReminderPolicy;
}

/** Cached answers per project: a serve asks for the same few projects on every event and interaction. */
const CACHE_MAX = 10_000;

export function routingTable(input: RoutingInput): RoutingTable {
  const routes = (input.routes ?? []).map((route) => ({ route, pattern: compilePattern(route.project) }));
  const defaults: ProjectRoute = {
    ...(input.slackChannel !== undefined ? { slack: input.slackChannel } : {}),
    ...(input.discordChannel !== undefined ? { discord: input.discordChannel } : {}),
    ...(input.telegramChat !== undefined ? { telegram: input.telegramChat } : {}),
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
          ...(match.telegram !== undefined ? { telegram: match.telegram } : {}),
          ...(match.allow !== undefined ? { allow: match.allow } : {}),
          route: index,
        }
      : defaults;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(project, found);
    return found;
  };

  const channelsFor = (platform: Platform, project: string): readonly string[] => {
    if (platform === 'web') return [];
    const channel = routeFor(project)[platform];
    return channel === undefined ? [] : [channel];
  };

  const defaultReminders: ReminderPolicy = Object.freeze({
    afterMs: input.remindAfterMs ?? DEFAULT_REMIND_AFTER_MS,
    times: DEFAULT_REMIND_TIMES,
    owners: Object.freeze({}),
  });
  // One policy per route, built once: the sweep asks for every project on every period.
  const routeReminders = routes.map(({ route }): ReminderPolicy => {
    if (route.remindAfterMs === undefined && route.remindTimes === undefined && route.owners === undefined) {
      return defaultReminders;
    }
    return Object.freeze({
      afterMs: route.remindAfterMs ?? defaultReminders.afterMs,
      times: route.remindTimes ?? defaultReminders.times,
      owners: route.owners ?? defaultReminders.owners,
    });
  });

  return {
    routeFor,
    channelsFor,
    projectsRoutedTo: (platform, channel, knownProjects) =>
      knownProjects.filter((project) => channelsFor(platform, project).includes(channel)),
    remindersFor: (project) => {
      const index = routeFor(project).route;
      return (index === undefined ? undefined : routeReminders[index]) ?? defaultReminders;
    },
  };
}
