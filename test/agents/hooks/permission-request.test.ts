/**
 * `ask-later hook` as Claude Code's `PermissionRequest` hook: the built CLI fed the payload 2.1.332 sends (FACTS),
 * against the tier's Redis; the person's answers are given through the store, as every surface gives them.
 */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inputHash } from '../../../src/core/approval.js';
import { itemsOf, type Question } from '../../../src/core/question.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { person, uniquePrefix, uniqueProject } from '../../support/store.js';
import { hookEnv, runHookCli, startHook } from './support.js';

const prefix = uniquePrefix();
let store: RedisStore;
beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function envFor(project: string, mode: string, stateHome: string): Record<string, string> {
  return hookEnv({
    REDIS_URL: inject('redisUrl'),
    ASK_LATER_REDIS_PREFIX: prefix,
    ASK_LATER_PROJECT: project,
    ASK_LATER_PERMISSIONS: mode,
    XDG_STATE_HOME: stateHome,
  });
}

const SUGGESTION = {
  type: 'addRules',
  rules: [{ toolName: 'Bash', ruleContent: 'npm publish' }],
  behavior: 'allow',
  destination: 'localSettings',
};

function request(fields: { command?: string; session?: string; transcript?: string } = {}): string {
  return JSON.stringify({
    session_id: fields.session ?? 'session-1',
    transcript_path: fields.transcript ?? '/nonexistent/transcript.jsonl',
    cwd: process.cwd(),
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: fields.command ?? 'npm publish', description: 'Publish the package' },
    permission_suggestions: [SUGGESTION, { type: 'addDirectories', directories: ['/w'], destination: 'session' }],
  });
}

function decisionOf(stdout: string): { behavior: string; message?: string; updatedPermissions?: unknown[] } {
  const output = JSON.parse(stdout) as {
    hookSpecificOutput: { hookEventName: string; decision: { behavior: string; message?: string } };
  };
  expect(output.hookSpecificOutput.hookEventName).toBe('PermissionRequest');
  return output.hookSpecificOutput.decision;
}

async function answer(project: string, id: number, choice: string, notes?: string): Promise<void> {
  const result = await store.answer(
    project,
    id,
    { choices: [choice], other: false, ...(notes === undefined ? {} : { notes }) },
    person(),
  );
  expect(result.kind).toBe('won');
}

async function pendingOne(project: string): Promise<Question> {
  let found: Question | undefined;
  await expect
    .poll(async () => {
      found = (await store.list(project)).find((question) => question.status === 'pending');
      return found !== undefined;
    })
    .toBe(true);
  return found as Question;
}

describe('ask-later hook as a PermissionRequest hook', () => {
  it('GIVEN park THEN the call is parked as an approval bound to it and denied with a receipt naming #N; Allow once later lets exactly that call through once, and carries the decision', async () => {
    const project = uniqueProject('permission-park');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    const env = envFor(project, 'park', state);
    const first = await runHookCli(env, request());
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const receipt = decisionOf(first.stdout);
    expect(receipt.behavior).toBe('deny');
    expect(receipt.message).toMatch(/^ask-later parked this permission request as #1 .* Do not retry this call now/);
    const [parked] = await store.list(project);
    expect(parked).toMatchObject({
      id: 1,
      status: 'pending',
      isBlocking: true,
      question: 'Allow: Run `npm publish`?',
      origin: {
        tool: 'PermissionRequest',
        approval: {
          agent: 'claude-code',
          tool: 'Bash',
          input: inputHash({ command: 'npm publish', description: 'Publish the package' }),
          session: 'session-1',
          rule: 'Bash(npm publish)',
        },
      },
    });
    expect(itemsOf(parked as Question)[0]?.options.map((option) => option.label)).toEqual([
      'Allow once',
      'Allow for this session',
      'Always allow',
      'Deny',
    ]);

    // Asked again before anyone decided: still parked, nothing new.
    expect(decisionOf((await runHookCli(env, request())).stdout).message).toMatch(/as #1 /);
    await answer(project, 1, 'Allow once');

    // Another session, another command: neither is granted by #1.
    const otherSession = await runHookCli(env, request({ session: 'session-2' }));
    expect(decisionOf(otherSession.stdout).message).toMatch(/as #2 /);
    const otherCommand = await runHookCli(env, request({ command: 'npm publish --tag next' }));
    expect(decisionOf(otherCommand.stdout).message).toMatch(/as #3 /);

    const same = await runHookCli(env, request());
    expect(decisionOf(same.stdout)).toEqual({ behavior: 'allow' });
    expect((await store.get(project, 1))?.status).toBe('delivered');
    // Once means once: the next identical call is a new request.
    expect(decisionOf((await runHookCli(env, request())).stdout).message).toMatch(/as #4 /);
  });

  it('GIVEN race THEN an inbox answer in time decides the call at once: Always allow echoes the suggested rule, Allow for this session keeps it for the session', async () => {
    const project = uniqueProject('permission-race');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    const env = envFor(project, 'race:120', state);
    const always = startHook(env);
    always.send(request());
    await answer(project, (await pendingOne(project)).id, 'Always allow');
    const run = await always.done;
    expect(decisionOf(run.stdout)).toEqual({ behavior: 'allow', updatedPermissions: [SUGGESTION] });
    expect((await store.get(project, 1))?.status).toBe('delivered');

    const session = startHook(env);
    session.send(request({ command: 'npm test' }));
    await answer(project, (await pendingOne(project)).id, 'Allow for this session');
    expect(decisionOf((await session.done).stdout)).toEqual({
      behavior: 'allow',
      updatedPermissions: [{ ...SUGGESTION, destination: 'session' }],
    });
  });

  it('GIVEN race and nobody answering THEN the call is denied with the receipt; Deny with a note later reaches the model on the same call', async () => {
    const project = uniqueProject('permission-nobody');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    const env = envFor(project, 'race:1', state);
    const run = await runHookCli(env, request());
    expect(decisionOf(run.stdout).message).toMatch(/as #1 .* Nobody answered within 1 s\./);
    expect((await store.get(project, 1))?.status).toBe('pending');
    await answer(project, 1, 'Deny', 'Use the dry run first');
    const again = decisionOf((await runHookCli(env, request())).stdout);
    expect(again.behavior).toBe('deny');
    expect(again.message).toContain(
      'The person denied this call (ask-later #1). Their notes: "Use the dry run first".',
    );
  });

  it('GIVEN a race THEN the terminal answering first (the call’s result in the transcript) withdraws the inbox copy and prints nothing', async () => {
    const project = uniqueProject('permission-terminal');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    const transcript = join(state, 'transcript.jsonl');
    const input = { command: 'npm publish', description: 'Publish the package' };
    writeFileSync(
      transcript,
      `${JSON.stringify({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Publishing the release now.' },
            { type: 'tool_use', id: 'toolu_9', name: 'Bash', input },
          ],
        },
      })}\n`,
    );
    const hook = startHook(envFor(project, 'race:120', state));
    hook.send(request({ transcript }));
    const parked = await pendingOne(project);
    expect(parked.context).toContain('> Publishing the release now.');
    appendFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ok' }] } })}\n`,
    );
    const run = await hook.done;
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect((await store.get(project, parked.id))?.status).toBe('cancelled');
  });

  it('GIVEN a race THEN Esc at the dialog (Claude Code stopping the hook) withdraws the inbox copy', async () => {
    const project = uniqueProject('permission-esc');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    const hook = startHook(envFor(project, 'race:120', state));
    hook.send(request());
    const parked = await pendingOne(project);
    hook.child.kill('SIGTERM');
    const run = await hook.done;
    expect(run.stdout).toBe('');
    expect((await store.get(project, parked.id))?.status).toBe('cancelled');
  });

  it('GIVEN terminal THEN nothing is printed or parked; GIVEN a wrong mode THEN one stderr line names the setting', async () => {
    const project = uniqueProject('permission-off');
    const state = mkdtempSync(join(tmpdir(), 'al-perm-'));
    expect(await runHookCli(envFor(project, 'terminal', state), request())).toMatchObject({ stdout: '', stderr: '' });
    const wrong = await runHookCli(envFor(project, 'race:9999', state), request());
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/^ask-later hook: ASK_LATER_PERMISSIONS must be race:<seconds>, park, wait:<seconds>/);
    expect(await store.list(project)).toEqual([]);
  });
});
