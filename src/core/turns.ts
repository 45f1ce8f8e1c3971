/**
 * Who holds a Claude Code session between turns (BRIEF "Delivery", the wake path): a store lease named after the
 * session. Its idle-time waiter (`ask-later wait`) holds it while the session waits for the person; a turn starting
 * takes it (`collect_answers` on `UserPromptSubmit`), so that waiter ends instead of waking a working session; the
 * waiter the turn's `Stop` starts gives the turn's hold back (the same prompt id) and takes it again. Pure names.
 */

/** The session's lease. */
export const waiterLease = (sessionId: string): string => `waiter:${sessionId}`;

/** A turn's owner name: its prompt id (which the `Stop` that ends it names too), else a plain `turn`. */
export const turnOwner = (promptId: string): string =>
  /^[A-Za-z0-9_-]{1,128}$/.test(promptId) ? `turn:${promptId}` : 'turn';

/** How long a turn holds the session if no `Stop` ever comes (a session that crashed mid-turn). */
export const TURN_LEASE_MS = 60 * 60 * 1000;
