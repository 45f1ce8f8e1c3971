/**
 * What the bridge found refusing, from the store: each surface fault (a platform or channel that refused a post for
 * good, until a post there succeeds again) as a ✗ naming the fix, then the events it gave up on as one ⚠ per platform
 * with the count, the error codes and the command that hands them back once the cause is fixed. Nothing when there
 * are none. Runs only when the store check passed.
 */

import type { StoreLocation } from '../../store/open.js';
import { openStore } from '../../store/open.js';
import type { FailedEventsOfGroup, SurfaceFault } from '../../store/port.js';
import { type CheckLine, fail, warn } from './check.js';
import { withDeadline } from './deadline.js';

/** `bridge:slack` → Slack; any other group by its name. */
export function groupName(group: string): string {
  const names: Record<string, string> = {
    'bridge:slack': 'Slack',
    'bridge:discord': 'Discord',
    'bridge:telegram': 'Telegram',
    'bridge:web': 'the web inbox',
  };
  return names[group] ?? group;
}

export function failedEventLines(groups: readonly FailedEventsOfGroup[]): CheckLine[] {
  return groups.map(({ group, count, sample }) => {
    const codes = [...new Set(sample.map((failed) => failed.error))].join(', ');
    const what = count === 1 ? '1 event' : `${count} events`;
    const platform = group.startsWith('bridge:') ? group.slice('bridge:'.length) : undefined;
    const retry = platform !== undefined ? `ask-later retry-failed ${platform}` : 'ask-later retry-failed';
    return warn(
      `Bridge: ${what} could not be shown on ${groupName(group)}${codes ? ` (${codes})` : ''} — fix the cause, then run ${retry}`,
    );
  });
}

/** `✗ Slack is degraded: posts to C0123 are refused (not_in_channel) — invite the app to the channel: …` */
export function surfaceFaultLines(faults: readonly SurfaceFault[]): CheckLine[] {
  return faults.map(({ group, channel, error, fix }) => {
    const what = channel !== undefined ? `posts to ${channel} are refused` : 'every post is refused';
    return fail(
      `${groupName(group)} is degraded: ${what} (${error}) — ${fix}; it shows fine again once a post there succeeds`,
    );
  });
}

export async function checkFailedEvents(location: StoreLocation, timeoutMs: number): Promise<CheckLine[]> {
  try {
    return await withDeadline(
      (async () => {
        const store = await openStore(location, { connection: 'minimal', connectTimeoutMs: timeoutMs });
        try {
          const [faults, failed] = await Promise.all([store.surfaceFaults(), store.failedEvents({ sample: 5 })]);
          return [...surfaceFaultLines(faults), ...failedEventLines(failed)];
        } finally {
          await store.close();
        }
      })(),
      timeoutMs,
    );
  } catch {
    return []; // the store check already said what is wrong with the store
  }
}
