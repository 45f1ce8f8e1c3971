/**
 * `ask-later decisions` against a real store: the embedded SQLite file named by ASK_LATER_DB, with questions parked
 * and answered (and some not) in two projects at known times.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/commands/decisions/format.js';
import { runDecisions } from '../../../src/commands/decisions/run.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { person, spec, sqliteTestDir, testClock, uniqueProject } from '../../support/store.js';

const run = promisify(execFile);
const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;

const START = Date.UTC(2027, 0, 15, 8, 0, 0);
const MIN = 60_000;
/** The command's "now": four hours after the first question was parked. */
const NOW = START + 240 * MIN;

let dir: string;
let env: Record<string, string>;
const billing = uniqueProject('billing');
const web = uniqueProject('web');

beforeAll(async () => {
  dir = sqliteTestDir();
  env = { ASK_LATER_DB: join(dir, 'inbox.db'), HOME: dir };
  const clock = testClock(START);
  const store = await openSqliteStore({ path: env.ASK_LATER_DB ?? '', now: clock.now });
  try {
    // billing #1: answered at +10 min. billing #2: answered with Other at +3 h. billing #3: still pending.
    // billing #4: dismissed. web #1 (multi-select): answered at +1 h, then delivered to the agent.
    await store.park(billing, spec({ question: 'Which database?', ticket: 'BILL-1' }));
    await store.park(billing, spec({ question: 'Which queue?', isBlocking: true }));
    await store.park(billing, spec({ question: 'Still open?' }));
    await store.park(billing, spec({ question: 'Dismissed?' }));
    await store.park(web, spec({ question: 'Which features?', multiSelect: true }));
    clock.advance(10 * MIN);
    await store.answer(billing, 1, { choices: ['Postgres'], other: false }, person('U1'));
    await store.dismiss(billing, 4, person('U1'));
    clock.advance(50 * MIN);
    await store.answer(web, 1, { choices: ['Postgres', 'SQLite'], other: false, notes: 'both' }, person('U2'));
    await store.markDelivered(web, 1, 'tool-result');
    clock.advance(120 * MIN);
    await store.answer(billing, 2, { choices: [], other: true, notes: 'The one we run.' }, person('U3', 'discord'));
  } finally {
    await store.close();
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command in-process at {@link NOW}; what it wrote and its exit code. */
async function decisions(args: string[], environment: Record<string, string> = env) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDecisions(
    environment,
    args,
    { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } },
    { now: () => NOW },
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** `project#id` of each record of a JSON listing, in order. */
function refs(stdout: string): string[] {
  return (JSON.parse(stdout) as { project: string; id: number }[]).map((record) => `${record.project}#${record.id}`);
}

describe('ask-later decisions', () => {
  it('GIVEN answered, pending and dismissed questions in two projects THEN the answered ones, newest answer first', async () => {
    const result = await decisions(['--format', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(refs(result.stdout)).toEqual([`${billing}#2`, `${web}#1`, `${billing}#1`]);
    const [other, multi, first] = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(other).toMatchObject({
      answer: { text: 'Other', choices: [], other: true, notes: 'The one we run.' },
      answeredBy: { displayName: 'Person U3', userId: 'U3', platform: 'discord' },
      answeredAt: new Date(START + 180 * MIN).toISOString(),
      blocking: true,
      deliveredAt: null,
      status: 'answered',
    });
    expect(multi).toMatchObject({
      multiSelect: true,
      answer: { text: 'Postgres, SQLite', choices: ['Postgres', 'SQLite'], other: false, notes: 'both' },
      deliveredAt: new Date(START + 60 * MIN).toISOString(),
      deliveredVia: 'tool-result',
      status: 'delivered',
    });
    expect(first).toMatchObject({ ticket: 'BILL-1', askedAt: new Date(START).toISOString() });
  });

  it('GIVEN --project with a pattern THEN only the matching project’s decisions', async () => {
    const pattern = `${billing.slice(0, billing.lastIndexOf('/'))}/billing-*`;
    const result = await decisions(['--project', pattern, '--format=json']);
    expect(result.code).toBe(0);
    expect(refs(result.stdout)).toEqual([`${billing}#2`, `${billing}#1`]);
  });

  it.each([
    [['--since', '2h'], ['billing#2']],
    [['--since=3h'], ['billing#2', 'web#1']],
    [
      ['--since', '1w'],
      ['billing#2', 'web#1', 'billing#1'],
    ],
    [
      ['--since', '2027-01-15T09:00Z'],
      ['billing#2', 'web#1'],
    ],
    [['--since', '2027-01-16'], []],
  ])('GIVEN %j THEN only the answers given since then: %j', async (args, expected) => {
    const result = await decisions([...args, '--format', 'json']);
    expect(result.code).toBe(0);
    const names: Record<string, string> = { [billing]: 'billing', [web]: 'web' };
    expect(
      refs(result.stdout).map((ref) => ref.replace(/^(.*)#/, (_all, project: string) => `${names[project]}#`)),
    ).toEqual(expected);
  });

  it('GIVEN no --format THEN the Markdown decision log, newest first', async () => {
    const result = await decisions(['--project', billing]);
    expect(result.code).toBe(0);
    const headings = result.stdout.split('\n').filter((line) => /^#{1,2} /.test(line));
    expect(headings).toEqual([
      '# Decision log',
      `## #2 · Which queue? · ${billing.split('/').at(-1)}`,
      `## #1 · Which database? · ${billing.split('/').at(-1)} · BILL-1`,
    ]);
    expect(result.stdout).toContain(`2 answered questions, newest answer first · project \`${billing}\``);
  });

  it('GIVEN --format csv THEN a header and one record per decision', async () => {
    const result = await decisions(['--format', 'csv', '--project', web]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\r\n')).toEqual([
      CSV_COLUMNS.join(','),
      expect.stringMatching(new RegExp(`^${web},1,,Which features\\?,`)),
      '',
    ]);
  });

  it.each([
    ['md', 'No answered questions (project `/nowhere/**`).\n'],
    ['json', '[]\n'],
    ['csv', `${CSV_COLUMNS.join(',')}\r\n`],
  ])('GIVEN nothing matches and --format %s THEN %j', async (format, output) => {
    expect(await decisions(['--project', '/nowhere/**', '--format', format])).toEqual({
      code: 0,
      stdout: output,
      stderr: '',
    });
  });

  it.each([
    [['--format', 'yaml'], '--format must be md, json or csv, got "yaml"'],
    [
      ['--since', 'yesterday'],
      '--since must be a duration such as 30m, 12h, 7d or 2w, or an ISO date such as 2027-01-08 or 2027-01-08T09:30Z, got "yesterday"',
    ],
    [
      ['--since', '2027-02-30'],
      '--since must be a duration such as 30m, 12h, 7d or 2w, or an ISO date such as 2027-01-08 or 2027-01-08T09:30Z, got "2027-02-30"',
    ],
    [['--since', '0d'], expect.stringContaining('--since must be a duration')],
    [
      ['--since'],
      '--since needs a value: a duration such as 30m, 12h, 7d or 2w, or an ISO date such as 2027-01-08 or 2027-01-08T09:30Z',
    ],
    [
      ['--project', '--format', 'md'],
      '--project needs a value: a project name or pattern such as /srv/repos/api or /srv/repos/**',
    ],
    [['--project='], '--project must be a project name or pattern such as /srv/repos/api, got nothing'],
    [['--format', 'md', '--format', 'csv'], '--format was given twice: give it once'],
    [
      ['--limit', '5'],
      'unknown option "--limit": expected --project PATTERN, --since DURATION|DATE, --format md|json|csv',
    ],
    [
      ['billing'],
      'unexpected argument "billing": expected --project PATTERN, --since DURATION|DATE, --format md|json|csv',
    ],
  ])('GIVEN %j THEN exit 2 with one line saying what was expected', async (args, line) => {
    const result = await decisions(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([expect.stringMatching(/^ask-later decisions: /), '']);
    expect(result.stderr.slice('ask-later decisions: '.length, -1)).toEqual(line);
  });

  it('GIVEN --help THEN the usage on stdout, exit 0, and the store is not opened', async () => {
    const result = await decisions(['--help'], { ASK_LATER_DB: 'not-absolute.db' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: ask-later decisions \[--project PATTERN\]/);
  });

  it('GIVEN settings that name no usable store THEN exit 1 with the config line', async () => {
    const result = await decisions([], { ASK_LATER_DB: 'inbox.db' });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'ask-later decisions: ASK_LATER_DB must be an absolute path (every project\'s session must find the same file), got "inbox.db"\n',
    });
  });
});

describe('ask-later decisions through the built CLI', () => {
  it('GIVEN the command THEN it lists the store’s decisions and the process ends (the store was closed)', async () => {
    const { stdout } = await run(process.execPath, [cli, 'decisions', '--format', 'json', '--project', web], { env });
    expect(refs(stdout)).toEqual([`${web}#1`]);
  });

  it('GIVEN a bad flag THEN exit 2 and one line on stderr', async () => {
    const error = (await run(process.execPath, [cli, 'decisions', '--format', 'xml'], { env }).catch(
      (e: unknown) => e,
    )) as {
      code: number;
      stdout: string;
      stderr: string;
    };
    expect(error).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ask-later decisions: --format must be md, json or csv, got "xml"\n',
    });
  });

  it('GIVEN --help at the top level THEN the usage lists decisions', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help'], { env });
    expect(stdout).toMatch(/^ {2}decisions +the answered questions, newest first/m);
  });
});
