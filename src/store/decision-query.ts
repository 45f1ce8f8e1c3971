/**
 * The decision trail: the questions a person answered, newest answer first. One query for every view of it
 * (`ask-later decisions`, the web inbox's Answered view and its time-to-answer chart), over the Store port; the page
 * itself is read by `store/trail.ts`, which `find_decisions` uses too.
 */
import { compilePattern } from '../core/project-pattern.js';
import type { Store } from './port.js';
import { type Decision, type DecisionPage, trailPage } from './trail.js';

export { type Decision, type DecisionPage, decisionMatches, searchWords } from './trail.js';

/** What the trail is read through: the projects the store knows, and its answered view. */
type TrailStore = Pick<Store, 'knownProjects' | 'pageAcross'>;

/** Which decisions to read. Omitted fields do not filter. */
export interface DecisionQuery {
  /** A project pattern, as in the routing file (`acme/*`, `acme/**`, a project name). */
  readonly project?: string;
  /** Only answers given at or after this time (ms since the epoch). */
  readonly since?: number;
  /** Free text: only decisions matching every word of it (see `decisionMatches`). Blank does not filter. */
  readonly search?: string;
  /** These projects (instead of `project`'s pattern), when the caller chose them already. */
  readonly projects?: readonly string[];
}

/** Which page of the trail to read: a query, at most `limit` decisions, after the cursor an earlier page gave. */
export interface DecisionPageQuery extends DecisionQuery {
  readonly limit: number;
  readonly after?: string;
}

/** The projects a project pattern selects among those the store knows. */
async function projectsOf(store: TrailStore, project: string | undefined): Promise<string[]> {
  const pattern = project === undefined ? undefined : compilePattern(project);
  return (await store.knownProjects()).filter((name) => pattern?.test(name) ?? true);
}

/** One page of the trail of the projects the query names (see `trailPage`). */
export async function decisionsPage(store: TrailStore, query: DecisionPageQuery): Promise<DecisionPage> {
  const projects = query.projects ?? (await projectsOf(store, query.project));
  return trailPage(store, projects, {
    limit: query.limit,
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.search === undefined ? {} : { search: query.search }),
    ...(query.after === undefined ? {} : { after: query.after }),
  });
}

/**
 * Every decision matching the query, newest answer first (then the higher id): the whole trail, read from the
 * answered index a page at a time (`ask-later decisions` exports it all).
 */
export async function listDecisions(store: TrailStore, query: DecisionQuery = {}): Promise<Decision[]> {
  const projects = query.projects ?? (await projectsOf(store, query.project));
  const decisions: Decision[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await decisionsPage(store, {
      ...query,
      projects,
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    decisions.push(...page.decisions);
    if (page.next === undefined) return decisions;
    after = page.next;
  }
}
