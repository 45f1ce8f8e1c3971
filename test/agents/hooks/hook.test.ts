/**
 * `ask-later hook` as Claude Code runs it: the built CLI, a UserPromptSubmit payload on stdin, the note on stdout.
 * A store on the same key prefix sets up the answers and checks what became of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DELIVERY_NOTE_BUDGET } from '../../../src/core/delivery-note.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { person, single, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import {
  answered,
  answeredIds,
  hookEnv,
  noteOf,
  payload,
  range,
  runHookCli,
  statuses,
  waitingCount,
} from './support.js';

const prefix = uniquePrefix();
let store: RedisStore;

beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function envFor(project: string): Record<string, string> {
  return hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project });
}

function gitRepo(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-hook-${name}-`)));
  execFileSync('git', ['init', '-q', dir]);
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  return dir;
}

/** The run printed nothing at all and exited 0. */
function expectSilent(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
}

/** The run printed nothing on stdout, exactly one `ask-later hook:` line on stderr, and exited 0. */
function expectOneWarning(run: { code: number | null; stdout: string; stderr: string }): string {
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^ask-later hook: [^\n]+\n$/);
  expect(run.stderr).toContain('answers wait for the next prompt');
  return run.stderr;
}

describe('ask-later hook: which prompts carry answers', () => {
  it.each([
    ['absent', undefined],
    ['user', 'user'],
    ['sdk', 'sdk'],
  ])('GIVEN an answer waiting and source %s THEN the prompt carries it and it is delivered', async (_, source) => {
    const project = uniqueProject('source');
    await answered(store, project, 1);
    const run = await runHookCli(envFor(project), payload(source === undefined ? {} : { source }));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
    expect(await statuses(store, project, [1])).toEqual(['delivered']);
  });

  it('GIVEN an answer waiting THEN the plugin’s bundled hook (plugin/dist/hook.cjs) delivers it too', async () => {
    const project = uniqueProject('bundle');
    await answered(store, project, 1);
    const bundle = new URL('../../../plugin/dist/hook.cjs', import.meta.url).pathname;
    const run = await runHookCli(envFor(project), payload(), { args: [bundle] });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
    expect(await statuses(store, project, [1])).toEqual(['delivered']);
  });

  it.each([
    'system',
    'loop_wakeup',
    'schedule_wakeup',
    'poll_event',
    'a_source_not_invented_yet',
  ])('GIVEN an answer waiting and source %s THEN nothing is printed and the answer keeps waiting', async (source) => {
    const project = uniqueProject('source');
    await answered(store, project, 1);
    expectSilent(await runHookCli(envFor(project), payload({ source })));
    expect(await statuses(store, project, [1])).toEqual(['answered']);
  });

  it('GIVEN a background-task notification typed as a user prompt THEN nothing is printed and the answer keeps waiting', async () => {
    const project = uniqueProject('task');
    await answered(store, project, 1);
    const prompt = '  \n<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>';
    expectSilent(await runHookCli(envFor(project), payload({ source: 'user', prompt })));
    expect(await statuses(store, project, [1])).toEqual(['answered']);
  });

  it('GIVEN a prompt that only mentions <task-notification> later on THEN it carries the answer', async () => {
    const project = uniqueProject('task');
    await answered(store, project, 1);
    const run = await runHookCli(envFor(project), payload({ prompt: 'What does <task-notification> mean?' }));
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
  });

  it('GIVEN unknown fields in the payload THEN they are ignored', async () => {
    const project = uniqueProject('unknown');
    await answered(store, project, 1);
    const run = await runHookCli(envFor(project), payload({ source: 'user', future_field: { nested: [1, 2] } }));
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
  });

  it.each([
    ['malformed JSON', '{"prompt": "SECRET-PROMPT-TEXT", ', /not JSON/],
    ['empty stdin', '', /stdin is empty/],
    ['only whitespace', ' \n\t', /stdin is empty/],
    ['a JSON array', JSON.stringify([{ prompt: 'SECRET-PROMPT-TEXT' }]), /JSON array/],
    ['a JSON string', JSON.stringify('SECRET-PROMPT-TEXT'), /JSON a string/],
    [
      'prompt missing',
      JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'UserPromptSubmit' }),
      /"prompt"/,
    ],
    ['a prompt that is not a string', JSON.stringify({ prompt: ['SECRET-PROMPT-TEXT'] }), /"prompt"/],
    ['another hook event', payload({ hook_event_name: 'SessionStart' }), /SessionStart/],
  ])('GIVEN %s on stdin THEN nothing on stdout, one stderr line, exit 0, the answer keeps waiting', async (_, stdin, reason) => {
    const project = uniqueProject('malformed');
    await answered(store, project, 1);
    const stderr = expectOneWarning(await runHookCli(envFor(project), stdin));
    expect(stderr).toMatch(reason);
    expect(stderr).not.toContain('SECRET-PROMPT-TEXT');
    expect(await statuses(store, project, [1])).toEqual(['answered']);
  });

  it('GIVEN more than 1 MiB on stdin THEN it stops reading, prints one stderr line and exits 0', async () => {
    const project = uniqueProject('big');
    await answered(store, project, 1);
    const stdin = payload({ prompt: 'x'.repeat(1024 * 1024 + 10) });
    const stderr = expectOneWarning(await runHookCli(envFor(project), stdin));
    expect(stderr).toMatch(/larger than 1 MiB/);
    expect(await statuses(store, project, [1])).toEqual(['answered']);
  });
});

describe('ask-later hook: the note', () => {
  it('GIVEN an answer with notes and a dismissal THEN stdout is exactly the hook JSON carrying both, and they are delivered once', async () => {
    const project = uniqueProject('note');
    const [first] = await answered(store, project, 1, () => 'Use the managed instance.\nKeep backups for 30 days.');
    const dismissed = await store.park(project, spec({ question: 'Rename the service?', ticket: 'PROJ-12' }));
    expect((await store.dismiss(project, dismissed.id, person('U2'))).kind).toBe('done');

    const run = await runHookCli(envFor(project), payload({ source: 'user' }));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: noteOf(run.stdout) },
      }),
    );
    const note = noteOf(run.stdout);
    expect(note).toMatch(/^## ask-later: /);
    expect(note).toContain(`### #1 answered\nQuestion: ${first && single(first).question}\nAnswer: Postgres\n`);
    expect(note).toContain('Notes:\n> Use the managed instance.\n> Keep backups for 30 days.');
    expect(note).toContain('By Person U1 on Slack (user U1)');
    expect(note).toMatch(/^### #2 dismissed unanswered by Person U2 on Slack \(user U2\)/m);
    expect(note).toContain('Ticket: PROJ-12\nQuestion: Rename the service?');
    expect(await statuses(store, project, [1, 2])).toEqual(['delivered', 'dismissed']);

    expectSilent(await runHookCli(envFor(project), payload({ source: 'user' })));
  });

  it('GIVEN nothing waiting THEN the hook prints nothing at all', async () => {
    expectSilent(await runHookCli(envFor(uniqueProject('empty')), payload()));
  });

  it("GIVEN answers in another project THEN this project's prompt does not carry them", async () => {
    const other = uniqueProject('other');
    await answered(store, other, 1);
    expectSilent(await runHookCli(envFor(uniqueProject('mine')), payload()));
    expect(await statuses(store, other, [1])).toEqual(['answered']);
  });

  it('GIVEN 40 answers with long notes THEN each note stays within 9,000 characters, says how many more wait, and every answer arrives exactly once', async () => {
    const project = uniqueProject('budget');
    await answered(store, project, 40, (i) => `Notes for answer ${i}: ${'lorem ipsum '.repeat(210)}`.slice(0, 2500));
    const seen: number[] = [];
    let runs = 0;
    for (;;) {
      const run = await runHookCli(envFor(project), payload());
      expect(run).toMatchObject({ code: 0, stderr: '' });
      if (run.stdout === '') break;
      runs += 1;
      const note = noteOf(run.stdout);
      expect(note.length).toBeLessThanOrEqual(DELIVERY_NOTE_BUDGET);
      const ids = answeredIds(note);
      expect(ids.length).toBeGreaterThan(0);
      seen.push(...ids);
      const stillWaiting = (await store.list(project, { status: ['answered'] })).length;
      expect(waitingCount(note)).toBe(stillWaiting);
      expect(runs).toBeLessThan(40);
    }
    expect(runs).toBeGreaterThan(1);
    // Outcomes answered in the same millisecond have no order among themselves, so compare as sets.
    expect(seen.sort((a, b) => a - b)).toEqual(range(1, 40));
    expect(new Set(await statuses(store, project, range(1, 40)))).toEqual(new Set(['delivered']));
  });
});

describe('ask-later hook: the project', () => {
  it('GIVEN CLAUDE_PROJECT_DIR inside a git repository THEN the answers of that repository are delivered', async () => {
    const repo = gitRepo('claude-dir');
    await answered(store, repo, 1);
    const env = hookEnv({
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: prefix,
      CLAUDE_PROJECT_DIR: join(repo, 'src'),
    });
    const run = await runHookCli(env, payload({ cwd: gitRepo('elsewhere') }), { cwd: tmpdir() });
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
    expect(await statuses(store, repo, [1])).toEqual(['delivered']);
  });

  it("GIVEN no project variables THEN the project is the git top-level of the payload's cwd, not the hook's own directory", async () => {
    const repo = gitRepo('payload-cwd');
    await answered(store, repo, 1);
    const env = hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix });
    const run = await runHookCli(env, payload({ cwd: join(repo, 'src', 'deep') }), { cwd: tmpdir() });
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
  });

  it('GIVEN no project variables and no cwd in the payload THEN the project comes from the hook process directory', async () => {
    const repo = gitRepo('process-cwd');
    await answered(store, repo, 1);
    const env = hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix });
    const stdin = JSON.stringify({ prompt: 'Go on', hook_event_name: 'UserPromptSubmit' });
    const run = await runHookCli(env, stdin, { cwd: join(repo, 'src') });
    expect(answeredIds(noteOf(run.stdout))).toEqual([1]);
  });
});
