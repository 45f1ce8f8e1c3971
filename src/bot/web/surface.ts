/**
 * The web inbox as a surface of the bridge. Every project is "routed" to its one channel, `local`, so the bridge
 * posts every parked question here and redraws it on every transition; posting and redrawing only tell the open
 * pages (their server-sent event streams) that the question changed, and the pages fetch what they show. Nothing
 * is sent anywhere, so nothing can fail.
 *
 * One bridge in a group handles each event: with several `serve` replicas on one store, a page learns of a change
 * only when its own replica handled the event (or its own actions changed something). The inbox is a one-machine
 * view, so this is accepted.
 */
import type { MessageRef, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import type { Surface } from '../surface.js';

/** The web inbox's one channel: the routing for platform `web` is `[WEB_CHANNEL]` for every project. */
export const WEB_CHANNEL = 'local';

/** Called with a question's ref when it may have changed. */
export type ChangeListener = (ref: string) => void;

export class WebSurface implements Surface {
  readonly platform = 'web' as const;
  readonly #listeners = new Set<ChangeListener>();

  channelsFor(_project: string): readonly string[] {
    return [WEB_CHANNEL];
  }

  async post(question: Question, channel: string): Promise<MessageRef> {
    const ref = formatQuestionRef(question.project, question.id);
    this.notify(ref);
    return { platform: 'web', channel, messageId: ref };
  }

  async update(question: Question): Promise<void> {
    this.notify(formatQuestionRef(question.project, question.id));
  }

  /** Tell every listener (open page) that the question `ref` may have changed. A failing listener is skipped. */
  notify(ref: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(ref);
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
