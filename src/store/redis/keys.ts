/**
 * Every Redis key the store uses is built here.
 *
 * Slot scheme (Redis Cluster): all keys of one project share the hash tag `{<tag>}`, where `<tag>` is a digest of
 * the project name, so every script, which only ever touches one project, runs in one hash slot. Scripts that
 * iterate over questions (claim, confirm, release, purge) derive per-question keys from the project's `base`
 * (passed as an argument) the same way `questionKey` does here; by construction those keys carry the same tag.
 * The keys outside any project, `projects` (tag → project name) and `lease:<name>`, are only touched by single-key
 * commands and single-key scripts; the failed-event keys share the tag `{failed}`, so their scripts run in one slot.
 *
 *   <prefix>:projects                 hash    tag → project name (every project that ever parked)
 *   <prefix>:lease:<name>             string  owner of a named lease (serve's sweep), with a PX expiry
 *   <prefix>:{failed}:groups          set     consumer groups that recorded failed events
 *   <prefix>:{failed}:<group>         hash    eventId -> failed-event JSON (ids, type, attempts, error code)
 *   <prefix>:{failed}:<group>:replay  list    failed-event JSON handed back to the group
 *   <prefix>:{failed}:surface-faults  hash    "<group>\n<channel>" → a surface's permanent refusal (JSON: codes, fix)
 *   <prefix>:{tokens}                 hash    agents' tokens: t:<id> → record JSON (name, SHA-256, patterns),
 *                                             n:<name> → id, u:<id> → last used (ms); one key, so one slot
 *   <prefix>:{tag}:meta               hash    project (owner of the tag), seq (last id given out), ix (the view
 *                                             index version built: views-10 builds them for older projects)
 *   <prefix>:{tag}:q:<id>             hash    one question record (see record.ts)
 *   <prefix>:{tag}:d:<id>             hash    drafts of one question: "<platform>:<userId>" → JSON
 *   <prefix>:{tag}:s:<status>         zset    ids in that status (score = id)
 *   <prefix>:{tag}:outbox             zset    outcomes waiting for the agent (score = when they became ready)
 *   <prefix>:{tag}:expiry             zset    pending ids with an expiry (score = expiresAt)
 *   <prefix>:{tag}:done               zset    delivered / cancelled ids (score = when), for retention
 *   <prefix>:{tag}:events             stream  transitions: type, project, id, at
 *   <prefix>:{tag}:ix:inbox           zset    the pending view, in its order (lexicographic members, score 0;
 *                                             store/paging.ts): <0 blocking|1 can wait><createdAt:15><id:12>
 *   <prefix>:{tag}:ix:closed          zset    the closed view: <closedAt:15><id:12> of every question not pending
 *   <prefix>:{tag}:ix:answered        zset    the answered view (the decision trail): the same, answered/delivered
 *   <prefix>:{tag}:ix:decided         hash    the index of decisions (lua/includes/decided-index.lua)
 *   <prefix>:{tag}:ix:decided-queue   hash    id → documents of a decision answered since the last check, not indexed yet
 *   <prefix>:hints                    channel (pub/sub, not a key) Redis Cluster only: the tag of each project
 *                                             that just had a transition, so consumers read that stream (events.ts)
 *
 * Delivery claims have no key of their own: a lease is two fields of the question (claim, claimUntil), and the
 * claimant keeps the ids it was handed.
 */
import type { QuestionStatus } from '../../core/question.js';
import { projectTag } from '../../core/question-ref.js';

export { projectTag };

export class ProjectKeys {
  /** Prefix of every key of this project, e.g. `al:{Zx1…}:`. Scripts build per-question keys from it. */
  readonly base: string;
  readonly tag: string;

  constructor(
    prefix: string,
    readonly project: string,
  ) {
    this.tag = projectTag(project);
    this.base = `${prefix}:{${this.tag}}:`;
  }

  get meta(): string {
    return `${this.base}meta`;
  }
  /** The id a park of this content digest gave, while the retry window lasts (park-6). */
  parkRetry(digest: string): string {
    return `${this.base}pk:${digest}`;
  }
  question(id: number): string {
    return `${this.base}q:${id}`;
  }
  drafts(id: number): string {
    return `${this.base}d:${id}`;
  }
  status(status: QuestionStatus): string {
    return `${this.base}s:${status}`;
  }
  get outbox(): string {
    return `${this.base}outbox`;
  }
  get expiry(): string {
    return `${this.base}expiry`;
  }
  get done(): string {
    return `${this.base}done`;
  }
  get events(): string {
    return `${this.base}events`;
  }
  /** The pending view's index (see store/paging.ts). */
  get inboxIndex(): string {
    return `${this.base}ix:inbox`;
  }
  /** The closed view's index. */
  get closedIndex(): string {
    return `${this.base}ix:closed`;
  }
  /** The answered view's index. */
  get answeredIndex(): string {
    return `${this.base}ix:answered`;
  }
  /** The index of decisions (`lua/includes/decided-index.lua`). */
  get decisions(): string {
    return `${this.base}ix:decided`;
  }
  /** Decisions answered since the project's last "already decided" check, waiting to join its index (answer-11). */
  get decisionsQueue(): string {
    return `${this.base}ix:decided-queue`;
  }
}

/** Keys outside any project. */
export function globalKeys(prefix: string): {
  readonly projects: string;
  /** The pub/sub channel of event hints in a Redis Cluster (a channel, not a key: in no slot). */
  readonly hints: string;
  lease(name: string): string;
  /** Failed events: every group's keys share the tag `{failed}`, one slot (see record-failure-2, replay-failed-2). */
  readonly failedGroups: string;
  failed(group: string): string;
  replay(group: string): string;
  /** Surfaces refusing for good (the bridge's permanent failures), until a post there succeeds again. */
  readonly surfaceFaults: string;
  /** The agents' tokens (see tokens.ts): one hash. */
  readonly tokens: string;
} {
  return {
    projects: `${prefix}:projects`,
    hints: `${prefix}:hints`,
    lease: (name) => `${prefix}:lease:${name}`,
    failedGroups: `${prefix}:{failed}:groups`,
    failed: (group) => `${prefix}:{failed}:${group}`,
    replay: (group) => `${prefix}:{failed}:${group}:replay`,
    surfaceFaults: `${prefix}:{failed}:surface-faults`,
    tokens: `${prefix}:{tokens}`,
  };
}
