/** What `serve` does at start beyond being ready: it sweeps at once, and a start that fails leaves nothing behind. */
import { createServer } from 'node:net';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { ServeConfig } from '../../src/config/serve.js';
import { startServe } from '../../src/serve/run.js';
import { ServeStartError } from '../../src/serve/serve-start-error.js';
import type { Store } from '../../src/store/port.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { FakeDiscord } from '../fakes/discord.js';
import { freePort } from '../support/redis-server.js';
import { openTestStore, spec, testClock, uniquePrefix, uniqueProject } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function webOnly(prefix: string, port = 0): ServeConfig {
  return { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port, host: '127.0.0.1' };
}

/** Whether something can listen on `port` now (the failed start let go of it). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('serve at start', () => {
  it('GIVEN a question that expired while no serve ran THEN serve expires it at start, not one sweep period later', async () => {
    const prefix = uniquePrefix();
    const clock = testClock(Date.now());
    const store = await openTestStore({ prefix, now: clock.now });
    cleanup.push(() => store.close());
    const project = uniqueProject('sweep-at-start');
    const question = await store.park(project, spec({ expiresInSeconds: 60 }));
    clock.advance(61_000);
    const logger = new RecordingLogger();
    // A period far longer than the test: only the sweep at start can expire it.
    const serve = await startServe(webOnly(prefix), { store, logger, sweepMs: 3_600_000 });
    cleanup.push(() => serve.stop());
    await vi.waitFor(async () => expect((await store.get(project, question.id))?.status).toBe('expired'));
    // The sweep logs once it has also sent reminders and purged: wait for the line, it comes after the expiry.
    await vi.waitFor(() =>
      expect(logger.lines.some((line) => line.message === 'serve: swept' && line.fields.expired === 1)).toBe(true),
    );
  });

  it('GIVEN the bridge cannot start after the port is bound and Discord connected THEN one ServeStartError, the port is free again and the gateway closed', async () => {
    const discord = await new FakeDiscord().start();
    cleanup.push(() => discord.stop());
    const real = await openTestStore();
    cleanup.push(() => real.close());
    // The real store, except that following its events fails.
    const broken = new Proxy(real, {
      get(target, property) {
        if (property === 'consumer') return () => Promise.reject(new StoreUnavailableError());
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Store;
    const port = await freePort();
    const config: ServeConfig = {
      ...webOnly(uniquePrefix(), port),
      discord: {
        token: discord.token,
        channel: discord.channelId,
        guildId: discord.guildId,
        apiUrl: discord.apiUrl,
        allowedUsers: [],
        allowedRoles: [],
      },
    };
    const started = startServe(config, {
      store: broken,
      logger: new RecordingLogger(),
      sweepMs: 0,
      discord: { restRetries: 0, startTimeoutMs: 10_000 },
    });
    await expect(started).rejects.toThrow(
      new ServeStartError("cannot follow the store's events (StoreUnavailableError)"),
    );
    expect(discord.identifies).toBe(1); // it had connected before the bridge failed
    expect(await bindable(port)).toBe(true);
    await vi.waitFor(() => expect(discord.openConnections).toBe(0));
  });
});
