/**
 * The web inbox's pages, read through `InteractionService` a page at a time and rendered by blocks: the inbox (the
 * filters' counts, one page of waiting cards, each project's waiting count, the newest questions closed in the last
 * day) and the Answered view (one page of the decision trail, every project's answer count, the chart's days).
 * Every read is of the projects this person reaches.
 */

import { projectTag } from '../../core/question-ref.js';
import { ANSWERED_PAGE_SIZE, type AnsweredInput, CHART_DAYS, renderAnsweredPage } from '../../render/web/answered.js';
import {
  renderInboxFragment,
  renderInboxPage,
  WEB_PAGE_SIZE,
  type WebInboxView,
  type WebProjectEntry,
} from '../../render/web/page.js';
import { type AnsweredState, type InboxState, parseAnsweredState, parseInboxState } from '../../render/web/routes.js';
import type { Actor, InteractionService } from '../interactions.js';
import { WEB_CHANNEL } from './surface.js';

export interface WebPagesOptions {
  readonly interactions: InteractionService;
  /** How long questions stay on the page once closed (default 24 h). */
  readonly recentMs?: number;
  /** Most closed questions the page shows (default 50). */
  readonly recentMax?: number;
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
  /** The clock that decides what is recent. */
  readonly now: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const place = { channel: WEB_CHANNEL };

/**
 * The whole inbox page (`fragment`: only the part the client swaps in on every change) for the query; `signOut`: the
 * inbox asks for a token, so the page offers to sign out.
 */
export async function inboxPage(
  options: WebPagesOptions,
  actor: Actor,
  query: URLSearchParams,
  fragment: boolean,
  signOut = false,
): Promise<string> {
  const view = await loadInbox(options, actor, parseInboxState(query));
  return fragment
    ? renderInboxFragment(view).toString()
    : renderInboxPage(view, { viewer: actor.displayName, signOut });
}

/** The Answered view for the query. */
export async function answeredPage(options: WebPagesOptions, actor: Actor, query: URLSearchParams): Promise<string> {
  return renderAnsweredPage(await loadAnswered(options, actor, parseAnsweredState(query)));
}

async function loadInbox(options: WebPagesOptions, actor: Actor, state: InboxState): Promise<WebInboxView> {
  const { interactions } = options;
  // The project filter's numbers: every project reached, counted with the page where the store reads them together
  // (the page then spans every project), else counted apart.
  const [page, recent] = await Promise.all([
    interactions.inboxPage(actor, place, {
      filter: state.filter,
      limit: WEB_PAGE_SIZE,
      ...(state.after === undefined ? {} : { after: state.after }),
      ...(state.project === undefined ? {} : { project: state.project }),
    }),
    interactions.recentlyClosed(actor, place, {
      since: options.now() - (options.recentMs ?? DAY_MS),
      limit: options.recentMax ?? 50,
      ...(state.project === undefined ? {} : { project: state.project }),
    }),
  ]);
  const counts =
    state.project === undefined && page.perProject !== undefined
      ? page.perProject
      : await interactions.projectCounts(actor, place);
  const projects: WebProjectEntry[] = [];
  for (const [project, count] of counts) {
    const waiting = count.blocking + count.canWait;
    if (waiting > 0) projects.push({ tag: projectTag(project), project, waiting, blocking: count.blocking });
  }
  // The closed list follows the blocking filter among the newest it read (it is a glance, not a search).
  const closed = recent
    .filter((question) => state.filter === 'all' || question.isBlocking === (state.filter === 'blocking'))
    .map((question) => ({ question }));
  const timeZone = options.timeZone;
  return { page, closed, projects, state, ...(timeZone === undefined ? {} : { timeZone }) };
}

async function loadAnswered(options: WebPagesOptions, actor: Actor, state: AnsweredState): Promise<AnsweredInput> {
  const { interactions } = options;
  const at = options.now();
  const tag = state.project === undefined ? {} : { projectTag: state.project };
  const [page, counts, recent] = await Promise.all([
    interactions.decisionsPage(actor, place, {
      limit: ANSWERED_PAGE_SIZE,
      ...tag,
      ...(state.search === undefined ? {} : { search: state.search }),
      ...(state.after === undefined ? {} : { after: state.after }),
    }),
    interactions.projectCounts(actor, place),
    interactions.decisions(actor, place, { ...tag, since: at - CHART_DAYS * DAY_MS }),
  ]);
  const timeZone = options.timeZone;
  return {
    page,
    recent,
    projects: [...counts].map(([project, count]) => ({ project, answered: count.answered })),
    state,
    now: at,
    ...(timeZone === undefined ? {} : { timeZone }),
  };
}
