/**
 * The web inbox for the browser tests, two ways: `startServeStack` is `serve` itself on the embedded store (a SQLite
 * file in a temporary directory, as the quick start runs it); `startWebStack` assembles the same parts in-process
 * on the test Redis (a key prefix of its own), with the one InteractionService (web routed to `local`, Slack to
 * `CTEAM`), the bridge following the store's events with the web surface (and, when asked, a Slack surface against
 * the fake Slack Web API), the pages' change notices from a tail of the store's events, as in serve, and the inbox
 * on a port of its own. Plus real headless Chromium (playwright-core with
 * Debian's /usr/bin/chromium) for the page.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { silentLogger } from '../../../src/core/logger.js';
import { Bridge } from '../../../src/serve/bridge/bridge.js';
import { startServe } from '../../../src/serve/run.js';
import { webPeople } from '../../../src/serve/web-people.js';
import type { Store } from '../../../src/store/port.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { allowListPolicy, InteractionService } from '../../../src/surfaces/interactions.js';
import { SlackSurface } from '../../../src/surfaces/slack/surface.js';
import { createWebClient } from '../../../src/surfaces/slack/web.js';
import { followStoreChanges } from '../../../src/surfaces/store-changes.js';
import type { Surface } from '../../../src/surfaces/surface.js';
import { type StartedWebInbox, startWebInbox, type WebInboxOptions } from '../../../src/surfaces/web/server.js';
import { WEB_CHANNEL, WebSurface } from '../../../src/surfaces/web/surface.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { openTestStore, uniquePrefix } from '../../support/store.js';

export const SLACK_CHANNEL = 'CTEAM';
export const CHROMIUM = '/usr/bin/chromium';

export interface WebStack {
  readonly prefix: string;
  readonly store: RedisStore;
  readonly interactions: InteractionService;
  readonly surface: WebSurface;
  readonly web: StartedWebInbox;
  /** Present when started with `slack: true`. */
  readonly slack?: FakeSlackApi;
  stop(): Promise<void>;
}

export interface StackOptions extends Partial<Omit<WebInboxOptions, 'interactions' | 'store' | 'surface' | 'people'>> {
  /** People sign in with tokens of their own, kept in the stack's store (`token create --web`), as serve does. */
  readonly people?: boolean;
  /** Also run a Slack surface against the fake Slack Web API (the bridge posts and redraws there too). */
  readonly slack?: boolean;
  /** Run the bridge (default true). */
  readonly bridge?: boolean;
  readonly host?: string;
  /** The store's clock (default `Date.now`): when questions are parked, answered and delivered. */
  readonly storeNow?: () => number;
}

export async function startWebStack(options: StackOptions = {}): Promise<WebStack> {
  const prefix = uniquePrefix();
  const store = await openTestStore({ prefix, ...(options.storeNow === undefined ? {} : { now: options.storeNow }) });
  const interactions = new InteractionService({
    store,
    access: allowListPolicy({}),
    routing: (platform) => (platform === 'web' ? [WEB_CHANNEL] : platform === 'slack' ? [SLACK_CHANNEL] : []),
  });
  const surface = new WebSurface();
  const surfaces: Surface[] = [surface];
  const slack = options.slack ? await new FakeSlackApi().start() : undefined;
  if (slack) {
    const client = createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: { retries: 0 } });
    surfaces.push(new SlackSurface({ client, channel: SLACK_CHANNEL }));
  }
  const bridge =
    options.bridge === false
      ? undefined
      : new Bridge({ store, surfaces, consumerName: `web-test-${prefix}`, blockMs: 50, retryBaseMs: 10 });
  await bridge?.start();
  // As serve does: the pages hear of changes from the store's events.
  const changes = followStoreChanges({ store, surface, waitMs: 1_000, retryBaseMs: 10 });
  await changes.started;
  const { slack: _slack, bridge: _bridge, storeNow: _storeNow, people, ...inboxOptions } = options;
  const web = await startWebInbox({
    displayName: 'Ada',
    timeZone: 'UTC',
    ...inboxOptions,
    ...(people === true ? { people: webPeople(store.tokens()) } : {}),
    interactions,
    surface,
  });
  return {
    prefix,
    store,
    interactions,
    surface,
    web,
    ...(slack ? { slack } : {}),
    stop: async () => {
      await web.stop();
      await changes.stop();
      await bridge?.stop();
      await slack?.stop();
      await store.close();
    },
  };
}

export interface ServeStack {
  /** The embedded store's file. */
  readonly path: string;
  /** The test's own connection to that file (serve has its own, as the MCP server and the hook do). */
  readonly store: Store;
  readonly web: { readonly url: string };
  stop(): Promise<void>;
}

/** `ask-later serve` in-process with no chat configured: the web inbox alone, on the embedded store. */
export async function startServeStack(): Promise<ServeStack> {
  const dir = mkdtempSync(join(tmpdir(), 'al-web-'));
  const path = join(dir, 'inbox.db');
  const serve = await startServe(
    { store: { kind: 'sqlite', path }, port: 0, host: '127.0.0.1', routes: [] },
    {
      logger: silentLogger,
      sweepMs: 0,
      bridge: { blockMs: 50, retryBaseMs: 10 },
      web: { displayName: 'Ada', timeZone: 'UTC' },
    },
  );
  const store = await openSqliteStore({ path });
  return {
    path,
    store,
    web: { url: serve.url },
    stop: async () => {
      await serve.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether Debian's chromium is installed (the browser tests need it; `.ci/run` installs it). */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Headless Chromium as FACTS.md says: Debian's binary, never a downloaded one. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
