/**
 * `ask-later hook` wired as a PostToolUse command hook (Codex): the built CLI, the tool call's payload on stdin, the
 * blocking questions' outcomes on stdout as the PostToolUse hook JSON, each once.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { answeredIds, hookEnv, runHookCli, statuses } from './support.js';

const prefix = uniquePrefix();
let store: RedisStore;

beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function envFor(project: string, vars: Record<string, string> = {}): Record<string, string> {
  return hookEnv({
    REDIS_URL: inject('redisUrl'),
    ASK_LATER_REDIS_PREFIX: prefix,
    ASK_LATER_PROJECT: project,
    ...vars,
  });
}

/** Codex 0.169's PostToolUse payload after a shell command. */
function toolDone(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 's1',
    turn_id: 't1',
    cwd: '/',
    hook_event_name: 'PostToolUse',
    model: 'm',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'echo hi' },
    tool_response: 'hi\n',
    tool_use_id: 'call_1',
    ...fields,
  });
}

async function answer(project: string, isBlocking: boolean): Promise<number> {
  const parked = await store.park(project, spec({ isBlocking }));
  const result = await store.answer(project, parked.id, { choices: ['Postgres'], other: false }, person());
  expect(result.kind).toBe('won');
  return parked.id;
}

function postNote(stdout: string): string {
  const output = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe('PostToolUse');
  return output.hookSpecificOutput.additionalContext;
}

describe('ask-later hook as a PostToolUse hook', () => {
  it('GIVEN a blocking and a can-wait answer THEN the tool result carries the blocking one, once, and the other waits', async () => {
    const project = uniqueProject('post');
    const blocking = await answer(project, true);
    const canWait = await answer(project, false);
    const run = await runHookCli(envFor(project), toolDone());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(answeredIds(postNote(run.stdout))).toEqual([blocking]);
    expect(await statuses(store, project, [blocking, canWait])).toEqual(['delivered', 'answered']);
    expect((await store.get(project, blocking))?.deliveredVia).toBe('tool-call');
    const again = await runHookCli(envFor(project), toolDone());
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('GIVEN ASK_LATER_MIDTURN all THEN the can-wait answer comes too; GIVEN off, or a subagent’s call, THEN nothing', async () => {
    const project = uniqueProject('post-all');
    const canWait = await answer(project, false);
    expect((await runHookCli(envFor(project, { ASK_LATER_MIDTURN: 'off' }), toolDone())).stdout).toBe('');
    expect((await runHookCli(envFor(project), toolDone({ agent_id: 'sub-1' }))).stdout).toBe('');
    expect(await statuses(store, project, [canWait])).toEqual(['answered']);
    const run = await runHookCli(envFor(project, { ASK_LATER_MIDTURN: 'all' }), toolDone());
    expect(answeredIds(postNote(run.stdout))).toEqual([canWait]);
  });
});
