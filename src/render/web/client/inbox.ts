/**
 * The web inbox's client script (bundled by scripts/bundle-client.mjs into `../client.ts`, served as
 * `WEB_ROUTES.script`). It keeps the server-rendered page live and sends what the person does; it never builds markup
 * from data:
 * - every change (a pick, notes, Send, a set's review, Send N, Remove, a filter, a page) is a JSON POST or a new
 *   query, then the inbox fragment (one page: its cost is bounded by the page, not the store) is fetched again and
 *   swapped in whole (the server escaped every text in it);
 * - server-sent events (`WEB_ROUTES.events`) say that a question changed; the fragment is fetched again, at most one
 *   fetch queued at a time however many events arrive meanwhile;
 * - all of it runs in one queue, so a refresh never overtakes the draft it should show;
 * - a redraw keeps the focused element (and caret), notes typed but not yet saved, open folds, each set's open tab,
 *   an open review and a refusal shown in a card;
 * - the tab title counts what waits, and a blocking question parked raises a desktop notification once the person
 *   allowed them with a click (`attention.ts`);
 * - the keyboard (`keys.ts`): pick, notes, send, the set's tabs, the `?` overlay; what a key did is said in the live
 *   region (`#flash`), as every outcome is, with `textContent`.
 */
import { WEB_ROUTES } from '../paths.js';
import { startAttention } from './attention.js';
import { type KeyAction, type KeyTarget, keyAction } from './keys.js';

/** What every JSON action answers. */
interface ActionResult {
  readonly ok: boolean;
  readonly text: string;
  /** Draft: the ready mark of the item changed. */
  readonly readiness?: string;
  /** Review: whether every question of the set is ready. */
  readonly ready?: boolean;
  /** Review: the whole answer as one line. */
  readonly summary?: string;
}

/** A pick as the server takes it: option indexes and Other. */
interface PickBody {
  readonly choices: number[];
  readonly other: boolean;
}

/** Notes typed in a field and not saved yet. */
interface PendingNotes {
  readonly ref: string;
  readonly member: number | undefined;
  /** The option the notes are for (notes per option); undefined: the answer's notes. */
  readonly choice: number | undefined;
  readonly text: string;
}

const READY_WORDS: Readonly<Record<string, string>> = {
  ready: 'ready',
  'pick-one': 'pick one',
  'needs-note': 'needs a note',
};

function start(): void {
  const found = document.getElementById('inbox');
  if (!found) return;
  const root: HTMLElement = found;
  const flashBox = document.getElementById('flash');
  const live = document.getElementById('live');
  const help = document.getElementById('keys-help');
  const helpDialog = help instanceof HTMLDialogElement ? help : undefined;

  let queue: Promise<unknown> = Promise.resolve();
  let refreshQueued = false;
  const notesTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const unsaved = new Map<string, PendingNotes>();
  /** Each set's open tab, by ref (absent: the first). */
  const openTabs = new Map<string, number>();
  /** Sets whose review is open, by ref. */
  const reviewing = new Set<string>();
  /** A refusal shown in a card, by ref, until the card changes. */
  const notices = new Map<string, string>();
  /** What a key just picked, said once the draft is saved. */
  let announcePick: string | undefined;
  /** Where the focus was when the `?` overlay opened. */
  let beforeHelp: HTMLElement | undefined;
  /** The tab title and desktop notifications; a notification's click focuses its card. */
  const attention = startAttention((ref) => cardByRef(ref)?.focus());

  function run(task: () => Promise<unknown>): Promise<unknown> {
    queue = queue.then(task).catch(() => {
      flash('The inbox did not answer; try again.', false);
    });
    return queue;
  }

  function flash(text: string, ok: boolean): void {
    if (!flashBox) return;
    flashBox.textContent = text;
    flashBox.className = `flash ${ok ? 'flash-ok' : 'flash-warn'}`;
    flashBox.hidden = text === '';
  }

  function signedOut(response: Response): boolean {
    if (response.status !== 401) return false;
    location.reload();
    return true;
  }

  function refreshSoon(): void {
    if (refreshQueued) return;
    refreshQueued = true;
    void run(() => {
      refreshQueued = false;
      return refresh();
    });
  }

  async function refresh(): Promise<void> {
    const response = await fetch(WEB_ROUTES.inbox + location.search, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'text/html' },
    });
    if (signedOut(response)) return;
    if (!response.ok) throw new Error(`inbox ${response.status}`);
    swap(await response.text());
  }

  function swap(markup: string): void {
    const active = document.activeElement;
    const focusId = active instanceof HTMLElement && active.id !== '' && root.contains(active) ? active.id : undefined;
    const caret =
      active instanceof HTMLTextAreaElement ? ([active.selectionStart, active.selectionEnd] as const) : undefined;
    const open: string[] = [];
    for (const details of root.querySelectorAll('details[open][id]')) open.push(details.id);
    // Server-rendered markup: every text in it was escaped there.
    const template = document.createElement('template');
    template.innerHTML = markup;
    root.replaceChildren(template.content);
    attention.countFrom(root);
    for (const id of open) {
      const details = document.getElementById(id);
      if (details instanceof HTMLDetailsElement) details.open = true;
    }
    for (const [key, pending] of unsaved) {
      const area = fieldByKey(key);
      if (area) area.value = pending.text;
    }
    for (const card of root.querySelectorAll<HTMLElement>('article.card.is-pending[data-ref]')) {
      applyTabs(card);
      applyReview(card);
      applyNotice(card);
    }
    if (focusId !== undefined) {
      const element = document.getElementById(focusId);
      if (element) {
        // Notes per option being typed stay open, even when a redraw read the draft before its pick was saved.
        showRow(element, true);
        element.focus();
        if (caret && element instanceof HTMLTextAreaElement) element.setSelectionRange(caret[0], caret[1]);
      }
    }
  }

  async function post(path: string, body: unknown): Promise<ActionResult> {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (signedOut(response)) return { ok: false, text: '' };
    try {
      const result: unknown = await response.json();
      return isResult(result) ? result : { ok: false, text: `The inbox answered ${response.status}.` };
    } catch {
      return { ok: false, text: `The inbox answered ${response.status}.` };
    }
  }

  function report(result: ActionResult): void {
    if (result.text !== '') flash(result.text, result.ok);
  }

  // The page's structure, as the server renders it (`render/web/card.ts`).

  function cardOf(element: Element | null): HTMLElement | undefined {
    const card = element?.closest<HTMLElement>('article.card[data-ref]');
    return card && root.contains(card) ? card : undefined;
  }

  function cardByRef(ref: string): HTMLElement | undefined {
    return root.querySelector<HTMLElement>(`article.card[data-ref="${CSS.escape(ref)}"]`) ?? undefined;
  }

  function refOf(card: HTMLElement): string {
    return card.dataset.ref ?? '';
  }

  function isSet(card: HTMLElement): boolean {
    return card.classList.contains('is-set');
  }

  /** The question a pick or notes belong to: the card's one item, or a set's member panel. */
  function itemOf(element: Element): HTMLElement | undefined {
    return element.closest<HTMLElement>('.item') ?? undefined;
  }

  /** The item keys act on: the focused question, or the open tab's member of a set. */
  function activeItem(card: HTMLElement): HTMLElement | undefined {
    if (!isSet(card)) return card.querySelector<HTMLElement>('.item') ?? undefined;
    const member = openTabs.get(refOf(card)) ?? 0;
    return card.querySelector<HTMLElement>(`.item[data-member="${member}"]`) ?? undefined;
  }

  function memberOf(item: HTMLElement): number | undefined {
    const member = item.dataset.member;
    return member === undefined ? undefined : Number(member);
  }

  function inputsOf(item: HTMLElement): HTMLInputElement[] {
    return [...item.querySelectorAll<HTMLInputElement>('.picker input')];
  }

  function pickOf(item: HTMLElement): PickBody {
    const choices: number[] = [];
    let other = false;
    for (const input of inputsOf(item)) {
      if (!input.checked) continue;
      if (input.value === 'other') other = true;
      else choices.push(Number(input.value));
    }
    return { choices, other };
  }

  /** What each member of a set shows picked, in order. */
  function picksOf(card: HTMLElement): PickBody[] {
    return [...card.querySelectorAll<HTMLElement>('.item[data-member]')].map(pickOf);
  }

  function labelOf(input: HTMLInputElement): string {
    const text = input.closest('.option')?.querySelector('.option-label')?.textContent ?? input.value;
    return text.replace(/^★ /, '');
  }

  function fieldOf(area: HTMLTextAreaElement): PendingNotes | undefined {
    const card = cardOf(area);
    const item = itemOf(area);
    if (!card || !item) return undefined;
    const choice = area.dataset.choice;
    return {
      ref: refOf(card),
      member: memberOf(item),
      choice: choice === undefined ? undefined : Number(choice),
      text: area.value,
    };
  }

  function keyOf(field: Pick<PendingNotes, 'ref' | 'member' | 'choice'>): string {
    return `${field.ref}|${field.member ?? ''}|${field.choice ?? ''}`;
  }

  function fieldByKey(key: string): HTMLTextAreaElement | undefined {
    for (const area of root.querySelectorAll<HTMLTextAreaElement>('textarea[data-notes]')) {
      const field = fieldOf(area);
      if (field && keyOf(field) === key) return area;
    }
    return undefined;
  }

  /** Show or hide the notes field of an option's row (notes per option are for picked options). */
  function showRow(area: Element, shown: boolean): void {
    const box = area.closest<HTMLElement>('.choice-notes');
    if (box) box.hidden = !shown;
  }

  function showPickedNotes(item: HTMLElement): void {
    for (const input of inputsOf(item)) {
      const area = input.closest('.option-row')?.querySelector('textarea[data-notes="choice"]');
      if (area) showRow(area, input.checked);
    }
  }

  // A set's tabs, its review, and refusals shown in place.

  function applyTabs(card: HTMLElement): void {
    if (!isSet(card)) return;
    const open = openTabs.get(refOf(card)) ?? 0;
    for (const tab of card.querySelectorAll<HTMLElement>('[role="tab"][data-member]')) {
      const selected = Number(tab.dataset.member) === open;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      tab.classList.toggle('is-open', selected);
    }
    for (const panel of card.querySelectorAll<HTMLElement>('[role="tabpanel"][data-member]')) {
      panel.hidden = Number(panel.dataset.member) !== open;
    }
  }

  function openTab(card: HTMLElement, member: number): void {
    openTabs.set(refOf(card), member);
    applyTabs(card);
    card.querySelector<HTMLElement>(`[role="tab"][data-member="${member}"]`)?.focus();
  }

  function applyReview(card: HTMLElement): void {
    const ref = refOf(card);
    const review = card.querySelector<HTMLElement>('.review');
    const open = reviewing.has(ref) && review !== null && card.dataset.readiness === 'ready';
    if (!open) reviewing.delete(ref);
    if (review) review.hidden = !open;
  }

  function closeReview(card: HTMLElement): void {
    reviewing.delete(refOf(card));
    applyReview(card);
    card.querySelector<HTMLElement>('button[data-action="send"]')?.focus();
  }

  function applyNotice(card: HTMLElement): void {
    const box = card.querySelector<HTMLElement>('.notice');
    if (!box) return;
    const text = notices.get(refOf(card)) ?? '';
    box.textContent = text;
    box.hidden = text === '';
  }

  function notice(ref: string, text: string | undefined): void {
    if (text === undefined || text === '') notices.delete(ref);
    else notices.set(ref, text);
    const card = cardByRef(ref);
    if (card) applyNotice(card);
  }

  // Saving what the person does.

  function saveNotes(key: string): void {
    clearTimeout(notesTimers.get(key));
    notesTimers.delete(key);
    if (!unsaved.has(key)) return;
    void run(async () => {
      const pending = unsaved.get(key);
      if (!pending) return;
      const body = {
        ref: pending.ref,
        ...(pending.member === undefined ? {} : { member: pending.member }),
        ...(pending.choice === undefined
          ? { notes: pending.text }
          : { choiceNotes: [{ choice: pending.choice, notes: pending.text }] }),
      };
      const result = await post(WEB_ROUTES.draft, body);
      if (unsaved.get(key)?.text === pending.text) unsaved.delete(key);
      if (!result.ok) report(result);
      await refresh();
    });
  }

  function flushNotes(): void {
    for (const key of [...unsaved.keys()]) saveNotes(key);
  }

  function act(path: string, body: () => unknown): void {
    flushNotes();
    void run(async () => {
      report(await post(path, body()));
      await refresh();
    });
  }

  /** The waiting card after `card` (else before it): where the focus goes once `card` is sent. */
  function neighbourOf(card: HTMLElement): string | undefined {
    const cards = waitingCards();
    const at = cards.indexOf(card);
    return (cards[at + 1] ?? cards[at - 1])?.id;
  }

  /**
   * Send a card's answer (a set: after its review): what it shows picked when Send was pressed, with the notes typed
   * so far; the focus moves on to the next waiting card.
   */
  function send(card: HTMLElement, body: unknown): void {
    const ref = refOf(card);
    const next = neighbourOf(card);
    flushNotes();
    void run(async () => {
      const result = await post(WEB_ROUTES.send, body);
      report(result);
      notice(ref, result.ok ? undefined : result.text);
      if (result.ok) reviewing.delete(ref);
      await refresh();
      if (result.ok && (document.activeElement === null || document.activeElement === document.body)) {
        const target = (next === undefined ? undefined : document.getElementById(next)) ?? cardByRef(ref);
        target?.focus();
      }
    });
  }

  function sendSingle(card: HTMLElement): void {
    const item = activeItem(card);
    send(card, { ref: refOf(card), ...(item ? { pick: pickOf(item) } : {}) });
  }

  /** A set's Send: refused in place until every question is ready, else its review opens on Send all. */
  function review(card: HTMLElement): void {
    const ref = refOf(card);
    const picks = picksOf(card);
    flushNotes();
    void run(async () => {
      const result = await post(WEB_ROUTES.review, { ref, picks });
      if (!result.ok || result.ready !== true) {
        flash(result.text, false);
        notice(ref, result.text);
        if (!result.ok) await refresh();
        return;
      }
      notice(ref, undefined);
      reviewing.add(ref);
      await refresh();
      const shown = cardByRef(ref);
      const confirm = shown?.querySelector<HTMLElement>('.review:not([hidden]) button[data-action="confirm"]');
      if (!confirm) {
        flash('The set changed meanwhile; look again before sending.', false);
        return;
      }
      confirm.focus();
      flash(`Review: ${result.summary ?? ''}. Enter sends all, Escape goes back.`, true);
    });
  }

  // The keyboard.

  function waitingCards(): HTMLElement[] {
    return [...root.querySelectorAll<HTMLElement>('#pending article.card.is-pending[data-ref]')];
  }

  function targetOf(element: Element | null): KeyTarget {
    if (!(element instanceof HTMLElement) || element === document.body) return 'page';
    if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement || element.isContentEditable) {
      return 'text';
    }
    if (element instanceof HTMLInputElement) {
      const inPicker = element.closest('.picker') !== null;
      if (element.type === 'radio') return inPicker ? 'radio' : 'control';
      if (element.type === 'checkbox') return inPicker ? 'checkbox' : 'control';
      return ['button', 'submit', 'reset'].includes(element.type) ? 'control' : 'text';
    }
    if (element.matches('[role="tab"]')) return 'tab';
    if (element.matches('article.card')) return 'card';
    if (element.matches('button, a[href], summary, [role="button"]')) return 'control';
    return cardOf(element) ? 'card' : 'page';
  }

  function pickRow(card: HTMLElement, row: number): void {
    const item = activeItem(card);
    const input = item ? inputsOf(item)[row] : undefined;
    if (!input) {
      flash(`There is no option ${row + 1} here.`, false);
      return;
    }
    input.focus();
    if (input.type === 'radio' && input.checked) {
      flash(`${labelOf(input)} is picked already.`, true);
      return;
    }
    announcePick = `${labelOf(input)} ${input.type === 'checkbox' && input.checked ? 'unpicked' : 'picked'}`;
    input.click();
  }

  function openNotes(card: HTMLElement, focused: Element | null): void {
    const item = activeItem(card);
    if (!item) return;
    let area: HTMLTextAreaElement | null = null;
    if (focused instanceof HTMLInputElement && focused.type === 'checkbox' && focused.value !== 'other') {
      area =
        focused.closest('.option-row')?.querySelector<HTMLTextAreaElement>('textarea[data-notes="choice"]') ?? null;
      if (area && !focused.checked) {
        // Notes per option are for picked options: `n` on one not picked picks it.
        announcePick = `${labelOf(focused)} picked`;
        focused.click();
      }
      if (area) showRow(area, true);
    }
    area ??= item.querySelector<HTMLTextAreaElement>('textarea[data-notes="answer"]');
    area?.focus();
  }

  function leave(card: HTMLElement | undefined, target: KeyTarget, focused: Element | null): void {
    if (!card) {
      if (focused instanceof HTMLElement && target === 'text') focused.blur();
      return;
    }
    const ref = refOf(card);
    if (target !== 'text' && reviewing.has(ref)) {
      closeReview(card);
      return;
    }
    const remove = card.querySelector<HTMLDetailsElement>('details.remove[open]');
    if (target !== 'text' && remove) {
      remove.open = false;
      remove.querySelector<HTMLElement>('summary')?.focus();
      return;
    }
    card.focus();
  }

  function moveRow(card: HTMLElement, focused: Element | null, by: 1 | -1): void {
    const item = activeItem(card);
    const inputs = item ? inputsOf(item) : [];
    const at = focused instanceof HTMLInputElement ? inputs.indexOf(focused) : -1;
    const next = at === -1 ? (by === 1 ? 0 : inputs.length - 1) : Math.min(inputs.length - 1, Math.max(0, at + by));
    inputs[next]?.focus();
  }

  function moveTab(card: HTMLElement, to: 'next' | 'previous' | 'first' | 'last'): void {
    const count = card.querySelectorAll('[role="tab"][data-member]').length;
    if (count === 0) return;
    const open = openTabs.get(refOf(card)) ?? 0;
    const next = to === 'first' ? 0 : to === 'last' ? count - 1 : (open + (to === 'next' ? 1 : -1) + count) % count;
    openTab(card, next);
  }

  function moveCard(current: HTMLElement | undefined, by: 1 | -1): void {
    const cards = waitingCards();
    if (cards.length === 0) {
      flash('Nothing waiting.', true);
      return;
    }
    const at = current ? cards.indexOf(current) : -1;
    const next = at === -1 ? (by === 1 ? 0 : cards.length - 1) : Math.min(cards.length - 1, Math.max(0, at + by));
    cards[next]?.focus();
  }

  function toggleHelp(): void {
    if (!helpDialog) return;
    if (helpDialog.open) {
      helpDialog.close();
      return;
    }
    beforeHelp = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    helpDialog.showModal();
  }

  function perform(action: KeyAction, card: HTMLElement | undefined, target: KeyTarget, focused: Element | null): void {
    if (action.kind === 'help') toggleHelp();
    else if (action.kind === 'card') moveCard(card, action.by);
    else if (action.kind === 'leave') leave(card, target, focused);
    else if (!card) return;
    else if (action.kind === 'pick') pickRow(card, action.row);
    else if (action.kind === 'notes') openNotes(card, focused);
    else if (action.kind === 'send') {
      if (isSet(card)) review(card);
      else sendSingle(card);
    } else if (action.kind === 'row') moveRow(card, focused, action.by);
    else moveTab(card, action.to);
  }

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    if (helpDialog?.open) {
      // The overlay is modal: Escape closes it (the dialog's own), and so does `?`.
      if (event.key === '?') {
        event.preventDefault();
        helpDialog.close();
      }
      return;
    }
    const focused = document.activeElement;
    const target = targetOf(focused);
    const card = cardOf(focused);
    const pending = card?.classList.contains('is-pending') ? card : undefined;
    const action = keyAction(event, {
      target,
      inCard: pending !== undefined,
      isSet: pending !== undefined && isSet(pending),
    });
    if (!action) return;
    event.preventDefault();
    perform(action, pending, target, focused);
  });

  // The browser gives the focus back itself when the dialog closes; the close event comes later, as a task of its
  // own, by when the person may have moved on (a key pressed right after Escape): focus goes back only if it is
  // nowhere.
  helpDialog?.addEventListener('close', () => {
    const back = beforeHelp;
    beforeHelp = undefined;
    const active = document.activeElement;
    if (back?.isConnected && (active === null || active === document.body)) back.focus();
  });

  // What the person does with the mouse, or with the keys the browser handles itself.

  document.addEventListener('change', (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (target instanceof HTMLInputElement && target.matches('.picker input')) {
      const card = cardOf(target);
      const item = itemOf(target);
      if (!card || !item) return;
      const ref = refOf(card);
      const member = memberOf(item);
      const pick = pickOf(item);
      showPickedNotes(item);
      notice(ref, undefined);
      const said = announcePick;
      announcePick = undefined;
      void run(async () => {
        const result = await post(WEB_ROUTES.draft, { ref, ...(member === undefined ? {} : { member }), pick });
        if (!result.ok) report(result);
        await refresh();
        if (result.ok && said !== undefined) flash(pickSaid(ref, member, said, result.readiness), true);
      });
    } else if (target instanceof HTMLTextAreaElement && target.matches('textarea[data-notes]')) {
      const field = fieldOf(target);
      if (field) saveNotes(keyOf(field));
    } else if (target instanceof HTMLSelectElement && target.matches('select[data-project-filter]')) {
      const params = new URLSearchParams(location.search);
      params.delete('after');
      if (target.value) params.set('project', target.value);
      else params.delete('project');
      navigate(params);
    }
  });

  /** What a key's pick did, for the live region: `Redis picked · Caches: ready · 2 of 3 ready`. */
  function pickSaid(ref: string, member: number | undefined, said: string, readiness: string | undefined): string {
    const card = cardByRef(ref);
    const mark = READY_WORDS[readiness ?? ''] ?? '';
    if (!card || member === undefined) return `${said} · ${mark}`;
    const topic = card.querySelector(`[role="tab"][data-member="${member}"] .tab-topic`)?.textContent ?? '';
    const progress = card.querySelector('.set-progress')?.textContent ?? '';
    return `${said} · ${topic}: ${mark} · ${progress}`;
  }

  document.addEventListener('input', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLTextAreaElement) || !target.matches('textarea[data-notes]')) return;
    const field = fieldOf(target);
    if (!field) return;
    const key = keyOf(field);
    unsaved.set(key, field);
    clearTimeout(notesTimers.get(key));
    notesTimers.set(
      key,
      setTimeout(() => saveNotes(key), 400),
    );
  });

  function navigate(params: URLSearchParams): void {
    const query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? `?${query}` : ''));
    refreshSoon();
  }

  document.addEventListener('click', (event) => {
    const origin = event.target;
    if (!(origin instanceof Element)) return;
    const link = origin.closest<HTMLAnchorElement>('a[data-filter], a[data-page]');
    if (link && root.contains(link)) {
      event.preventDefault();
      navigate(new URL(link.href).searchParams);
      return;
    }
    const tab = origin.closest<HTMLElement>('[role="tab"][data-member]');
    const tabCard = tab ? cardOf(tab) : undefined;
    if (tab && tabCard) {
      openTab(tabCard, Number(tab.dataset.member));
      return;
    }
    const button = origin.closest<HTMLButtonElement>('button[data-action]');
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    if (action === 'keys') {
      toggleHelp();
      return;
    }
    if (action === 'close-keys') {
      helpDialog?.close();
      return;
    }
    if (action === 'send-ready') {
      button.disabled = true;
      act(WEB_ROUTES.sendReady, () => ({ refs: waitingCards().map(refOf) }));
      return;
    }
    const card = cardOf(button);
    if (!card) return;
    const ref = refOf(card);
    if (action === 'send' && isSet(card)) {
      review(card);
    } else if (action === 'send') {
      button.disabled = true;
      sendSingle(card);
    } else if (action === 'confirm') {
      button.disabled = true;
      send(card, { ref, picks: picksOf(card) });
    } else if (action === 'cancel-review') {
      closeReview(card);
    } else if (action === 'remove') {
      button.disabled = true;
      act(WEB_ROUTES.remove, () => ({ ref }));
    }
  });

  function setLive(state: string, text: string): void {
    if (!live) return;
    live.dataset.live = state;
    live.textContent = text;
  }

  function connect(): void {
    const source = new EventSource(WEB_ROUTES.events);
    source.onopen = () => {
      setLive('live', 'live');
      // Whatever changed while the stream was down (or before it opened) shows now.
      refreshSoon();
    };
    source.onmessage = () => {
      refreshSoon();
    };
    source.addEventListener('blocking', (event) => {
      if (event instanceof MessageEvent && typeof event.data === 'string') attention.blockingParked(event.data);
    });
    source.onerror = () => {
      setLive('down', 'reconnecting…');
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
    };
  }

  for (const card of root.querySelectorAll<HTMLElement>('article.card.is-pending[data-ref]')) applyTabs(card);
  connect();
}

function isResult(value: unknown): value is ActionResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { ok?: unknown }).ok === 'boolean' &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}

start();
