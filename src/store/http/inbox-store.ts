/**
 * A person's inbox over serve's agent API (`ASK_LATER_URL` + a token made with `token create --web`): a
 * {@link PersonStore} for `InteractionService`, so the terminal inbox answers through the same service as every
 * surface while serve keeps the store. Serve decides who the person is (the token's name) and which projects they
 * reach; the person given to drafts and answers here is not sent. Changes are followed by a long poll
 * ({@link HttpInboxStore.watchInbox}), which outlives serve restarting.
 */
import type { Draft, Question, Reply, Responder, Selection } from '../../core/question.js';
import type {
  AnswerResult,
  CloseResult,
  DraftChange,
  DraftResult,
  PageQuery,
  PersonRef,
  PersonStore,
  ProjectWatch,
  QuestionPage,
  Readiness,
  ViewCounts,
  WaitOptions,
} from '../port.js';
import { ServeLink, type ServeLinkOptions } from './serve-link.js';

/** Who the token is: its name, and whether it signs a person in (`token create --web`). */
export interface TokenHolder {
  readonly name: string;
  readonly person: boolean;
}

/** Open the person's inbox over HTTP. Nothing is sent until the first call. */
export async function openHttpInboxStore(options: ServeLinkOptions): Promise<HttpInboxStore> {
  return new HttpInboxStore(options);
}

export class HttpInboxStore implements PersonStore {
  readonly #link: ServeLink;

  constructor(options: ServeLinkOptions) {
    this.#link = new ServeLink(options);
  }

  /** Who the token is. */
  async holder(): Promise<TokenHolder> {
    const reply = await this.#link.call('whoami', {});
    return { name: reply.name, person: reply.person === true };
  }

  async knownProjects(): Promise<string[]> {
    return (await this.#link.call('inbox-projects', {})).projects;
  }

  async projectByTag(tag: string): Promise<string | undefined> {
    return (await this.#link.call('inbox-project', { tag })).project ?? undefined;
  }

  async get(project: string, id: number): Promise<Question | undefined> {
    return (await this.#link.call('inbox-question', { project, id })).question ?? undefined;
  }

  /** The token's person's draft (`_person` is serve's to say). */
  async getDraft(project: string, id: number, _person: PersonRef, member?: number): Promise<Draft | undefined> {
    const reply = await this.#link.call('inbox-draft', { project, id, ...(member === undefined ? {} : { member }) });
    return reply.draft ?? undefined;
  }

  async saveDraft(project: string, id: number, _person: PersonRef, change: DraftChange): Promise<DraftResult> {
    return (await this.#link.call('inbox-save-draft', { project, id, change })).result;
  }

  /** Answers as the token's person (`_by` is serve's to say). */
  async answer(project: string, id: number, reply: Reply, _by: Responder): Promise<AnswerResult> {
    const sent = 'members' in reply ? { members: reply.members.map(selectionOnly) } : selectionOnly(reply);
    return (await this.#link.call('inbox-answer', { project, id, reply: sent })).result;
  }

  async dismiss(project: string, id: number, _by: Responder): Promise<CloseResult> {
    return (await this.#link.call('inbox-dismiss', { project, id })).result;
  }

  async pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    const { page } = await this.#link.call('inbox-page', { projects, query });
    return {
      questions: page.questions,
      remaining: page.remaining,
      ...(page.next === undefined ? {} : { next: page.next }),
      ...(page.counts === undefined ? {} : { counts: new Map(page.counts) }),
    };
  }

  async countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return new Map((await this.#link.call('inbox-counts', { projects })).counts);
  }

  /**
   * Follow every change serve sees to the projects the person reaches, from now on: `changed` resolves true once
   * something changed since the watch began or since it last resolved true.
   */
  async watchInbox(): Promise<ProjectWatch> {
    let mark = (await this.#link.call('inbox-watch', {})).mark;
    const stop = new AbortController();
    return {
      changed: async ({ timeoutMs, signal }) => {
        const deadline = Date.now() + timeoutMs;
        const signals = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
        for (;;) {
          const reply = await this.#link.longPoll(
            'inbox-changed',
            (ms) => ({ mark, timeoutMs: ms }),
            deadline,
            signals,
          );
          if (reply === undefined) return false;
          mark = reply.mark;
          if (reply.changed) return true;
          if (Date.now() >= deadline || signals.aborted) return false;
        }
      },
      close: async () => stop.abort(),
    };
  }

  whenReady(options: WaitOptions): Promise<Readiness> {
    return this.#link.whenReady(options);
  }

  async close(): Promise<void> {
    this.#link.close();
  }
}

/** A selection's own fields (a draft's `updatedAt` stays here: serve's strict schema would refuse it). */
function selectionOnly({ choices, other, notes, choiceNotes }: Selection): Selection {
  return {
    choices,
    other,
    ...(notes === undefined ? {} : { notes }),
    ...(choiceNotes === undefined
      ? {}
      : { choiceNotes: choiceNotes.map(({ choice, notes: text }) => ({ choice, notes: text })) }),
  };
}
