/**
 * doctor reads every setting through the parser the part that uses it runs, lists every problem on its own line,
 * and in the embedded setup says whether serve answers and what to run when it does not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/commands/doctor/run.js';
import { loadServeConfig } from '../../../src/config/serve.js';
import { startServe } from '../../../src/serve/run.js';
import { freePort } from '../../support/redis-server.js';
import { RecordingLogger } from '../../surfaces/slack/harness.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-doctor-settings-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function doctor(env: Record<string, string>): Promise<{ lines: string[]; code: number }> {
  const dir = tempDir();
  let out = '';
  const code = await runDoctor(
    { HOME: dir, ASK_LATER_DB: join(dir, 'inbox.db'), ...env },
    {
      stdout: {
        write: (text: string) => {
          out += text;
        },
      },
    },
    { home: dir, cwd: dir, timeoutMs: 1000 },
  );
  return { lines: out.trimEnd().split('\n'), code };
}

/** One wrong value per setting, and the variable its line must name. */
const WRONG: readonly [string, string][] = [
  ['ASK_LATER_DECIDED', 'maybe'],
  ['ASK_LATER_ASK_USER_QUESTION', 'bogus'],
  ['ASK_LATER_HOOK_DEADLINE_MS', '99'],
  ['ASK_LATER_STATUS_DEADLINE_MS', 'soon'],
  ['ASK_LATER_WAKE', 'sometimes'],
  ['ASK_LATER_MIDTURN', 'never'],
  ['PORT', 'eighty'],
  ['ASK_LATER_HOST', 'my laptop'],
  ['ASK_LATER_PUBLIC_URL', 'inbox.example.com'],
  ['ASK_LATER_METRICS_PROJECTS', 'yes'],
  ['ASK_LATER_REMIND_AFTER', 'later'],
  ['ASK_LATER_RETENTION_DAYS', '0'],
  ['REDIS_URL', 'http://localhost:6379'],
  ['SLACK_CHANNEL', 'C0123ABCD'],
  ['DISCORD_TOKEN', 'not-a-token'],
  ['TELEGRAM_BOT_TOKEN', '12:short'],
];

describe('doctor and the settings', () => {
  it.each(WRONG)('GIVEN %s=%s THEN one ✗ line names it and doctor exits 1', async (name, value) => {
    const { lines, code } = await doctor({ [name]: value });
    expect(code).toBe(1);
    const failed = lines.filter((line) => line.startsWith('✗ Config:'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain(name);
  });

  it('GIVEN ASK_LATER_REDIS_PREFIX=a{b} with a REDIS_URL THEN one ✗ line names it and doctor exits 1', async () => {
    const { lines, code } = await doctor({ REDIS_URL: 'redis://127.0.0.1:1', ASK_LATER_REDIS_PREFIX: 'a{b}' });
    expect(code).toBe(1);
    const failed = lines.filter((line) => line.startsWith('✗ Config:'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('ASK_LATER_REDIS_PREFIX');
  });

  it('GIVEN every one of those settings wrong at once THEN each has its own ✗ line, none left out, exit 1', async () => {
    const crowd = WRONG;
    const { lines, code } = await doctor(Object.fromEntries(crowd));
    expect(code).toBe(1);
    const failed = lines.filter((line) => line.startsWith('✗ Config:'));
    expect(failed).toHaveLength(crowd.length);
    for (const [name] of crowd) expect(failed.filter((line) => line.includes(name)).length).toBeGreaterThan(0);
  });

  it('GIVEN the embedded store and no serve at its address THEN a ⚠ says so, with the command to start it', async () => {
    const port = await freePort();
    const { lines } = await doctor({ PORT: String(port) });
    const line = lines.find((text) => text.includes('Serve:'));
    expect(line).toBe(
      `⚠ Serve: not answering at http://127.0.0.1:${port}/ (connection refused) — start it with \`ask-later serve\` and keep it running; until then answer in this terminal with \`ask-later inbox\``,
    );
  });

  it('GIVEN serve running on the embedded store THEN ✓ says it answers at its address', async () => {
    const dir = tempDir();
    const config = loadServeConfig({ HOME: dir, ASK_LATER_DB: join(dir, 'inbox.db'), PORT: '0' });
    const serve = await startServe(config, { logger: new RecordingLogger(), sweepMs: 0 });
    cleanup.push(() => serve.stop());
    const { lines, code } = await doctor({ ASK_LATER_DB: join(dir, 'inbox.db'), PORT: String(serve.port) });
    expect(lines).toContain(`✓ Serve: answers at http://127.0.0.1:${serve.port}/ (ok): open it to answer questions`);
    expect(code).toBe(0);
  });

  it('GIVEN a team store on Redis THEN no serve line: the store line says whether it is reachable', async () => {
    const port = await freePort();
    const { lines, code } = await doctor({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(lines.some((line) => line.includes('Serve:'))).toBe(false);
    expect(lines.some((line) => line.startsWith('✗') && line.includes('Redis'))).toBe(true);
    expect(code).toBe(1);
  });
});
