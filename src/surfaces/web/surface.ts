/**
 * The web inbox as a surface of the bridge, and the hub that tells open pages what changed. Every project is
 * "routed" to its one channel, `local`, so the bridge records a web copy of every parked question (the decision trail
 * names where a question was shown); posting and redrawing send nothing anywhere, so nothing can fail.
 *
 * The pages' change notices do not come from the bridge, which hands each event to one replica only: every replica
 * follows the store's events itself (`followStoreChanges`, a tail outside any group) and calls {@link WebSurface.notify},
 * so with several `serve` replicas on one store every page hears of every change, whichever replica handled it.
 */
import type { MessageRef, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import type { ChangeDetails } from '../store-changes.js';
import type { Surface } from '../surface.js';

/** The web inbox's one channel: the routing for platform `web` is `[WEB_CHANNEL]` for every project. */
export const WEB_CHANNEL = 'local';

/** Called with a question's ref when it may have changed. */
export type ChangeListener = (ref: string, details: ChangeDetails) => void;

export class WebSurface implements Surface {
  readonly platform = 'web' as const;
  readonly #listeners = new Set<ChangeListener>();

  channelsFor(_project: string): readonly string[] {
    return [WEB_CHANNEL];
  }

  async post(question: Question, channel: string): Promise<MessageRef> {
    return { platform: 'web', channel, messageId: formatQuestionRef(question.project, question.id) };
  }

  /** Nothing to redraw: the pages hear of the change from the store's events (see the file's comment). */
  async update(_question: Question): Promise<void> {}

  /** Tell every listener (open page) that the question `ref` may have changed. A failing listener is skipped. */
  notify(ref: string, details: ChangeDetails = {}): void {
    for (const listener of this.#listeners) {
      try {
        listener(ref, details);
      } catch {
        // One broken stream must not keep the others (or the bridge) from going on.
      }
    }
  }

  /** Listen for changes; returns the function that stops listening. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** How many listeners are attached (open pages), for tests and health. */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}
