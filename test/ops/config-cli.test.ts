import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cli } from '../agents/hooks/support.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { freePort } from '../support/redis-server.js';
import { uniquePrefix } from '../support/store.js';

let slack: FakeSlackApi;
const dir = mkdtempSync(join(tmpdir(), 'ask-later-config-'));
beforeAll(async () => {
  slack = await new FakeSlackApi().start();
});
afterAll(async () => {
  await slack.stop();
});

function routesFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Whether something listens on the port. */
function bound(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('`ask-later serve` (the built CLI) with a bad environment', () => {
  const cases: [string, () => Record<string, string>, string][] = [
    [
      'a routing file naming a #channel',
      () => ({
        SLACK_CHANNEL: 'C0DEFAULT',
        ASK_LATER_CONFIG: routesFile(
          'names.json',
          JSON.stringify({
            routes: [
              { project: '/srv/api', slack: 'C0API' },
              { project: '/srv/**', slack: '#general' },
            ],
          }),
        ),
      }),
      'ask-later serve: ASK_LATER_CONFIG routes[1].slack: expected a channel id such as C0123ABCD, got "#general"\n',
    ],
    [
      'a routing file that is not there',
      () => ({ SLACK_CHANNEL: 'C0DEFAULT', ASK_LATER_CONFIG: join(dir, 'missing.json') }),
      `ask-later serve: ASK_LATER_CONFIG names ${JSON.stringify(join(dir, 'missing.json'))}, which cannot be read (no such file)\n`,
    ],
    [
      'a routing file that is not JSON',
      () => ({ SLACK_CHANNEL: 'C0DEFAULT', ASK_LATER_CONFIG: routesFile('routes.yaml', 'routes:\n  - project: x\n') }),
      `ask-later serve: ASK_LATER_CONFIG names ${JSON.stringify(join(dir, 'routes.yaml'))}, which is not valid JSON (unexpected "r"; write it as JSON, YAML is not read)\n`,
    ],
    [
      'a Discord route without DISCORD_TOKEN',
      () => ({
        SLACK_CHANNEL: 'C0DEFAULT',
        ASK_LATER_CONFIG: routesFile(
          'discord.json',
          JSON.stringify({ routes: [{ project: 'x', discord: '123456789012345678' }] }),
        ),
      }),
      'ask-later serve: ASK_LATER_CONFIG routes[0].discord names a Discord channel but DISCORD_TOKEN is not set: set the bot token too\n',
    ],
    [
      'no channel and no routes',
      () => ({}),
      'ask-later serve: SLACK_CHANNEL is not set: name the channel id questions go to (C…), or route projects to Slack channels in ASK_LATER_CONFIG\n',
    ],
    [
      'a signing secret missing',
      () => ({ SLACK_CHANNEL: 'C0DEFAULT', SLACK_SIGNING_SECRET: '' }),
      'ask-later serve: SLACK_SIGNING_SECRET is not set: HTTP mode needs it to check requests (or set SLACK_APP_TOKEN for Socket Mode)\n',
    ],
  ];

  it.each(
    cases,
  )('GIVEN %s THEN one precise line, exit 1, no port bound, nothing sent to Slack', async (_what, extra, line) => {
    const port = await freePort();
    const calls = slack.calls.length;
    const result = spawnSync(process.execPath, [cli, 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        REDIS_URL: inject('redisUrl'),
        ASK_LATER_REDIS_PREFIX: uniquePrefix(),
        SLACK_BOT_TOKEN: 'xoxb-cli',
        SLACK_SIGNING_SECRET: 'secret',
        SLACK_API_URL: slack.url,
        PORT: String(port),
        ...extra(),
      },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr.endsWith(line), result.stderr).toBe(true);
    expect(await bound(port)).toBe(false);
    expect(slack.calls.length).toBe(calls);
  });
});
