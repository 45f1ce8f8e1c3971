/**
 * Words and small pieces the web inbox renders: project names, times, ready marks, state names. Pure.
 */
import type { Readiness } from '../../core/answer.js';
import type { DeliveryPath, Platform, QuestionStatus } from '../../core/question.js';

/** The last segment of a project path (`/home/me/src/shop` → `shop`), or the whole name when it has none. */
export function projectName(project: string): string {
  const segments = project.split(/[\\/]/).filter((segment) => segment !== '');
  return segments.at(-1) ?? project;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `ms` as the person reads it, `15 Jan, 10:20`, in `timeZone` (an IANA name; default the process's own, which for a
 * loopback inbox is the person's).
 */
export function formatTime(ms: number, timeZone?: string): string {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone === undefined ? {} : { timeZone }),
    });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(ms));
}

const READY_MARKS: Readonly<Record<Readiness, string>> = {
  ready: 'ready',
  'pick-one': 'pick one',
  'needs-note': 'needs a note',
};

/**
 * The ready mark: ready / pick one / needs a note (the page colours it; no emoji, which not every machine's fonts
 * draw).
 */
export function readyMark(readiness: Readiness): string {
  return READY_MARKS[readiness];
}

const STATE_NAMES: Readonly<Record<QuestionStatus, string>> = {
  pending: 'waiting',
  answered: 'answered',
  delivered: 'delivered',
  cancelled: 'withdrawn',
  dismissed: 'dismissed',
  expired: 'expired',
};

/** A question's state as the page names it (`cancelled` reads `withdrawn`: the agent withdrew it). */
export function stateName(status: QuestionStatus): string {
  return STATE_NAMES[status];
}

const PLACES: Readonly<Record<Platform, string>> = {
  slack: 'on Slack',
  discord: 'on Discord',
  web: 'in the web inbox',
};

/** Where an answer came from, as it reads after a name: `on Slack`, `in the web inbox`. */
export function placeName(platform: Platform): string {
  return PLACES[platform];
}

/** `1 answer`, `3 answers`. */
export function answersCount(count: number): string {
  return count === 1 ? '1 answer' : `${count} answers`;
}

const DELIVERY_PATHS: Readonly<Record<DeliveryPath, string>> = {
  prompt: 'with a prompt the person typed',
  'tool-call': 'during a tool call',
  wake: 'after waking the session',
  'tool-result': 'as the result of its own tool call',
};

/** How an outcome reached the agent, as it reads after "Delivered": `with a prompt the person typed`. */
export function deliveryPathName(via: DeliveryPath): string {
  return DELIVERY_PATHS[via];
}
