/**
 * Permission prompts from anywhere (issue 35), end to end: the real Claude Code with the plugin installed from this
 * checkout's marketplace, in the manual permission mode (`--permission-mode default`) on the SDK's path, where a
 * call that needs permission reaches this host as a `can_use_tool` request: the host here leaves it unanswered, as
 * a terminal nobody looks at, so the plugin's PermissionRequest hook races it. The person answers through the store,
 * as every surface does.
 *
 * - nobody answers within the race: the model's tool result is the receipt naming `#1`, and the command did not run;
 * - Allow once given later: the idle session wakes, the model collects the decision and makes the same call again,
 *   which runs with no prompt; a different command is parked again;
 * - Deny with a note, answered while the hook races: the note reaches the model as the tool's result.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { person, uniquePrefix } from '../support/store.js';
import { isWake, Model, type ModelRequest, Session, until } from './session.js';
import { CLAUDE_TIMEOUT_MS, type E2e, killTree, PLUGIN_TOOL_PREFIX, startE2e, textReply } from './support.js';

const prefix = uniquePrefix();
const COLLECT = `${PLUGIN_TOOL_PREFIX}collect_answers`;
const MANUAL = ['--permission-prompt-tool', 'stdio', '--permission-mode', 'default'];

let e2e: E2e;
let store: RedisStore;
let home: string;
const model = new Model();
const sessions: Session[] = [];

function openSession(project: string, race: string): Session {
  const session = new Session(e2e, home, project, {
    allowedTools: [COLLECT, 'ToolSearch'],
    args: MANUAL,
    env: { ASK_LATER_PERMISSIONS: race },
    holdDialogs: true,
  });
  sessions.push(session);
  return session;
}

function bash(id: string, command: string) {
  return {
    content: [
      { type: 'text' as const, text: 'MODEL-WORDS: writing the marker file.' },
      { type: 'tool_use' as const, id, name: 'Bash', input: { command, description: 'Write a marker file' } },
    ],
  };
}

function resultOf(session: Session, id: string): string | undefined {
  return model
    .main(session)
    .map((request) => request.toolResults.get(id))
    .find((text) => text !== undefined);
}

async function pending(project: string, id: number): Promise<Question> {
  return until(`#${id} pending`, async () => {
    const question = await store.get(project, id);
    return question?.status === 'pending' ? question : undefined;
  });
}

beforeAll(async () => {
  e2e = await startE2e();
  model.install(e2e.api);
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
  home = e2e.tempDir('home');
  await e2e.pluginSetup(home, { settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix } });
}, 900_000);

afterEach(() => {
  for (const session of sessions) killTree(session.child);
});

afterAll(async () => {
  for (const session of sessions) killTree(session.child);
  await store?.close();
  await e2e?.close();
});

describe('permission prompts raced between the terminal and the inbox', () => {
  it(
    'GIVEN nobody answering THEN the model gets the receipt naming #1 and nothing ran; Allow once later wakes the session, the same call runs with no prompt, and a different one is parked',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project, 'race:2');
      const same = 'echo PERM-OK > perm-marker.txt';
      const other = 'echo OTHER > other-marker.txt';
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_other')) return textReply('OTHER DONE');
        if (r.toolResults.has('toolu_again')) return textReply('RAN AGAIN');
        if (r.toolResults.has('toolu_perm')) return textReply('PARKED');
        if ([...r.toolResults.keys()].some((id) => id.startsWith('toolu_collect'))) return bash('toolu_again', same);
        if (isWake(r)) return model.use(r, COLLECT, {}, 'toolu_collect_1');
        if (r.tail.includes('PROMPT-1')) return bash('toolu_perm', same);
        if (r.tail.includes('PROMPT-2')) return bash('toolu_other', other);
        return textReply('NOTHING');
      };
      session.type('PROMPT-1: write the marker.');
      await session.turnEnded('PARKED');
      expect(resultOf(session, 'toolu_perm')).toMatch(
        /ask-later parked this permission request as #1 .*Nobody answered within 2 s\. Do not retry this call now/,
      );
      expect(existsSync(join(project, 'perm-marker.txt'))).toBe(false);
      const parked = await pending(project, 1);
      expect(parked.origin).toMatchObject({ tool: 'PermissionRequest', approval: { tool: 'Bash' } });

      expect((await store.answer(project, 1, { choices: ['Allow once'], other: false }, person())).kind).toBe('won');
      await session.turnEnded('RAN AGAIN');
      expect(existsSync(join(project, 'perm-marker.txt'))).toBe(true);
      expect(resultOf(session, 'toolu_collect_1')).toContain('The person allowed it once');
      expect((await store.get(project, 1))?.status).toBe('delivered');

      session.type('PROMPT-2: and the other one.');
      await session.turnEnded('OTHER DONE');
      expect(resultOf(session, 'toolu_other')).toMatch(/parked this permission request as #2 /);
      expect(existsSync(join(project, 'other-marker.txt'))).toBe(false);
      expect(await session.end()).toBe(0);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the inbox answering Deny with a note while the hook races THEN the note reaches the model and nothing ran',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project, 'race:120');
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_deny')) return textReply('DENIED');
        if (r.tail.includes('PROMPT-1')) return bash('toolu_deny', 'echo NO > denied-marker.txt');
        return textReply('NOTHING');
      };
      session.type('PROMPT-1: write the marker.');
      await pending(project, 1);
      const note = { choices: ['Deny'], other: false, notes: 'NOTE-USE-THE-DRY-RUN' };
      expect((await store.answer(project, 1, note, person())).kind).toBe('won');
      await session.turnEnded('DENIED');
      expect(resultOf(session, 'toolu_deny')).toContain('NOTE-USE-THE-DRY-RUN');
      expect(existsSync(join(project, 'denied-marker.txt'))).toBe(false);
      expect(await session.end()).toBe(0);
    },
    2 * CLAUDE_TIMEOUT_MS,
  );
});
