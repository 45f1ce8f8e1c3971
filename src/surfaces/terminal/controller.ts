/**
 * The keyboard inbox's behaviour, apart from Ink: what it shows (a page of the filter, pages.ts; j / k go on past its
 * ends), how it is looked at (the focused question, a set's tab, the focused option, a notes field, a review, a
 * confirmation), and what each key does, as actions through `perform` (so every refusal is the other surfaces').
 * One task at a time, so a refresh never overtakes the draft it should show. Drafts live in the store (a redraw reads
 * them back); only notes being typed live here till saved. `changed`: the screen is to be drawn again.
 */
import type { InboxFilter, InboxItem, InboxPage } from '../../core/inbox.js';
import { silentLogger } from '../../core/logger.js';
import { itemsOf } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import type { Action, ActionResult } from '../actions/action.js';
import { perform } from '../actions/perform.js';
import type { ReviewOf } from '../review.js';
import {
  firstPickedRow,
  nextFilter,
  notesChange,
  notesFieldFor,
  resultMessage,
  rowPick,
  tabAfter,
  typeInto,
} from './edits.js';
import { type InkKey, keyOf, screenKey } from './keys.js';
import { closedMeanwhile, nextProject } from './list.js';
import { PageTurns } from './pages.js';
import { type NotesField, type ScreenView, screenLines } from './screen.js';
import type { TerminalInbox } from './session.js';

export interface ControllerOptions {
  readonly filter: InboxFilter;
  /** The project filter: its tag and name. */
  readonly project?: { readonly tag: string; readonly name: string };
  /** Called when the screen should be drawn again. */
  readonly changed: () => void;
  /** Called on `q`. */
  readonly quit: () => void;
}

type Message = { readonly text: string; readonly ok: boolean };

export class InboxController {
  readonly #inbox: TerminalInbox;
  readonly #o: ControllerOptions;
  #filter: InboxFilter;
  #project: { readonly tag: string; readonly name: string } | undefined;
  #page: InboxPage | undefined;
  readonly #pages = new PageTurns();
  #focusRef: string | undefined;
  #focus = 0;
  readonly #members = new Map<string, number>();
  #option = 0;
  #scroll = 0;
  #notes: NotesField | undefined;
  #review: { readonly review: ReviewOf; readonly check: string } | undefined;
  #confirmRemove = false;
  #help = false;
  #messages: Message[] = [];
  /** Refs this screen sent or removed: their leaving the list is no news. */
  readonly #own = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();
  #refreshQueued = false;
  #live = false;
  #unsubscribe: (() => void) | undefined;

  constructor(inbox: TerminalInbox, options: ControllerOptions) {
    this.#inbox = inbox;
    this.#o = options;
    this.#filter = options.filter;
    this.#project = options.project;
  }

  /** Reads the first page and follows the store's changes. */
  async start(): Promise<void> {
    this.#unsubscribe = this.#inbox.subscribe(() => this.refreshSoon());
    this.#live = true;
    await this.#run(() => this.#refresh());
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#live = false;
  }

  /** Resolves once every task queued so far has run (tests). */
  settled(): Promise<unknown> {
    return this.#queue;
  }

  /** The screen now, `width` × `height`. */
  lines(width: number, height: number): string[] {
    const view: ScreenView = {
      width,
      height,
      who: this.#inbox.actor.displayName,
      ...(this.#project === undefined ? {} : { project: this.#project.name }),
      focus: this.#focus,
      member: this.#member(),
      option: this.#option,
      scroll: this.#scroll,
      ...(this.#notes === undefined ? {} : { notes: this.#notes }),
      ...(this.#review === undefined ? {} : { review: this.#review.review }),
      confirmRemove: this.#confirmRemove,
      help: this.#help,
      messages: this.#messages,
      live: this.#live,
    };
    return screenLines(this.#page, view);
  }

  /** Reads the page again soon (one read queued however many changes arrive meanwhile). */
  refreshSoon(): void {
    if (this.#refreshQueued) return;
    this.#refreshQueued = true;
    void this.#run(() => {
      this.#refreshQueued = false;
      return this.#refresh();
    });
  }

  #run(task: () => Promise<unknown>): Promise<unknown> {
    this.#queue = this.#queue
      .then(task)
      .catch(() => this.#say('The inbox did not answer (its store is unreachable?); try again.', false))
      .finally(() => this.#o.changed());
    return this.#queue;
  }

  #say(text: string, ok: boolean): void {
    this.#messages = [...this.#messages.slice(-3), { text, ok }];
  }

  #perform(action: Action): Promise<ActionResult> {
    return perform(
      this.#inbox.interactions,
      { actor: this.#inbox.actor, place: this.#inbox.place, action },
      silentLogger,
    );
  }

  #entry(): InboxItem | undefined {
    return this.#page?.items[this.#focus];
  }

  #ref(entry: InboxItem | undefined = this.#entry()): string | undefined {
    return entry === undefined ? undefined : formatQuestionRef(entry.question.project, entry.question.id);
  }

  #member(): number {
    const ref = this.#ref();
    return ref === undefined ? 0 : (this.#members.get(ref) ?? 0);
  }

  async #refresh(): Promise<void> {
    const before = this.#page;
    const read = await this.#pages.read((action) => this.#perform(action), this.#filter, this.#project?.tag);
    const { page, turnedBack } = read ?? {};
    if (page === undefined) return;
    const refs = page.items.map((entry) => this.#ref(entry));
    for (const text of await closedMeanwhile(this.#inbox, before, page, this.#own)) this.#say(text, false);
    this.#page = page;
    const at = this.#focusRef === undefined ? -1 : refs.indexOf(this.#focusRef);
    const last = Math.max(0, page.items.length - 1);
    const focus = at >= 0 ? at : turnedBack ? last : Math.min(this.#focus, last);
    this.#focusOn(focus, at >= 0);
    const reviewed = this.#review?.review.question;
    if (reviewed && this.#ref() !== formatQuestionRef(reviewed.project, reviewed.id)) this.#review = undefined;
  }

  #focusOn(index: number, same: boolean): void {
    this.#focus = index;
    const ref = this.#ref();
    if (!same || ref !== this.#focusRef) {
      this.#focusRef = ref;
      this.#option = firstPickedRow(this.#entry(), this.#member());
      this.#confirmRemove = false;
      this.#review = undefined;
    }
  }

  /** Ink's key event. */
  key(input: string, key: InkKey): void {
    // Keys typed faster than they are read arrive as one chunk of text (`3n`, `ger\r`): each character is a key.
    if (!key.ctrl && !key.meta && [...input].length > 1) {
      for (const char of input) this.key(char, keyOf(char));
      return;
    }
    if (this.#help) {
      this.#help = false;
      this.#o.changed();
      return;
    }
    if (this.#notes !== undefined) {
      this.#typeNotes(input, key);
      return;
    }
    if (this.#confirmRemove) {
      this.#confirmRemove = false;
      const ref = this.#ref();
      if (input === 'y' && ref !== undefined) this.#act({ kind: 'remove', ref });
      else if (ref !== undefined) this.#act({ kind: 'keep', ref });
      this.#o.changed();
      return;
    }
    if (this.#review !== undefined) {
      if (key.return) {
        const { review, check } = this.#review;
        this.#act({ kind: 'confirm-send', ref: formatQuestionRef(review.question.project, review.question.id), check });
        return;
      }
      if (key.escape) {
        this.#review = undefined;
        this.#messages = [];
        this.#o.changed();
        return;
      }
    }
    const entry = this.#entry();
    const action = screenKey(input, key, { inCard: entry !== undefined, isSet: entry?.question.members !== undefined });
    if (action === undefined) return;
    this.#messages = [];
    this.#scroll = action.kind === 'scroll' ? Math.max(-10, Math.min(10, this.#scroll + action.by)) : 0;
    this.#do(action);
    this.#o.changed();
  }

  #do(action: NonNullable<ReturnType<typeof screenKey>>): void {
    const entry = this.#entry();
    const ref = this.#ref();
    const items = this.#page?.items ?? [];
    const rows = entry === undefined ? 0 : (itemsOf(entry.question)[this.#member()]?.options.length ?? 0) + 1;
    if (action.kind === 'quit') this.#o.quit();
    else if (action.kind === 'help') this.#help = true;
    else if (action.kind === 'card' && items.length === 0) this.#say('Nothing waiting.', true);
    else if (action.kind === 'card') this.#move(action.by);
    else if (action.kind === 'filter') {
      this.#filter = nextFilter(this.#filter, action.by);
      this.#pages.reset();
      this.#page = undefined;
      this.refreshSoon();
    } else if (action.kind === 'project') void this.#run(() => this.#nextProject());
    else if (action.kind === 'send-ready')
      this.#act({ kind: 'send-ready', refs: items.map((each) => this.#ref(each) ?? '') });
    else if (entry === undefined || ref === undefined || action.kind === 'leave') return;
    else if (action.kind === 'row') this.#option = Math.min(rows - 1, Math.max(0, this.#option + action.by));
    else if (action.kind === 'tab') {
      this.#members.set(ref, tabAfter(this.#member(), entry.question.members?.length ?? 1, action.to));
      this.#option = firstPickedRow(entry, this.#member());
    } else if (action.kind === 'pick' && action.row >= rows)
      this.#say(`There is no option ${action.row + 1} here.`, false);
    else if (action.kind === 'pick') {
      this.#option = action.row;
      this.#pick(entry, ref, action.row);
    } else if (action.kind === 'toggle') this.#pick(entry, ref, this.#option);
    else if (action.kind === 'notes') this.#openNotes(entry, ref);
    else if (action.kind === 'remove') this.#confirmRemove = true;
    else if (action.kind === 'send') {
      if (entry.question.members === undefined) this.#own.add(ref);
      this.#act({ kind: 'send', ref, reviewSets: true });
    }
  }

  /** Pick (or, on a multi-select, toggle) a row of the open item: an option, or Other (the last row). */
  #pick(entry: InboxItem, ref: string, row: number): void {
    const member = entry.question.members === undefined ? undefined : this.#member();
    this.#act({ kind: 'pick', ref, ...(member === undefined ? {} : { member }), read: rowPick(row) });
  }

  /** `n`: notes for the focused option of a multi-select (picking it first), else the answer's notes. */
  #openNotes(entry: InboxItem, ref: string): void {
    const opened = notesFieldFor(entry, ref, this.#member(), this.#option);
    if (opened === undefined) return;
    if (opened.pickFirst) this.#pick(entry, ref, this.#option);
    this.#notes = opened.field;
  }

  #typeNotes(input: string, key: InkKey): void {
    const field = this.#notes;
    if (field === undefined) return;
    const typed = typeInto(field, input, key);
    if (typed === 'done') {
      this.#notes = undefined;
      this.#act({ kind: 'draft', ref: field.ref, read: () => [notesChange(field)] });
    } else this.#notes = typed;
    this.#o.changed();
  }

  /** j / k: the question below or above, onto the next or the previous page past the ends of this one. */
  #move(by: number): void {
    const last = (this.#page?.items.length ?? 0) - 1;
    if (!this.#pages.turn(this.#page, this.#focus + by))
      this.#focusOn(Math.min(last, Math.max(0, this.#focus + by)), false);
    else
      void this.#run(async () => {
        await this.#refresh();
        this.#focusOn(by > 0 ? 0 : Math.max(0, (this.#page?.items.length ?? 1) - 1), false);
      });
  }

  async #nextProject(): Promise<void> {
    this.#pages.reset();
    this.#project = await nextProject(this.#inbox, this.#project?.tag);
    this.#page = undefined;
    await this.#refresh();
  }

  /** Run an action, say what came of it, and read the page again. */
  #act(action: Action): void {
    void this.#run(async () => {
      const result = await this.#perform(action);
      this.#show(result);
      await this.#refresh();
    });
  }

  #show(result: ActionResult): void {
    if (result.kind === 'review') this.#review = { review: result.review, check: result.check };
    if (result.kind === 'sent' || result.kind === 'removed') {
      this.#own.add(formatQuestionRef(result.question.project, result.question.id));
      this.#review = undefined;
    }
    if (result.kind === 'batch') for (const each of result.results) if (each.ok) this.#own.add(each.ref);
    const said = resultMessage(result);
    if (said !== undefined) this.#say(said.text, said.ok);
  }
}
