/**
 * The person side of the agent API (`inbox-*`, protocol.ts): what `InteractionService` reads and changes, for the
 * terminal inbox on a person's token (`token create --web`; server.ts refuses any other before these run). Serve
 * decides who answers and drafts: the token's person, platform `web` and the token's name, the identity the web
 * inbox gives the same token's sign-in (`personActor`), so the person's drafts are the same in both. A project the
 * token does not reach is invisible here: unknown, null or left out, the same whether it exists or not.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { DISPLAY_NAME_MAX } from '../../core/limits.js';
import type { Reply, Responder, Selection } from '../../core/question.js';
import { type AgentOperations, LONG_POLL_MAX_MS, type PersonOperationName } from '../../store/http/protocol.js';
import type { DraftChange, PersonRef, Store } from '../../store/port.js';
import type { TokenRecord } from '../../store/token-port.js';
import type { InboxChanges } from './inbox-changes.js';
import type { PERSON_SCHEMAS } from './person-schemas.js';
import { reaches } from './scope.js';

export interface PersonContext {
  /** Serve's whole store: each handler keeps to the token's projects itself. */
  readonly store: Store;
  /** A token that signs a person in. */
  readonly token: TokenRecord;
  readonly changes: InboxChanges;
  /** Aborted when the caller disconnects or serve stops. */
  readonly signal: AbortSignal;
}

type Handlers = {
  [Op in PersonOperationName]: (
    context: PersonContext,
    body: z.infer<(typeof PERSON_SCHEMAS)[Op]>,
  ) => Promise<AgentOperations[Op]['response']>;
};

/** The token's person, as drafts are kept. */
function personOf(token: TokenRecord): PersonRef {
  return { platform: 'web', userId: token.name };
}

/** The token's person, as answers record who sent them (as `responderOf(personActor(…))` does on the web). */
function responderOf(token: TokenRecord): Responder {
  return {
    platform: 'web',
    userId: token.name,
    displayName: token.name.trim().slice(0, DISPLAY_NAME_MAX) || token.name,
  };
}

async function reachedProjects(store: Store, token: TokenRecord): Promise<string[]> {
  return (await store.knownProjects()).filter((project) => reaches(token, project));
}

/** A mark of what the person's inbox shows: every reached project with its view counts, hashed (short, no names). */
async function inboxMark(store: Store, token: TokenRecord): Promise<string> {
  const projects = (await reachedProjects(store, token)).sort();
  const counts = await store.countAcross(projects);
  const shown = projects.map((project) => {
    const count = counts.get(project);
    return [project, count?.blocking, count?.canWait, count?.closed, count?.answered];
  });
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url');
}

type WireSelection = {
  choices: string[];
  other: boolean;
  notes?: string | undefined;
  choiceNotes?: { choice: string; notes: string }[] | undefined;
};

function selectionOf({ choices, other, notes, choiceNotes }: WireSelection): Selection {
  return {
    choices,
    other,
    ...(notes === undefined ? {} : { notes }),
    ...(choiceNotes === undefined ? {} : { choiceNotes }),
  };
}

function replyOf(reply: WireSelection | { members: WireSelection[] }): Reply {
  return 'members' in reply ? { members: reply.members.map(selectionOf) } : selectionOf(reply);
}

export const PERSON_OPERATIONS: Handlers = {
  async 'inbox-projects'({ store, token }) {
    return { projects: await reachedProjects(store, token) };
  },
  async 'inbox-project'({ store, token }, { tag }) {
    const project = await store.projectByTag(tag);
    return { project: project !== undefined && reaches(token, project) ? project : null };
  },
  async 'inbox-question'({ store, token }, { project, id }) {
    if (!reaches(token, project)) return { question: null };
    return { question: (await store.get(project, id)) ?? null };
  },
  async 'inbox-draft'({ store, token }, { project, id, member }) {
    if (!reaches(token, project)) return { draft: null };
    return { draft: (await store.getDraft(project, id, personOf(token), member)) ?? null };
  },
  async 'inbox-save-draft'({ store, token }, { project, id, change }) {
    if (!reaches(token, project)) return { result: { kind: 'unknown' } };
    const { member, pick, notes, choiceNotes } = change;
    const shaped: DraftChange = {
      ...(member === undefined ? {} : { member }),
      ...(pick === undefined ? {} : { pick }),
      ...(notes === undefined ? {} : { notes }),
      ...(choiceNotes === undefined ? {} : { choiceNotes }),
    };
    return { result: await store.saveDraft(project, id, personOf(token), shaped) };
  },
  async 'inbox-answer'({ store, token }, { project, id, reply }) {
    if (!reaches(token, project)) return { result: { kind: 'unknown' } };
    return { result: await store.answer(project, id, replyOf(reply), responderOf(token)) };
  },
  async 'inbox-dismiss'({ store, token }, { project, id }) {
    if (!reaches(token, project)) return { result: { kind: 'unknown' } };
    return { result: await store.dismiss(project, id, responderOf(token)) };
  },
  async 'inbox-page'({ store, token }, { projects, query }) {
    const { view, limit, blocking, since, after } = query;
    const page = await store.pageAcross(
      projects.filter((project) => reaches(token, project)),
      {
        view,
        limit,
        ...(blocking === undefined ? {} : { blocking }),
        ...(since === undefined ? {} : { since }),
        ...(after === undefined ? {} : { after }),
      },
    );
    return {
      page: {
        questions: [...page.questions],
        remaining: page.remaining,
        ...(page.next === undefined ? {} : { next: page.next }),
        ...(page.counts === undefined ? {} : { counts: [...page.counts] }),
      },
    };
  },
  async 'inbox-counts'({ store, token }, { projects }) {
    return { counts: [...(await store.countAcross(projects.filter((project) => reaches(token, project))))] };
  },
  async 'inbox-watch'({ store, token }) {
    return { mark: await inboxMark(store, token) };
  },
  async 'inbox-changed'({ store, token, changes, signal }, { mark: since, timeoutMs }) {
    // The waiter first, then the mark: a change between the two is seen by one or the other.
    const waiter = await changes.waiter((project) => reaches(token, project));
    try {
      const now = await inboxMark(store, token);
      if (now !== since) return { changed: true, mark: now };
      const changed = await waiter.changed({ timeoutMs: Math.min(timeoutMs, LONG_POLL_MAX_MS), signal });
      return { changed, mark: changed ? await inboxMark(store, token) : now };
    } finally {
      waiter.close();
    }
  },
};
