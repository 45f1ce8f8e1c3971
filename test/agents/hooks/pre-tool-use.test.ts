/**
 * `ask-later hook` wired as a PreToolUse hook (by-hand setups, Claude Code before mcp_tool hooks): the built CLI fed
 * Claude Code's AskUserQuestion payload on stdin, the decision on stdout.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { uniquePrefix, uniqueProject } from '../../support/store.js';
import { hookEnv, runHookCli } from './support.js';

const prefix = uniquePrefix();
let store: RedisStore;
beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

const bundle = new URL('../../../plugin/dist/hook.cjs', import.meta.url).pathname;

function envFor(project: string, mode?: string): Record<string, string> {
  return hookEnv({
    REDIS_URL: inject('redisUrl'),
    ASK_LATER_REDIS_PREFIX: prefix,
    ASK_LATER_PROJECT: project,
    ASK_LATER_ASK_USER_QUESTION: mode,
  });
}

function preToolUse(toolInput: unknown): string {
  return JSON.stringify({
    session_id: 'session-1',
    transcript_path: '/nonexistent/transcript.jsonl',
    cwd: process.cwd(),
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'AskUserQuestion',
    tool_input: toolInput,
    tool_use_id: 'toolu_1',
  });
}

const ASKED = {
  questions: [
    {
      question: 'Which format should the export use?',
      header: 'Format',
      options: [
        { label: 'Parquet (Recommended)', description: 'Columnar' },
        { label: 'CSV', description: 'Plain' },
      ],
      multiSelect: false,
    },
  ],
};

describe('ask-later hook as a PreToolUse hook', () => {
  it('GIVEN AskUserQuestion on stdin THEN the question is parked (the question itself as context, no transcript) and the tool denied naming it', async () => {
    const project = uniqueProject('pre-tool-use');
    const run = await runHookCli(envFor(project), preToolUse(ASKED));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(output.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(output.hookSpecificOutput.permissionDecisionReason).toMatch(/^ask-later parked this question as #1 /);
    expect(await store.list(project)).toMatchObject([
      {
        id: 1,
        status: 'pending',
        context: 'Which format should the export use?',
        question: 'Which format should the export use?',
        recommended: ['Parquet'],
        origin: { tool: 'AskUserQuestion', header: 'Format' },
      },
    ]);
  });

  it('GIVEN the terminal mode THEN it answers {} and parks nothing; GIVEN a wrong mode THEN one stderr line names the setting and nothing is parked', async () => {
    const project = uniqueProject('pre-tool-use-terminal');
    const terminal = await runHookCli(envFor(project, 'terminal'), preToolUse(ASKED));
    expect(terminal).toMatchObject({ code: 0, stdout: '{}', stderr: '' });
    const wrong = await runHookCli(envFor(project, 'wait:600'), preToolUse(ASKED));
    expect(wrong.code).toBe(0);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(
      /^ask-later hook: ASK_LATER_ASK_USER_QUESTION must be park, wait:<seconds> \(1 to 120\) or terminal, got "wait:600"/,
    );
    expect(await store.list(project)).toEqual([]);
  });

  it('GIVEN the prompt hook’s own bundle (hook.cjs) wired as PreToolUse THEN it parks nothing and says to run ask-later.mjs', async () => {
    const project = uniqueProject('pre-tool-use-bundle');
    const run = await runHookCli(envFor(project), preToolUse(ASKED), { args: [bundle] });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ask-later.mjs hook');
    expect(await store.list(project)).toEqual([]);
  });
});
