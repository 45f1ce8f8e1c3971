/**
 * The delivery itself: claim the outcomes waiting for the project, write the note, then confirm what it carried.
 * Loaded by `run.ts` only for prompts that carry answers, so the store client is not loaded for the others.
 *
 * Exactly once (BRIEF "Delivery"): the claim leases the outcomes to this run for {@link LEASE_MS}, longer than the
 * hook's own deadline, so no other prompt can carry them meanwhile; they are confirmed only after the output was
 * flushed to stdout. A run that dies or misses its deadline before confirming leaves the lease to lapse, and the
 * next prompt carries them.
 */
import type { AgentConfig } from '../../config/agent.js';
import { deliveryEntriesBudget, hookOutput, renderDeliveryNote } from '../../core/delivery-note.js';
import type { DeliveryPath } from '../../core/question.js';
import { openStore } from '../../store/open.js';
import type { AgentStore, Claim } from '../../store/port.js';
import type { Deadline } from './deadline.js';
import { UnconfirmedDeliveryError } from './unconfirmed-delivery-error.js';

/** How long a claim holds its outcomes: longer than the hook's deadline, so it only lapses when the hook died. */
export const LEASE_MS = 5000;
/** Time left to confirm once the note is written, even past the deadline (the run still ends well within 2 s). */
const CONFIRM_GRACE_MS = 300;

export interface DeliverOptions {
  readonly config: AgentConfig;
  readonly deadline: Deadline;
  readonly connectTimeoutMs: number;
  /** Writes the output; resolves once it was flushed, rejects if it could not be written. */
  readonly write: (output: string) => Promise<void>;
  /**
   * The event the note rides (default `UserPromptSubmit`: every outcome; `PostToolUse`: a tool's result, carrying
   * the outcomes `blockingOnly` allows).
   */
  readonly event?: 'UserPromptSubmit' | 'PostToolUse';
  readonly blockingOnly?: boolean;
}

/** The delivery path kept on each outcome this hook carries. */
const VIA: Readonly<Record<'UserPromptSubmit' | 'PostToolUse', DeliveryPath>> = {
  UserPromptSubmit: 'prompt',
  PostToolUse: 'tool-call',
};

/**
 * Deliver what waits for the project, if anything. Writes nothing when nothing waits. Resolves true when nothing of
 * what this run carries is left waiting (nothing was, or all of it was delivered and confirmed).
 */
export async function deliverWaitingOutcomes(options: DeliverOptions): Promise<boolean> {
  const { config, deadline } = options;
  const opening = openStore(config.store, {
    connectTimeoutMs: options.connectTimeoutMs,
    // The bare RESP client: one socket, no reconnecting, for a process that lives for one prompt.
    connection: 'minimal',
    // Another process's write transaction is waited for at most this long (SQLite blocks the process meanwhile).
    busyTimeoutMs: options.connectTimeoutMs,
  });
  // If the deadline comes while connecting, close the store the moment the connection is made.
  deadline.onExpire(() => {
    opening.then((store) => store.close()).catch(() => undefined);
  });
  const store = await deadline.race(opening, 'the inbox did not answer');
  deadline.onExpire(() => {
    store.close().catch(() => undefined);
  });
  try {
    return await deliver(store, options);
  } finally {
    await store.close();
  }
}

async function deliver(store: AgentStore, options: DeliverOptions): Promise<boolean> {
  const { config, deadline, write } = options;
  const event = options.event ?? 'UserPromptSubmit';
  const project = config.project;
  const claim = await deadline.race(
    store.claimUndelivered(project, {
      budget: deliveryEntriesBudget(),
      leaseMs: LEASE_MS,
      ...(options.blockingOnly === true ? { blockingOnly: true } : {}),
      ...(event === 'PostToolUse' ? { via: VIA[event] } : {}),
    }),
    'the inbox did not answer',
  );
  if (claim.questions.length === 0) return claim.remaining === 0;

  let note: ReturnType<typeof renderDeliveryNote>;
  try {
    note = renderDeliveryNote(claim.questions, claim.remaining);
    await deadline.race(write(hookOutput(event, note.text)), 'the note could not be written');
  } catch (error) {
    // Not written (or not known to be): give the outcomes back for the next prompt rather than wait out the lease.
    await giveBack(store, project, claim, deadline);
    throw error;
  }
  // Written: from here on, giving up would make these answers come again after the lease.
  deadline.extend(CONFIRM_GRACE_MS);
  try {
    // One round trip: both go out pipelined on the one connection.
    await deadline.race(
      Promise.all([
        store.confirmClaim(project, claim, note.includedIds),
        note.omittedIds.length === 0 ? Promise.resolve() : store.releaseClaim(project, claim, note.omittedIds),
      ]),
      'the inbox did not confirm the delivery',
    );
  } catch (error) {
    throw new UnconfirmedDeliveryError('the answers were added to this prompt but not marked delivered', {
      cause: error,
    });
  }
  return claim.remaining === 0 && note.omittedIds.length === 0;
}

/** Release the whole claim, best effort: if this fails the lease lapses instead. */
async function giveBack(store: AgentStore, project: string, claim: Claim, deadline: Deadline): Promise<void> {
  if (deadline.expired) return;
  await deadline.race(store.releaseClaim(project, claim), 'release').catch(() => undefined);
}
