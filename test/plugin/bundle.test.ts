/**
 * The plugin's bundles (plugin/dist), which are committed so a person installs the plugin with no build step:
 * they must be what `scripts/bundle.mjs` builds from the sources in git (a forgotten rebuild fails here), and they
 * must run on their own, outside the repository, with no node_modules around them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { textOf } from '../support/mcp.js';
import { uniquePrefix } from '../support/store.js';

const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const prefix = uniquePrefix();
const scratch: string[] = [];
/** A fresh build, in a directory far from the repository (like an installed plugin's cache). */
let built: string;
let store: RedisStore;

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-bundle-${name}-`)));
  scratch.push(dir);
  return dir;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The files git has staged under plugin/dist (in a fresh clone: what was committed). */
function filesInGit(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', 'plugin/dist'], { cwd: repoRoot, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file !== '')
    .map((file) => relative('plugin/dist', file))
    .sort();
}

function contentInGit(file: string): Buffer {
  return execFileSync('git', ['show', `:plugin/dist/${file}`], { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 });
}

const REBUILD = 'run `npm run build` and commit plugin/dist with the change (`git add plugin/dist`)';

beforeAll(async () => {
  built = join(tempDir('build'), 'dist');
  execFileSync(process.execPath, [join(repoRoot, 'scripts/bundle.mjs'), built], { cwd: repoRoot, stdio: 'pipe' });
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
}, 120_000);

afterAll(async () => {
  await store?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the plugin bundles', () => {
  it('GIVEN the sources in git THEN plugin/dist in git is exactly what scripts/bundle.mjs builds from them', () => {
    const fresh = filesUnder(built);
    expect(fresh).toEqual(expect.arrayContaining(['ask-later.mjs', 'hook.cjs', 'package.json', 'lua/park-5.lua']));
    expect(filesInGit(), `the files under plugin/dist in git differ from a fresh build: ${REBUILD}`).toEqual(fresh);
    const stale = fresh.filter((file) => !contentInGit(file).equals(readFileSync(join(built, file))));
    expect(stale, `stale in git: ${REBUILD}`).toEqual([]);
  });

  it('GIVEN the same sources THEN two builds are byte for byte the same and name no absolute path', () => {
    const again = join(tempDir('again'), 'elsewhere', 'dist');
    execFileSync(process.execPath, [join(repoRoot, 'scripts/bundle.mjs'), again], { cwd: tmpdir(), stdio: 'pipe' });
    const files = filesUnder(built);
    expect(files).toEqual(expect.arrayContaining(['ask-later.mjs', 'hook.cjs', 'package.json', 'lua/park-5.lua']));
    expect(filesUnder(again)).toEqual(files);
    for (const file of files) {
      const content = readFileSync(join(built, file));
      expect(readFileSync(join(again, file)).equals(content), file).toBe(true);
      expect(content.includes(repoRoot), `${file} names ${repoRoot}`).toBe(false);
    }
  });

  it('GIVEN the bundle outside the repository THEN --version prints the package version', () => {
    const out = execFileSync(process.execPath, [join(built, 'ask-later.mjs'), '--version'], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(version);
  });

  it('GIVEN the bundle outside the repository THEN `mcp` lists the tools over stdio and parks with its own Lua scripts', async () => {
    const project = tempDir('project');
    execFileSync('git', ['init', '-q', project]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(built, 'ask-later.mjs'), 'mcp'],
      cwd: project,
      env: { PATH: process.env.PATH ?? '', REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bundle-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'ask-later', version });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'ask_later',
        'cancel_question',
        'capture_question',
        'collect_answers',
        'find_decisions',
        'get_answer',
        'list_questions',
      ]);
      const parked = await client.callTool({
        name: 'ask_later',
        arguments: { context: 'c', question: 'Which one?', impact: 'i', isBlocking: false, options: ['A', 'B'] },
      });
      expect(textOf(parked)).toMatch(/^Parked as #1\b/);
      expect(await store.get(project, 1)).toMatchObject({ question: 'Which one?' });
    } finally {
      await client.close();
    }
  });

  it('GIVEN an answer waiting THEN hook.cjs outside the repository adds it to the prompt as additionalContext', async () => {
    const project = tempDir('hook');
    execFileSync('git', ['init', '-q', project]);
    const spec = {
      context: 'c',
      question: 'Ship on Friday?',
      impact: 'i',
      isBlocking: true,
      options: [{ label: 'Yes' }, { label: 'No' }],
      multiSelect: false,
    };
    await store.park(project, spec);
    await store.answer(
      project,
      1,
      { choices: ['No'], other: false, notes: 'Monday, after the freeze.' },
      { platform: 'discord', userId: 'D1', displayName: 'Grace' },
    );
    const input = {
      session_id: 'bundle-test',
      transcript_path: join(project, 'transcript.jsonl'),
      cwd: project,
      prompt_id: 'p1',
      permission_mode: 'default',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Carry on.',
    };
    const run = spawnSync(process.execPath, [join(built, 'hook.cjs')], {
      cwd: project,
      input: JSON.stringify(input),
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        REDIS_URL: inject('redisUrl'),
        ASK_LATER_REDIS_PREFIX: prefix,
        CLAUDE_PROJECT_DIR: project,
      },
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as {
      hookSpecificOutput?: { hookEventName?: string; additionalContext?: string };
    };
    expect(output.hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
    expect(output.hookSpecificOutput?.additionalContext).toContain('Monday, after the freeze.');
    expect((await store.get(project, 1))?.status).toBe('delivered');
  });
});
