/**
 * What the Store port and the trail's reader share about reading decisions: which page of the trail, and what an
 * earlier decision like a new question looks like. Types only, so the port and trail.ts each import them from here.
 */
import type { Decision } from '../core/decision.js';

export type { DecisionPage } from '../core/decision.js';

/** Which page of the trail to read. Omitted fields do not filter. */
export interface TrailQuery {
  /** Only answers given at or after this time (ms since the epoch). */
  readonly since?: number;
  /** Free text: only decisions matching every word of it (see {@link decisionMatches}). Blank does not filter. */
  readonly search?: string;
  /** At most this many decisions. */
  readonly limit: number;
  /** The `next` of an earlier page. */
  readonly after?: string;
}

/** An earlier decision like a new question: which one, which of its items matched (a set's member), how alike. */
export interface SimilarDecision {
  readonly decision: Decision;
  /** The matching member of an earlier set (0 for its first); absent for a single question. */
  readonly member?: number;
  /** From 0 to about 1 (`core/similarity.ts`). */
  readonly score: number;
}

/** How alike an earlier decision must be, and how many are returned per item (defaults: the core's). */
export interface SimilarOptions {
  readonly threshold?: number;
  readonly max?: number;
}
