/**
 * What the terminal inbox works with, wired by the command (`run.ts`) from the store: the one service every surface
 * answers through, who answers and where, and the store's changes as they happen. Nothing here reaches the store.
 */
import type { Actor, InteractionService, Place } from '../interactions.js';

/** Called when a question may have changed (parked, answered, withdrawn…), with its ref when that is known. */
export type ChangeListener = (ref?: string) => void;

export interface TerminalInbox {
  readonly interactions: InteractionService;
  readonly actor: Actor;
  readonly place: Place;
  /** Hear of every change to the store's questions from now on; returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void;
}
