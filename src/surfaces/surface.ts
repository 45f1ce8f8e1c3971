/**
 * A chat platform as the bridge sees it: where a project's questions go, how to post one, how to redraw a copy.
 * Platform folders (surfaces/slack, surfaces/discord) implement it; nothing here knows a platform's API.
 */
import type { MessageRef, Platform, Question } from '../core/question.js';
import type { Reminder } from '../core/reminder.js';

export type { Reminder } from '../core/reminder.js';

export interface PostOptions {
  /**
   * This question may already have been posted to the channel by a bridge that died before recording it (the
   * event is being handled again). The surface should look for that copy first, as far as the platform allows.
   */
  readonly maybePostedBefore: boolean;
}

export interface Surface {
  readonly platform: Platform;
  /** Channels of this platform the project's questions go to; empty when the project is not routed here. */
  channelsFor(project: string): readonly string[];
  /** Post the question as it is now; returns where. Throws on failure (the bridge retries). */
  post(question: Question, channel: string, options: PostOptions): Promise<MessageRef>;
  /** Redraw one posted copy to show the question as it is now. Throws on failure (the bridge retries). */
  update(question: Question, ref: MessageRef): Promise<void>;
  /**
   * Send a reminder of a pending blocking question next to one posted copy (in its thread, or as a reply to it),
   * mentioning only `reminder.owners`, never a whole channel. `maybePostedBefore`: this reminder may already have
   * been sent (the event is being handled again); the surface avoids a second one as far as the platform allows.
   * Throws on failure (the bridge retries). Absent: the surface sends no reminders (the web inbox).
   */
  remind?(question: Question, ref: MessageRef, reminder: Reminder, options: PostOptions): Promise<void>;
  /**
   * What went wrong in one of this surface's calls (see {@link SurfaceFailure}), from the platform's own error codes.
   * Default: transient, coded by the error's name.
   */
  classifyFailure?(error: unknown): SurfaceFailure;
}

/**
 * A failed call as the bridge acts on it (BullMQ's "unrecoverable error"): a `transient` one (a rate limit, a 5xx,
 * a reset, a time-out) is tried again with bounded back-off; a `permanent` one cannot succeed until a person fixes
 * something, so the event is recorded as failed at once and, unless it concerns this event alone, the surface is
 * shown degraded until a post on it succeeds again.
 */
export type SurfaceFailure =
  | {
      readonly kind: 'transient';
      /** A short code for the failed-event record and the logs (`ratelimited`, `HTTP 503`): never a message. */
      readonly code: string;
    }
  | {
      readonly kind: 'permanent';
      readonly code: string;
      /** What a person must do, one line for the log and doctor ("invite the app to the channel"). */
      readonly fix: string;
      /** What the refusal covers: the whole platform (its token, a scope), the channel, or this event alone. */
      readonly reach: 'platform' | 'channel' | 'event';
    };
