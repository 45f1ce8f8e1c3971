/**
 * The inbox in a background tab (bundled into the client script with inbox.ts): the tab title counts what waits, the
 * blocking ones first (`../title.ts`), after every redraw; and desktop notifications, which the page never asks for
 * by itself: a button asks the browser, on the person's click; once allowed, each blocking question parked from then
 * on (the events stream's `blocking` event) raises one notification, tagged with its ref so several open tabs show
 * it once. It says the question's number and project, never its text (a notification shows on a locked screen).
 */
import { pageTitle } from '../title.js';

/** The `blocking` event's data: the question's ref and its project's short name. */
interface BlockingParked {
  readonly ref: string;
  readonly project: string;
}

export interface Attention {
  /** Set the tab title from the fragment's toolbar (`data-waiting`, `data-blocking`). */
  countFrom(root: HTMLElement): void;
  /** A blocking question was parked: notify, when the person allowed it. `data` is the event's JSON. */
  blockingParked(data: string): void;
}

export function startAttention(onOpen: (ref: string) => void): Attention {
  const button = document.getElementById('notify');
  const supported = typeof Notification === 'function';

  function showButton(): void {
    if (!(button instanceof HTMLButtonElement)) return;
    // Only while the browser would still ask: once granted there is nothing to click; once denied, only the
    // browser's own settings can change it.
    button.hidden = !supported || Notification.permission !== 'default';
  }

  button?.addEventListener('click', () => {
    if (!supported) return;
    void Notification.requestPermission().then(showButton, showButton);
  });
  showButton();

  return {
    countFrom(root) {
      const toolbar = root.querySelector('[data-waiting]');
      const waiting = Number(toolbar?.getAttribute('data-waiting') ?? 0);
      const blocking = Number(toolbar?.getAttribute('data-blocking') ?? 0);
      document.title = pageTitle(waiting, blocking);
    },
    blockingParked(data) {
      if (!supported || Notification.permission !== 'granted') return;
      const parked = parse(data);
      if (parked === undefined) return;
      const id = parked.ref.slice(parked.ref.indexOf('.') + 1);
      const notification = new Notification(`Blocking question #${id}`, {
        body: `${parked.project}: an agent waits for your answer.`,
        tag: parked.ref,
      });
      notification.onclick = () => {
        window.focus();
        onOpen(parked.ref);
        notification.close();
      };
    },
  };
}

function parse(data: string): BlockingParked | undefined {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null) return undefined;
    const { ref, project } = value as { ref?: unknown; project?: unknown };
    return typeof ref === 'string' && typeof project === 'string' ? { ref, project } : undefined;
  } catch {
    return undefined;
  }
}
