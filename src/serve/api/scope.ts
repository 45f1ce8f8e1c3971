/**
 * What one token may do: an AgentStore over serve's store that reaches only the projects matching the token's
 * patterns (routing's matcher: `*`, `**`) and keeps the token's leases apart from everyone else's.
 *
 * The project check is made on the name alone, before the store is asked anything, so the refusal reads the same
 * whether or not the project exists. Lease names are prefixed with the token id: a waiter's or a turn's lease taken
 * with one token can be neither seen, renewed nor seized with another (nor can serve's own sweep lease).
 */
import { matchesProject } from '../../core/project-pattern.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import type { AgentStore, Store } from '../../store/port.js';
import type { TokenRecord } from '../../store/token-port.js';

export function reaches(token: TokenRecord, project: string): boolean {
  return token.patterns.some((pattern) => matchesProject(pattern, project));
}

/** The line a refused project gets: the same for a project that exists and one that does not. */
export function refusal(token: TokenRecord, project: string): string {
  const shown = project.length > 200 ? `${project.slice(0, 200)}…` : project;
  return `the token "${token.name}" does not reach project ${JSON.stringify(shown)} (its patterns: ${token.patterns.join(', ')})`;
}

/** The lease name a token's lease `name` is kept under. */
export function tokenLease(token: TokenRecord, name: string): string {
  return `agent:${token.id}:${name}`;
}

/** `store` as the holder of `token` sees it. `close` leaves serve's store open. */
export function scopedStore(store: Store, token: TokenRecord): AgentStore {
  const inScope = async <T>(project: string, work: () => Promise<T>): Promise<T> => {
    if (!reaches(token, project)) throw new ProjectRefusedError(refusal(token, project));
    return work();
  };
  return {
    park: (project, spec, options) => inScope(project, () => store.park(project, spec, options)),
    get: (project, id) => inScope(project, () => store.get(project, id)),
    list: (project, filter) => inScope(project, () => store.list(project, filter)),
    listPage: (project, query) => inScope(project, () => store.listPage(project, query)),
    findDecisions: (project, query) => inScope(project, () => store.findDecisions(project, query)),
    similarDecisions: (project, items, options) =>
      inScope(project, () => store.similarDecisions(project, items, options)),
    cancel: (project, id) => inScope(project, () => store.cancel(project, id)),
    claimUndelivered: (project, options) => inScope(project, () => store.claimUndelivered(project, options)),
    confirmClaim: (project, claim, ids) => inScope(project, () => store.confirmClaim(project, claim, ids)),
    releaseClaim: (project, claim, ids) => inScope(project, () => store.releaseClaim(project, claim, ids)),
    waitingOutcomes: (project, options) => inScope(project, () => store.waitingOutcomes(project, options)),
    markDelivered: (project, id, via) => inScope(project, () => store.markDelivered(project, id, via)),
    countQuestions: (project) => inScope(project, () => store.countQuestions(project)),
    watch: (project) => inScope(project, () => store.watch(project)),
    waitWhilePending: (project, id, options) => inScope(project, () => store.waitWhilePending(project, id, options)),
    acquireLease: (name, owner, ms) => store.acquireLease(tokenLease(token, name), owner, ms),
    releaseLease: (name, owner) => store.releaseLease(tokenLease(token, name), owner),
    seizeLease: (name, owner, ms) => store.seizeLease(tokenLease(token, name), owner, ms),
    ping: () => store.ping(),
    whenReady: (options) => store.whenReady(options),
    close: async () => undefined,
  };
}
