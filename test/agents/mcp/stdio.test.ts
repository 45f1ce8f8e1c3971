/**
 * The built binary as Claude Code starts it: `ask-later mcp` over stdio, in temporary git repositories.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { freshHome, testHome } from '../../support/home.js';
import { isError, textOf } from '../../support/mcp.js';
import { startTestRedis } from '../../support/redis-server.js';
import { uniquePrefix } from '../../support/store.js';

const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;
const prefix = uniquePrefix();
let store: RedisStore;

beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function gitRepo(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-${name}-`)));
  execFileSync('git', ['init', '-q', dir]);
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  return dir;
}

async function start(options: { cwd: string; env: Record<string, string> }): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp'],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: testHome(), ...options.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const question = {
  context: 'c',
  question: 'Which one?',
  impact: 'i',
  isBlocking: false,
  options: ['A', 'B'],
};

describe('ask-later mcp over stdio', () => {
  it('GIVEN a session started in a subdirectory of a git repository THEN its project is the repository top-level', async () => {
    const repo = gitRepo('cwd');
    const client = await start({
      cwd: join(repo, 'src', 'deep'),
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
    });
    const result = await client.callTool({ name: 'ask_later', arguments: question });
    expect(textOf(result)).toMatch(/^Parked as #1/);
    expect(await store.get(repo, 1)).toMatchObject({ question: 'Which one?' });
    await client.close();
  });

  it('GIVEN CLAUDE_PROJECT_DIR THEN it wins over the working directory', async () => {
    const repo = gitRepo('claude-dir');
    const elsewhere = gitRepo('elsewhere');
    const client = await start({
      cwd: elsewhere,
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, CLAUDE_PROJECT_DIR: join(repo, 'src') },
    });
    await client.callTool({ name: 'ask_later', arguments: question });
    expect(await store.get(repo, 1)).toBeDefined();
    expect(await store.get(elsewhere, 1)).toBeUndefined();
    await client.close();
  });

  it('GIVEN ASK_LATER_PROJECT THEN it names the project whatever the directories', async () => {
    const repo = gitRepo('named');
    const project = `team/${prefix}`;
    const client = await start({
      cwd: repo,
      env: {
        REDIS_URL: inject('redisUrl'),
        ASK_LATER_REDIS_PREFIX: prefix,
        CLAUDE_PROJECT_DIR: repo,
        ASK_LATER_PROJECT: project,
      },
    });
    await client.callTool({ name: 'ask_later', arguments: question });
    expect(await store.get(project, 1)).toBeDefined();
    expect(await store.get(repo, 1)).toBeUndefined();
    await client.close();
  });

  it('GIVEN two projects THEN neither session sees, reads or cancels the other one’s questions', async () => {
    const env = { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix };
    const a = await start({ cwd: gitRepo('a'), env });
    const b = await start({ cwd: gitRepo('b'), env });
    await a.callTool({ name: 'ask_later', arguments: { ...question, question: 'Secret of A?' } });
    const listed = textOf(await b.callTool({ name: 'list_questions', arguments: {} }));
    expect(listed).toBe('No questions match in this project.');
    expect(isError(await b.callTool({ name: 'get_answer', arguments: { id: 1 } }))).toBe(true);
    expect(isError(await b.callTool({ name: 'cancel_question', arguments: { id: 1 } }))).toBe(true);
    expect(textOf(await a.callTool({ name: 'get_answer', arguments: { id: 1 } }))).toMatch(/#1 is still pending/);
    await a.close();
    await b.close();
  });

  it('GIVEN a wrong setting THEN the server still starts and every call says what to set', async () => {
    const client = await start({ cwd: gitRepo('unset'), env: { ASK_LATER_DB: 'inbox.db' } });
    const result = await client.callTool({ name: 'list_questions', arguments: {} });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toMatch(/^ask-later is not set up: ASK_LATER_DB must be an absolute path/);
    await client.close();
  });

  it('GIVEN ASK_LATER_PROJECT holding control characters THEN the server starts, and every call refuses and says why', async () => {
    const project = `acme/\u001b]0;owned\u0007${prefix}`;
    const client = await start({
      cwd: gitRepo('controls'),
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project },
    });
    const result = await client.callTool({ name: 'ask_later', arguments: question });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toMatch(
      /^ask-later is not set up: a project name may not hold control characters \(U\+001B at position 6\), from ASK_LATER_PROJECT/,
    );
    expect(await store.list(project)).toEqual([]);
    await client.close();
  });

  it('GIVEN REDIS_URL unset THEN the server parks in the embedded store under HOME, which another session sees', async () => {
    const home = freshHome();
    const repo = gitRepo('embedded');
    const a = await start({ cwd: repo, env: { HOME: home } });
    const parked = await a.callTool({ name: 'ask_later', arguments: question });
    expect(isError(parked), textOf(parked)).toBe(false);
    expect(textOf(parked)).toMatch(/Parked as #1/);
    await a.close();
    expect(existsSync(join(home, '.local', 'state', 'ask-later', 'inbox.db'))).toBe(true);
    const b = await start({ cwd: join(repo, 'src'), env: { HOME: home } });
    expect(textOf(await b.callTool({ name: 'get_answer', arguments: { id: 1 } }))).toMatch(/#1 is still pending/);
    await b.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('GIVEN the store down at call time THEN unreachable; once it is back THEN the same session works', async () => {
    const redis = await startTestRedis();
    try {
      const client = await start({
        cwd: gitRepo('down'),
        env: { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: prefix },
      });
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
      await redis.kill();
      const down = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
      expect(isError(down)).toBe(true);
      expect(textOf(down)).toMatch(/inbox is unreachable/);
      await redis.start();
      await expect
        .poll(async () => textOf(await client.callTool({ name: 'get_answer', arguments: { id: 1 } })), { interval: 50 })
        .toMatch(/#1 is still pending/);
      await client.close();
    } finally {
      await redis.stop();
    }
  });

  it('GIVEN Redis killed and started again THEN a park made the moment it returns is stored, not refused', async () => {
    const redis = await startTestRedis();
    try {
      const client = await start({
        cwd: gitRepo('returns'),
        env: { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: prefix },
      });
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
      await redis.kill();
      await redis.start();
      // The server's connection is still away at this moment: the call waits for it instead of refusing.
      const parked = await client.callTool({ name: 'ask_later', arguments: { ...question, question: 'Which two?' } });
      expect(isError(parked), textOf(parked)).toBe(false);
      expect(textOf(parked)).toMatch(/^Parked as #2/);
      await client.close();
    } finally {
      await redis.stop();
    }
  });

  it('GIVEN Redis gone for longer than the wait THEN the park is refused with the advice to retry ask_later later and carry on, never to ask in the terminal', async () => {
    const redis = await startTestRedis();
    try {
      const client = await start({
        cwd: gitRepo('gone'),
        env: { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: prefix },
      });
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
      await redis.kill();
      const refused = await client.callTool({ name: 'ask_later', arguments: { ...question, question: 'Which two?' } });
      expect(isError(refused)).toBe(true);
      expect(textOf(refused)).toMatch(/Carry on with the rest of your work/);
      expect(textOf(refused)).toMatch(/retry ask_later then with the same arguments/);
      expect(textOf(refused)).not.toMatch(/ask the person directly/);
      await client.close();
    } finally {
      await redis.stop();
    }
  });

  it('GIVEN the same ask_later repeated by the session THEN the question already stored comes back, not a second one', async () => {
    const project = `team/${prefix}/retry`;
    const client = await start({
      cwd: gitRepo('retried'),
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project },
    });
    expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
    expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
    expect(await store.list(project)).toHaveLength(1);
    await client.close();
  });

  it('GIVEN the store down when the session starts THEN unreachable; once it is up THEN the same session works', async () => {
    const redis = await startTestRedis();
    await redis.kill();
    try {
      const client = await start({
        cwd: gitRepo('late'),
        env: { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: prefix },
      });
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/inbox is unreachable/);
      await redis.start();
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
      await client.close();
    } finally {
      await redis.stop();
    }
  });
});
