/**
 * `ask-later inbox` on the token setup, as a person uses it: the built CLI in a real terminal (tmux on a private
 * socket) reaching a real serve (port 0, over a redis-server this file starts) with ASK_LATER_URL and a person's token.
 * A question answered with keys alone (a note edited within, its cursor moved) is sent under the token's name and reaches the agent once; a question parked
 * meanwhile shows, and one answered on Slack meanwhile leaves with who answered (serve's long poll).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_NOTE_BUDGET } from '../../../src/core/delivery-note.js';
import { silentLogger } from '../../../src/core/logger.js';
import { hashToken, newToken } from '../../../src/core/token-format.js';
import { type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore } from '../../../src/store/redis/redis-store.js';
import { freshHome } from '../../support/home.js';
import { startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { person, spec, uniquePrefix } from '../../support/store.js';
import { noRecommendation } from './support.js';

const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;
const socket = `ask-later-inbox-http-${randomUUID().slice(0, 8)}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}
const screen = (name: string) => tmux('capture-pane', '-p', '-t', name);
const keys = (name: string, ...typed: string[]) => tmux('send-keys', '-t', name, ...typed);
const literally = (name: string, text: string) => tmux('send-keys', '-t', name, '-l', text);

let redis: TestRedis;
let serve: ServeHandle;
let store: Store;
const team = `/srv/${uniquePrefix()}`;
const project = `${team}/billing`;
let env: Record<string, string>;

beforeAll(async () => {
  redis = await startTestRedis();
  const location = { kind: 'redis', url: redis.url, prefix: uniquePrefix() } as const;
  serve = await startServe(
    { store: location, port: 0, host: '127.0.0.1', routes: [] },
    { logger: silentLogger, sweepMs: 0, bridge: { blockMs: 50, retryBaseMs: 10 } },
  );
  store = await openRedisStore({ url: location.url, prefix: location.prefix });
  const { token, id } = newToken();
  await store
    .tokens()
    .create({ id, name: 'carol', hash: hashToken(token), patterns: [`${team}/**`], createdAt: Date.now(), web: true });
  env = { ASK_LATER_URL: serve.url, ASK_LATER_TOKEN: token, HOME: freshHome() };
});

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
  await serve?.stop();
  await store?.close();
  await redis?.stop();
});

describe('ask-later inbox in tmux over serve’s HTTP API with a person’s token', () => {
  it('GIVEN the inbox open THEN keys alone answer as the token’s name, a question parked meanwhile shows, one answered on Slack leaves with who answered', async () => {
    await store.park(project, noRecommendation({ question: 'Which queue should billing use?' }));
    const vars = Object.entries({ PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env }).map(
      ([key, value]) => `${key}=${value}`,
    );
    const name = 'inbox-http';
    tmux(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      '100',
      '-y',
      '40',
      'env',
      '-i',
      ...vars,
      'bash',
      '--norc',
      '--noprofile',
    );
    literally(name, `node ${cli} inbox; echo INBOX-EXIT=$?`);
    keys(name, 'Enter');
    // The first screen waits for Node, Ink and serve to answer: allow a busy machine its time.
    await expect.poll(() => screen(name), { timeout: 30_000 }).toContain('Which queue should billing use?');
    expect(screen(name)).toContain('answering as carol');

    keys(name, '2');
    await expect.poll(() => screen(name)).toContain('(•) SQLite');
    // A note, edited within: the cursor moved back a character, typing goes in there.
    keys(name, 'n');
    await expect.poll(() => screen(name)).toContain('✎ Notes (Enter saves, Esc leaves):');
    literally(name, 'ab');
    await expect.poll(() => screen(name)).toContain('ab█');
    keys(name, 'Left');
    await expect.poll(() => screen(name)).toContain('a█b');
    literally(name, 'X');
    await expect.poll(() => screen(name)).toContain('aX█b');
    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('✎ aXb');
    keys(name, 'Enter');
    await expect.poll(() => screen(name).replace(/\s+/g, ' ')).toContain('Sent: SQLite (#1).');
    expect((await store.get(project, 1))?.answer).toMatchObject({
      choices: ['SQLite'],
      notes: 'aXb',
      by: { platform: 'web', userId: 'carol', displayName: 'carol' },
    });
    const first = await store.claimUndelivered(project, { budget: DELIVERY_NOTE_BUDGET, leaseMs: 60_000 });
    expect(first.questions.map((question) => question.id)).toEqual([1]);
    await store.confirmClaim(project, first);
    const again = await store.claimUndelivered(project, { budget: DELIVERY_NOTE_BUDGET, leaseMs: 60_000 });
    expect(again.questions).toEqual([]);

    await store.park(project, spec({ question: 'Parked while the inbox is open?', isBlocking: true }));
    await expect.poll(() => screen(name), { timeout: 10_000 }).toContain('Parked while the inbox is open?');
    expect(screen(name)).toContain(' All 1 ');

    await store.answer(project, 2, { choices: ['Postgres'], other: false }, person('U7'));
    await expect
      .poll(() => screen(name), { timeout: 10_000 })
      .toContain('#2 was already answered by Person U7 on Slack');
    // The counts come with the next page: the one that dropped the question may have counted before the answer
    // (a page's index read and record reads are not one step), and the answer's own event reads it again.
    await expect.poll(() => screen(name), { timeout: 10_000 }).toContain(' All 0 ');

    keys(name, 'q');
    await expect.poll(() => screen(name)).toMatch(/^INBOX-EXIT=0$/m);
    expect(tmux('display-message', '-p', '-t', name, '#{alternate_on}').trim()).toBe('0');
  });
});
