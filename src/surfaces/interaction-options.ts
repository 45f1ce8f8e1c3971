import type { Platform } from '../core/question.js';
import type { PersonStore } from '../store/port.js';
import type { AccessPolicy, Membership, Routing } from './access.js';

/** What InteractionService (and its inbox reads) is built from: the store, who may answer, and where projects go. */
export interface InteractionServiceOptions {
  readonly store: PersonStore;
  readonly access: AccessPolicy;
  readonly routing: Routing;
  /** Per platform, whose channels a person is in: needed for places without a channel; absent there, none shown. */
  readonly membership?: Partial<Record<Platform, Membership>>;
}
