/**
 * Words and small pieces the web inbox renders: project names, times, ready marks, state names. Pure.
 */
import type { DeliveryPath, Platform, QuestionStatus } from '../../core/question.js';

export { answersCount, projectName, readyWords as readyMark } from '../vocabulary.js';

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
  telegram: 'on Telegram',
  web: 'in the web inbox',
};

/** Where an answer came from, as it reads after a name: `on Slack`, `in the web inbox`. */
export function placeName(platform: Platform): string {
  return PLACES[platform];
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
