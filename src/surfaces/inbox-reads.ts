/**
 * The reads behind every inbox (`InteractionService`'s): which projects a place shows a person, one page of their
 * pending questions with the person's drafts, the counts, what closed lately and the decision trail, each a
 * bounded read of the page shown.
 */
import type { InboxPage } from '../core/inbox.js';
import type { Draft, Question } from '../core/question.js';
import { formatQuestionRef, parseQuestionRef, projectTag } from '../core/question-ref.js';
import {
  type Decision,
  type DecisionPage,
  type DecisionPageQuery,
  type DecisionQuery,
  decisionsPage,
  listDecisions,
} from '../store/decision-query.js';
import { cursorOf, formatCursor } from '../store/paging.js';
import type { ViewCounts } from '../store/port.js';
import { type Actor, type Place, reachesProject } from './access.js';
import type { InteractionServiceOptions } from './interaction-options.js';
import type { InboxPageRequest } from './outcomes.js';

export class InboxReads {
  readonly #o: InteractionServiceOptions;
  readonly #draftsOf: (question: Question, actor: Actor) => Promise<(Draft | undefined)[]>;

  constructor(
    options: InteractionServiceOptions,
    draftsOf: (question: Question, actor: Actor) => Promise<(Draft | undefined)[]>,
  ) {
    this.#o = options;
    this.#draftsOf = draftsOf;
  }

  /**
   * From a place without a channel, whether the person reaches a project routed to `channels`: an allow-list names
   * them, or they are a member of one of those channels (the platform asked again when its cached answer says no).
   */
  async reachesUnplaced(actor: Actor, project: string, channels: readonly string[]): Promise<boolean> {
    if (this.#o.access.grants(actor, project)) return true;
    const membership = this.#o.membership?.[actor.platform];
    if (!membership) return false;
    const cached = await membership.channelsOf(actor);
    if (channels.some((channel) => cached.has(channel))) return true;
    const fresh = await membership.channelsOf(actor, { fresh: true });
    return channels.some((channel) => fresh.has(channel));
  }

  /** The projects whose questions a place's inbox shows this person. */
  async projects(actor: Actor, place: Place): Promise<string[]> {
    const unplaced =
      place.channel === undefined ? await this.#o.membership?.[actor.platform]?.channelsOf(actor) : undefined;
    return (await this.#o.store.knownProjects()).filter((project) => {
      if (!reachesProject(actor, project)) return false;
      const channels = this.#o.routing(actor.platform, project, actor);
      if (place.channel !== undefined) return channels.includes(place.channel);
      if (channels.length === 0 || !this.#o.access.mayAnswer(actor, project)) return false;
      return this.#o.access.grants(actor, project) || channels.some((channel) => unplaced?.has(channel));
    });
  }

  /** The projects of one project's tag among those the place shows (all of them without a tag). */
  async #scoped(actor: Actor, place: Place, tag: string | undefined): Promise<string[]> {
    const reached = await this.projects(actor, place);
    return tag === undefined ? reached : reached.filter((project) => projectTag(project) === tag);
  }

  async inboxPage(actor: Actor, place: Place, request: InboxPageRequest): Promise<InboxPage> {
    const projects = await this.#scoped(actor, place, request.project);
    const after = await this.#pendingCursor(request.after);
    const page = await this.#o.store.pageAcross(projects, {
      view: 'pending',
      limit: request.limit,
      ...(request.filter === 'all' ? {} : { blocking: request.filter === 'blocking' }),
      ...(after === undefined ? {} : { after }),
    });
    // The counts the page was read with where the store gives them (one read per project for both).
    const counted = request.counts ?? page.counts ?? (await this.#o.store.countAcross(projects));
    let blocking = 0;
    let canWait = 0;
    for (const project of projects) {
      const count = counted.get(project);
      blocking += count?.blocking ?? 0;
      canWait += count?.canWait ?? 0;
    }
    const counts = { all: blocking + canWait, blocking, 'non-blocking': canWait };
    const items = await Promise.all(
      page.questions.map(async (question) => {
        const drafts = await this.#draftsOf(question, actor);
        if (question.members !== undefined) return { question, memberDrafts: drafts };
        const draft = drafts[0];
        return draft ? { question, draft } : { question };
      }),
    );
    const last = page.questions.at(-1);
    return {
      filter: request.filter,
      items,
      counts,
      offset: Math.max(0, counts[request.filter] - page.remaining - items.length),
      remaining: page.remaining,
      ...(page.next !== undefined && last !== undefined ? { next: formatQuestionRef(last.project, last.id) } : {}),
      ...(page.counts === undefined ? {} : { perProject: page.counts }),
    };
  }

  /**
   * The store's pending-view cursor for "after this question" (a ref: short enough for Discord's custom ids). A
   * question's place in the pending order never changes (blocking, parked at, id), so its ref marks the spot even
   * once it is answered; an unknown ref reads the first page.
   */
  async #pendingCursor(ref: string | undefined): Promise<string | undefined> {
    const parsed = parseQuestionRef(ref);
    const project = parsed ? await this.#o.store.projectByTag(parsed.tag) : undefined;
    const question = project && parsed ? await this.#o.store.get(project, parsed.id) : undefined;
    if (!question) return undefined;
    const cursor = cursorOf('pending', { ...question, status: 'pending' });
    return cursor === undefined ? undefined : formatCursor(cursor);
  }

  async projectCounts(actor: Actor, place: Place): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#o.store.countAcross(await this.projects(actor, place));
  }

  async recentlyClosed(
    actor: Actor,
    place: Place,
    query: { readonly since: number; readonly limit: number; readonly project?: string },
  ): Promise<readonly Question[]> {
    const projects = await this.#scoped(actor, place, query.project);
    const page = await this.#o.store.pageAcross(projects, { view: 'closed', since: query.since, limit: query.limit });
    return page.questions;
  }

  async decisionsPage(
    actor: Actor,
    place: Place,
    query: Omit<DecisionPageQuery, 'projects' | 'project'> & { readonly projectTag?: string },
  ): Promise<DecisionPage> {
    const { projectTag: tag, ...rest } = query;
    return decisionsPage(this.#o.store, { ...rest, projects: await this.#scoped(actor, place, tag) });
  }

  async decisions(
    actor: Actor,
    place: Place,
    query: Omit<DecisionQuery, 'projects' | 'project'> & { readonly projectTag?: string },
  ): Promise<Decision[]> {
    const { projectTag: tag, ...rest } = query;
    return listDecisions(this.#o.store, { ...rest, projects: await this.#scoped(actor, place, tag) });
  }
}
