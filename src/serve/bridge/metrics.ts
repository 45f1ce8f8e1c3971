/**
 * What the bridge counts, per platform, for `GET /metrics` on serve (`serve/metrics.ts` implements it). A port so
 * the bridge knows nothing of Prometheus; each call counts one thing that happened, never anything about its text.
 */
import type { Platform } from '../../core/question.js';

export interface BridgeMetrics {
  /** A copy of a question was posted (a new message on the platform). */
  posted(platform: Platform): void;
  /** A posted copy was redrawn to show the question as it is now. */
  redrawn(platform: Platform): void;
  /** An event is tried again after a failed attempt (each attempt after the first counts once). */
  retried(platform: Platform): void;
  /** An event was recorded as failed for good (`store.recordFailedEvent`: left to `ask-later retry-failed`). */
  failed(platform: Platform): void;
  /** A reminder was sent: one per reminder message posted on the platform. */
  reminded(platform: Platform): void;
}
