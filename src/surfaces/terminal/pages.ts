/**
 * Which page of the filter the keyboard inbox shows, and reading it: the first, or the one after a question's ref (the
 * store's pending order never moves a question, so a ref marks a page's start even once that question is answered),
 * with the starts of the pages before it to go back to.
 */
import type { InboxFilter, InboxPage } from '../../core/inbox.js';
import type { Action, ActionResult } from '../actions/action.js';

/** Questions one screen reads: a page of the filter. */
export const PAGE_LIMIT = 50;

export class PageTurns {
  #after: string | undefined;
  readonly #before: (string | undefined)[] = [];

  /** Where the page shown starts: after this ref; undefined for the first page. */
  get after(): string | undefined {
    return this.#after;
  }

  /** Back to the first page (a filter or project changed). */
  reset(): void {
    this.#after = undefined;
    this.#before.length = 0;
  }

  /** Onto the page after `page`; false when none follows. */
  next(page: InboxPage | undefined): boolean {
    if (page?.next === undefined) return false;
    this.#before.push(this.#after);
    this.#after = page.next;
    return true;
  }

  /**
   * The page shown, read through the pipeline's `inbox` action (of the project's tag, if given); the page before it
   * when everything on it was answered meanwhile (`turnedBack`). Undefined when the read was refused.
   */
  async read(
    perform: (action: Action) => Promise<ActionResult>,
    filter: InboxFilter,
    project: string | undefined,
  ): Promise<{ readonly page: InboxPage; readonly turnedBack: boolean } | undefined> {
    let turnedBack = false;
    for (;;) {
      const after = this.#after;
      const result = await perform({
        kind: 'inbox',
        request: {
          filter,
          limit: PAGE_LIMIT,
          ...(project === undefined ? {} : { project }),
          ...(after === undefined ? {} : { after }),
        },
      });
      if (result.kind !== 'inbox') return undefined;
      if (result.page.items.length > 0 || !this.previous()) return { page: result.page, turnedBack };
      turnedBack = true;
    }
  }

  /**
   * Onto the next page when the focus moves `to` past the last question of `page`, onto the one before when it moves
   * before the first; false when it stays on this page (or no page is there).
   */
  turn(page: InboxPage | undefined, to: number): boolean {
    if (page !== undefined && to >= page.items.length) return this.next(page);
    return to < 0 && this.previous();
  }

  /** Back onto the page before; false on the first page. */
  previous(): boolean {
    if (this.#before.length === 0) return false;
    this.#after = this.#before.pop();
    return true;
  }
}
