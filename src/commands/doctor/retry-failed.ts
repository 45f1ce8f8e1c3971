/**
 * `ask-later retry-failed [slack|discord|telegram|web]`: hand the events the bridge gave up on back to it, once the cause is
 * fixed (a channel the bot was not in, a permission, a long outage). A running `ask-later serve` takes them back at
 * once and tries each again, with its usual attempts; what still fails is recorded again. Prints one line of what
 * was handed back; exit 0, or 1 with one line when the settings or the store are wrong.
 */
import { loadStoreConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/port.js';
import { failedEventLines, groupName } from './failed-events.js';

type Env = Readonly<Record<string, string | undefined>>;

const PLATFORMS = ['slack', 'discord', 'telegram', 'web'] as const;

export async function runRetryFailed(
  env: Env,
  args: readonly string[],
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
): Promise<number> {
  const [platform, ...extra] = args;
  if (extra.length > 0 || (platform !== undefined && !(PLATFORMS as readonly string[]).includes(platform))) {
    io.stderr.write('ask-later retry-failed: expected no argument, or one of slack, discord, telegram, web\n');
    return 2;
  }
  let store: Store;
  try {
    store = await openStore(loadStoreConfig(env).store);
  } catch (error) {
    const why = error instanceof ConfigError ? error.message : 'the inbox (its store) is unreachable';
    io.stderr.write(`ask-later retry-failed: ${why}\n`);
    return 1;
  }
  try {
    const group = platform === undefined ? undefined : `bridge:${platform}`;
    const before = (await store.failedEvents({ sample: 5 })).filter((g) => group === undefined || g.group === group);
    const handed = await store.replayFailedEvents(group);
    if (handed === 0) {
      io.stdout.write(`No failed events${group === undefined ? '' : ` for ${groupName(group)}`}.\n`);
      return 0;
    }
    const per = before.map((g) => `${groupName(g.group)} ${g.count}`).join(', ');
    io.stdout.write(
      `Handed ${handed === 1 ? '1 failed event' : `${handed} failed events`} back to the bridge (${per}); a running ask-later serve tries them again now.\n`,
    );
    for (const line of failedEventLines(before)) io.stdout.write(`  was: ${line.text.replace(/ — .*$/, '')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
