import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StructuredResult } from '../../src/agents/mcp/structured.js';
import type { Question, QuestionSpec } from '../../src/core/question.js';
import type { RedisConnection } from '../../src/store/redis/connection.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { connectNodeRedis } from '../../src/store/redis/node-redis-connection.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { messageTexts, type ScriptedReply } from '../fakes/messages-api.js';
import { uniquePrefix } from '../support/store.js';
import { count, isWake, Model, type ModelRequest, Session, until } from './session.js';
import {
  CLAUDE_TIMEOUT_MS,
  commandLine,
  descendants,
  type E2e,
  killTree,
  MARKETPLACE,
  PLUGIN_TOOL_PREFIX,
  startE2e,
  textReply,
} from './support.js';

const prefix = uniquePrefix();
const ASK = `${PLUGIN_TOOL_PREFIX}ask_later`;
const COLLECT = `${PLUGIN_TOOL_PREFIX}collect_answers`;
const ALLOWED_TOOLS = [ASK, COLLECT, 'Bash', 'Agent', 'ToolSearch'];
const DEBUG_DIR = process.env.ASK_LATER_E2E_DEBUG;

let e2e: E2e;
let store: RedisStore;
let redis: RedisConnection;
let home: string;
const sessions: Session[] = [];

const model = new Model();

/** A session of this file: the plugin's home, the tools the tests allow; killed after each test. */
function openSession(project: string): Session {
  const session = new Session(e2e, home, project, { allowedTools: ALLOWED_TOOLS });
  sessions.push(session);
  return session;
}

/** What the session's waiters recorded as woken for (the plugin's data directory), project → question ids. */
function wokenIds(session: Session): unknown {
  const file = join(
    home,
    '.claude',
    'plugins',
    'data',
    `ask-later-${MARKETPLACE}`,
    'sessions',
    `${session.sessionId}.json`,
  );
  return (JSON.parse(readFileSync(file, 'utf8')) as { woken?: unknown }).woken;
}

/** Whether a waiter holds the session (its store lease). */
async function waiterArmed(session: Session): Promise<boolean> {
  const id = session.sessionId;
  if (id === undefined) return false;
  return (await redis.sendCommand(['EXISTS', `${prefix}:lease:waiter:${id}`])) === 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Questions and answers.

let notesCounter = 0;

function question(overrides: Partial<QuestionSpec> & { question: string; isBlocking: boolean }): QuestionSpec {
  return {
    context: 'The nightly export job writes **CSV** today.',
    impact: 'Decides the writer library.',
    options: [{ label: 'CSV' }, { label: 'Parquet' }, { label: 'Both' }],
    recommended: ['Both'],
    multiSelect: false,
    ...overrides,
  };
}

/** The person answers #`id` on Slack with notes of its own (unique in the whole run); returns the notes. */
async function answer(project: string, id: number, choice = 'Parquet'): Promise<string> {
  const notes = `NOTES-${++notesCounter}-${prefix}-q${id}`;
  const result = await store.answer(
    project,
    id,
    { choices: [choice], other: false, notes },
    { platform: 'slack', userId: 'U1', displayName: 'Ada' },
  );
  expect(result.kind).toBe('won');
  return notes;
}

async function statusOf(project: string, id: number): Promise<Question['status'] | undefined> {
  return (await store.get(project, id))?.status;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

beforeAll(async () => {
  e2e = await startE2e();
  model.install(e2e.api);
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
  redis = await connectNodeRedis(inject('redisUrl'), { connectTimeoutMs: 2000 });
  home = e2e.tempDir('home');
  await e2e.pluginSetup(home, { settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix } });
}, 900_000);

afterEach(() => {
  // A test that failed half-way leaves its session running: it must not answer the next test's requests.
  for (const session of sessions) killTree(session.child);
});

afterAll(async () => {
  if (DEBUG_DIR) model.dump(join(DEBUG_DIR, 'requests.jsonl'));
  for (const session of sessions) killTree(session.child);
  redis?.close();
  await store?.close();
  await e2e?.close();
});

/** The `#N (blocking)` ids a wake notification names. */
function wokenFor(request: ModelRequest): number[] {
  return [...request.tail.matchAll(/#(\d+) \(blocking\) was answered/g)].map((m) => Number(m[1]));
}

/** The main request that carries the result of tool call `id`. */
function resultRequest(session: Session, id: string, from = 0): ModelRequest | undefined {
  return model.main(session, from).find((r) => r.toolResults.has(id));
}

function where(session: Session, needle: string): string {
  const last = model.lastMain(session);
  return last.body.messages
    .map((m, i) => `${i} ${m.role}: ${JSON.stringify(m.content).slice(0, 300)}`)
    .filter((line) => line.includes(needle))
    .join('\n');
}

describe('answers reach a running Claude Code session', () => {
  it(
    'GIVEN blocking questions parked WHEN the person answers one while the session is idle THEN the session wakes with no prompt typed, names that question only, and the answer reaches the model once',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project);
      const first = question({ question: 'Which format should the nightly export write?', isBlocking: true });
      let wakes = 0;
      model.brain = (r) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_ask')) return textReply('PARKED');
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_collect_'));
        if (collected !== undefined) return textReply(`APPLIED ${collected}`);
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_collect_${++wakes}`);
        if (r.tail.includes('PROMPT-1')) return model.use(r, ASK, first, 'toolu_ask');
        return textReply('NOTHING');
      };
      session.type('PROMPT-1: add a Parquet export to the nightly job.');
      await session.turnEnded('PARKED');
      expect((await store.get(project, 1))?.isBlocking).toBe(true);
      // More blocking questions, so the session can be woken several times.
      for (let id = 2; id <= 5; id++) {
        await store.park(project, question({ question: `Blocking question ${id}?`, isBlocking: true }));
      }

      const latencies: number[] = [];
      for (let id = 1; id <= 5; id++) {
        // The waiter the last turn's Stop hook started holds the session: the person answers.
        await until(`the waiter to hold the session\n${session.report()}`, () => waiterArmed(session));
        const from = model.requests.length;
        const answeredAt = Date.now();
        const notes = await answer(project, id);
        const woken = await until(`a woken request for #${id}\n${session.report()}`, () =>
          model.main(session, from).find(isWake),
        );
        latencies.push(woken.at - answeredAt);
        expect(wokenFor(woken), woken.tail).toEqual([id]);
        expect(woken.tail).toContain(`#${id} (blocking) was answered on Slack. Call the collect_answers tool`);
        await session.turnEnded(`APPLIED toolu_collect_${id}`);
        const collected = resultRequest(session, `toolu_collect_${id}`, from);
        expect(collected).toBeDefined();
        const collectText = collected?.toolResults.get(`toolu_collect_${id}`) ?? '';
        if (id === 1) {
          // collect_answers is deferred behind ToolSearch until the model loads it: the ToolSearch call's
          // PostToolUse hook carries nothing, so the answer comes from collect_answers itself.
          const afterSearch = model
            .main(session, from)
            .find((r) => [...r.toolResults.keys()].some((k) => k.startsWith('toolu_search_')));
          expect(afterSearch, 'the model loaded collect_answers through ToolSearch').toBeDefined();
          expect(count(afterSearch?.body ?? { messages: [] }, notes), afterSearch?.tail).toBe(0);
        }
        // The model reads collect_answers' structured content (Claude Code shows it instead of the text).
        const collectedSeen = JSON.parse(collectText) as StructuredResult;
        expect(collectedSeen.note).toMatch(/^From ask-later: outcomes of the questions you parked/);
        expect(collectedSeen.questions.map((q) => q.id)).toEqual([id]);
        expect(collectText).toContain(notes);
        expect(collectedSeen.questions[0]?.answeredBy).toBe('Ada on Slack (user U1)');
        await until(`#${id} delivered`, async () => (await statusOf(project, id)) === 'delivered');
        expect(count(model.lastMain(session).body, notes), where(session, notes)).toBe(1);
      }
      console.log(
        `wake latency (answer stored → woken model request), ms: ${latencies.join(', ')}; median ${median(latencies)}`,
      );
      expect(await session.end()).toBe(0);
      expect(model.main(session).filter(isWake)).toHaveLength(5);
      // Hook calls with nothing due return {}: nothing about them reaches the model.
      expect(JSON.stringify(model.lastMain(session).body.messages)).not.toContain('hook success');
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN a non-blocking and a blocking question WHEN the non-blocking one is answered THEN the session is not woken and the next typed prompt carries it once; the blocking answer then wakes it, naming only that one',
    async () => {
      const project = e2e.gitProject();
      await store.park(project, question({ question: 'Should the export keep the header row?', isBlocking: false }));
      await store.park(project, question({ question: 'Which bucket gets the export?', isBlocking: true }));
      const session = openSession(project);
      model.brain = (r) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_collect')) return textReply('WOKEN');
        if (isWake(r)) return model.use(r, COLLECT, {}, 'toolu_collect');
        if (r.tail.includes('PROMPT-A')) return textReply('A-DONE');
        if (r.tail.includes('PROMPT-B')) return textReply('B-DONE');
        return textReply('NOTHING');
      };
      session.type('PROMPT-A: start on the export.');
      await session.turnEnded('A-DONE');
      // The SessionStart waiter holds the session: a blocking question waits.
      await until(`the waiter to hold the session\n${session.report()}`, () => waiterArmed(session));

      const beforeAnswer = model.requests.length;
      const nonBlocking = await answer(project, 1, 'Both');
      session.type('PROMPT-B: go on.');
      await session.turnEnded('B-DONE');
      const [typed, ...rest] = model.main(session, beforeAnswer);
      expect(typed?.tail).toContain('PROMPT-B');
      expect(count(typed?.body ?? { messages: [] }, nonBlocking), typed?.tail).toBe(1);
      expect(typed?.tail).toContain('UserPromptSubmit hook additional context: ## ask-later: outcomes');
      expect(rest).toHaveLength(0);
      expect(await statusOf(project, 1)).toBe('delivered');

      const beforeWake = model.requests.length;
      const blocking = await answer(project, 2);
      const woken = await until(`a woken request\n${session.report()}`, () =>
        model.main(session, beforeWake).find(isWake),
      );
      expect(wokenFor(woken)).toEqual([2]);
      await session.turnEnded('WOKEN');
      await until('#2 delivered', async () => (await statusOf(project, 2)) === 'delivered');
      expect(await session.end()).toBe(0);

      // The session has ended: it was woken once in all, for #2, and its waiters only ever woke it for #2.
      expect(model.main(session).filter(isWake).map(wokenFor)).toEqual([[2]]);
      expect(wokenIds(session)).toEqual({ [project]: [2] });
      expect(count(model.lastMain(session).body, nonBlocking), where(session, nonBlocking)).toBe(1);
      expect(count(model.lastMain(session).body, blocking), where(session, blocking)).toBe(1);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    "GIVEN the model in a tool loop WHEN a blocking question is answered THEN the next tool call of the main agent brings it once, a subagent's tool call does not take it, and a non-blocking answer waits for the prompt",
    async () => {
      const project = e2e.gitProject();
      await store.park(project, question({ question: 'Which compression should Parquet use?', isBlocking: true }));
      await store.park(project, question({ question: 'Which partitioning should Parquet use?', isBlocking: true }));
      await store.park(project, question({ question: 'Should the job log row counts?', isBlocking: false }));
      const flags = e2e.tempDir('flags');
      const gate = (name: string) => `until [ -e ${join(flags, name)} ]; do sleep 0.05; done`;
      const open = (name: string) => writeFileSync(join(flags, name), '');
      const session = openSession(project);
      const bash = (id: string, command: string): ScriptedReply => ({
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: id } }],
      });
      model.brain = (r) => {
        if (r.kind === 'subagent') {
          if (r.toolResults.has('toolu_sub_1')) return textReply('sub done');
          if (r.tail.includes('SUBAGENT-TASK')) return bash('toolu_sub_1', `${gate('sub')}; echo sub`);
          return textReply('sub done');
        }
        if (r.toolResults.has('toolu_step_1')) return bash('toolu_step_2', `${gate('step-2')}; echo step-2`);
        if (r.toolResults.has('toolu_step_2')) {
          return {
            content: [
              {
                type: 'tool_use',
                id: 'toolu_agent',
                name: 'Agent',
                input: {
                  description: 'sub echo',
                  prompt: 'SUBAGENT-TASK: run echo sub',
                  subagent_type: 'general-purpose',
                  run_in_background: false,
                },
              },
            ],
          };
        }
        if (r.toolResults.has('toolu_agent')) return bash('toolu_step_3', 'echo step-3');
        if (r.toolResults.has('toolu_step_3')) return textReply('LOOP-DONE');
        // A wake notification that comes as a turn of its own is left alone here (this test is about tool calls).
        if (isWake(r)) return textReply('NOTED');
        if (r.tail.includes('PROMPT-LOOP')) return bash('toolu_step_1', 'echo step-1');
        if (r.tail.includes('PROMPT-NEXT')) return textReply('NEXT-DONE');
        return textReply('NOTHING');
      };
      const from = model.requests.length;
      session.type('PROMPT-LOOP: run the steps.');
      await until(`step 1's result\n${session.report()}`, () => resultRequest(session, 'toolu_step_1', from));
      const first = await answer(project, 1);
      const nonBlocking = await answer(project, 3, 'Both');
      open('step-2');
      await until(`the subagent's first request\n${session.report()}`, () => model.subagents(session, from)[0]);
      const second = await answer(project, 2);
      open('sub');
      await session.turnEnded('LOOP-DONE');

      // Step 1's result came before the answer; step 2's (the next tool call) brings it, once.
      expect(count(resultRequest(session, 'toolu_step_1', from)?.body ?? { messages: [] }, first)).toBe(0);
      const afterStep2 = resultRequest(session, 'toolu_step_2', from);
      expect(count(afterStep2?.body ?? { messages: [] }, first), afterStep2?.tail).toBe(1);
      expect(afterStep2?.tail).toContain(`step-2\nPostToolUse:Bash hook additional context: ## ask-later: outcomes`);
      // Mid-turn only blocking answers come: the non-blocking one waits for the prompt.
      expect(count(afterStep2?.body ?? { messages: [] }, nonBlocking)).toBe(0);
      // The subagent's tool call came after #2 was answered, but took nothing: the main agent's next tool call (the
      // Agent call itself) brings it.
      const subagent = model.subagents(session, from);
      expect(subagent.length).toBeGreaterThanOrEqual(2);
      for (const r of subagent) {
        expect(count(r.body, second)).toBe(0);
        expect(count(r.body, first)).toBe(0);
      }
      const afterAgent = resultRequest(session, 'toolu_agent', from);
      expect(count(afterAgent?.body ?? { messages: [] }, second), afterAgent?.tail).toBe(1);
      expect(afterAgent?.tail).toContain('PostToolUse:Agent hook additional context: ## ask-later: outcomes');
      expect(await statusOf(project, 1)).toBe('delivered');
      expect(await statusOf(project, 2)).toBe('delivered');
      expect(await statusOf(project, 3)).toBe('answered');

      // The next typed prompt brings the non-blocking answer.
      session.type('PROMPT-NEXT: and now?');
      await session.turnEnded('NEXT-DONE');
      expect(await statusOf(project, 3)).toBe('delivered');
      expect(await session.end()).toBe(0);
      for (const notes of [first, second, nonBlocking]) {
        expect(count(model.lastMain(session).body, notes), where(session, notes)).toBe(1);
      }
      // The waiter armed before the turn lost the session when the turn began: no wake notification came for the
      // answers the tool calls delivered.
      const stale = model.main(session, from).filter(isWake);
      expect(
        stale.map((r) => wokenFor(r)),
        'wake notifications during or after the tool loop',
      ).toEqual([]);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN 20 questions, half blocking WHEN they are answered in bursts while the session works, idles and is typed to THEN the prompt, tool-call and wake paths race and each answer reaches the model exactly once, none lost',
    async () => {
      const project = e2e.gitProject();
      const total = 20;
      for (let id = 1; id <= total; id++) {
        await store.park(project, question({ question: `Race question ${id}?`, isBlocking: id % 2 === 1 }));
      }
      const notesOf = new Map<number, string>();
      const answering: Promise<void>[] = [];
      let next = 1;
      /** The person answers the next `n` questions, all at once, without waiting; resolves with their ids. */
      const burst = (n: number): Promise<number[]> => {
        const ids = Array.from({ length: Math.min(n, total + 1 - next) }, () => next++);
        const done = Promise.all(
          ids.map(async (id) => {
            notesOf.set(id, await answer(project, id, id % 3 === 0 ? 'CSV' : 'Parquet'));
          }),
        ).then(() => ids);
        answering.push(done.then(() => undefined));
        return done;
      };
      const session = openSession(project);
      /** Loops: `LOOP-<k>-<steps>` runs <steps> Bash calls, answering one question at each while `answerInLoop`. */
      let answerInLoop = false;
      model.brain = (r) => {
        if (r.kind !== 'main') return textReply('sub done');
        const step = [...r.toolResults.keys()].map((id) => /^toolu_loop_(\d+)_(\d+)_(\d+)$/.exec(id)).find(Boolean);
        if (step) {
          const [, k, j, steps] = step.map(Number) as [number, number, number, number];
          if (answerInLoop) void burst(1);
          if (j < steps) {
            return {
              content: [
                {
                  type: 'tool_use',
                  id: `toolu_loop_${k}_${j + 1}_${steps}`,
                  name: 'Bash',
                  input: { command: `sleep 0.1; echo loop-${k}-${j + 1}`, description: 'step' },
                },
              ],
            };
          }
          return textReply(`LOOP-DONE-${k}`);
        }
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_collect_'));
        if (collected !== undefined) return textReply(`WOKEN ${collected}`);
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_collect_${r.index}`);
        const loop = /LOOP-(\d+)-(\d+)/.exec(r.tail);
        if (loop) {
          return {
            content: [
              {
                type: 'tool_use',
                id: `toolu_loop_${loop[1]}_1_${loop[2]}`,
                name: 'Bash',
                input: { command: `echo loop-${loop[1]}-1`, description: 'step' },
              },
            ],
          };
        }
        const typed = /PROMPT-(\w+)/.exec(r.tail);
        return textReply(typed ? `DONE-${typed[1]}` : 'NOTHING');
      };

      // The model loads collect_answers first thing, as it would after its first wake.
      model.brain = (
        (inner) => (r: ModelRequest) =>
          r.kind === 'main' && r.tail.includes('PROMPT-LOAD') && !r.toolResults.has('toolu_collect_load')
            ? model.use(r, COLLECT, {}, 'toolu_collect_load')
            : inner(r)
      )(model.brain);
      session.type('PROMPT-LOAD: get ready.');
      await session.turnEnded('WOKEN toolu_collect_load');
      await until(`the waiter to hold the session\n${session.report()}`, () => waiterArmed(session));

      // 1. Idle: a burst wakes the session, and the woken model collects the answers.
      let mark = session.events.length;
      await burst(4);
      await session.turnEnded(/^WOKEN /, mark);
      // 2. Working: one answer at each step of an 8-step tool loop.
      answerInLoop = true;
      session.type('LOOP-1-8: work.');
      await session.turnEnded('LOOP-DONE-1');
      answerInLoop = false;
      // 3. A burst and a typed prompt at once.
      const racing = burst(4);
      session.type('LOOP-2-3: more work.');
      await racing;
      await session.turnEnded('LOOP-DONE-2');
      // 4. Two while a loop runs.
      session.type('LOOP-3-4: last work.');
      await until('the third loop to start', () =>
        model.main(session).find((r) => r.toolResults.has('toolu_loop_3_1_4')),
      );
      await burst(2);
      await session.turnEnded('LOOP-DONE-3');
      // 5. Idle again: the rest (a blocking one among them) wakes it.
      await until(`the waiter to hold the session\n${session.report()}`, () => waiterArmed(session));
      mark = session.events.length;
      if ((await burst(total)).some((id) => id % 2 === 1)) await session.turnEnded(/^WOKEN /, mark);
      await Promise.all(answering);
      expect(notesOf.size).toBe(total);

      // Whatever the paths left (non-blocking answers given mid-turn wait for a prompt) comes with typed prompts.
      for (let k = 1; k <= 3; k++) {
        const statuses = await Promise.all([...notesOf.keys()].map((id) => statusOf(project, id)));
        if (statuses.every((status) => status === 'delivered')) break;
        session.type(`PROMPT-FLUSH${k}: anything else?`);
        await session.turnEnded(`DONE-FLUSH${k}`);
      }
      for (const id of notesOf.keys()) {
        await until(`#${id} delivered`, async () => (await statusOf(project, id)) === 'delivered');
      }
      expect(await session.end()).toBe(0);

      const sent = model.lastMain(session).body;
      const counts = [...notesOf].map(([id, notes]) => [id, count(sent, notes)]);
      expect(counts, [...notesOf.values()].map((notes) => where(session, notes)).join('\n')).toEqual(
        [...notesOf.keys()].map((id) => [id, 1]),
      );
      for (const r of model.subagents(session)) {
        for (const notes of notesOf.values()) expect(count(r.body, notes)).toBe(0);
      }
      const paths = { prompt: 0, toolCall: 0, collect: 0 };
      for (const message of sent.messages) {
        const text = messageTexts({ messages: [message] }).join('\n');
        const n = [...notesOf.values()].filter((notes) => text.includes(notes)).length;
        if (text.includes('UserPromptSubmit hook additional context')) paths.prompt += n;
        else if (/PostToolUse:\w+ hook additional context/.test(text)) paths.toolCall += n;
        else paths.collect += n;
      }
      console.log(
        `race: ${total} answers delivered once each; by path: ${JSON.stringify(paths)}; wake notifications: ${model.main(session).filter(isWake).length}`,
      );
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the MCP server killed or hung mid-session WHEN the person types or an answer wakes the session THEN every prompt goes through and no answer is lost: Claude Code starts the server again when a hook needs it',
    async () => {
      const project = e2e.gitProject();
      await store.park(project, question({ question: 'Keep the CSV writer?', isBlocking: false }));
      await store.park(project, question({ question: 'Which bucket?', isBlocking: true }));
      await store.park(project, question({ question: 'Compress the CSV?', isBlocking: false }));
      const session = openSession(project);
      model.brain = (r) => {
        if (r.kind !== 'main') return textReply('sub done');
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_collect'));
        if (collected !== undefined) return textReply('WOKEN');
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_collect_${r.index}`);
        const typed = /PROMPT-(\d+)/.exec(r.tail);
        return textReply(typed ? `DONE-${typed[1]}` : 'NOTHING');
      };
      const servers = () =>
        [...descendants(session.child.pid ?? 0).keys()].filter((pid) => /ask-later\.mjs mcp$/.test(commandLine(pid)));
      const theServer = async (): Promise<number> => {
        const [pid, ...others] = await until(`the MCP server\n${session.report()}`, () => {
          const found = servers();
          return found.length > 0 ? found : undefined;
        });
        expect(others).toEqual([]);
        return pid as number;
      };
      let typed = 1;
      /** The person types; resolves with the turn's first request. */
      const type = async (): Promise<ModelRequest> => {
        const k = typed++;
        const from = model.requests.length;
        session.type(`PROMPT-${k}: go on.`);
        await session.turnEnded(`DONE-${k}`);
        const [first] = model.main(session, from);
        expect(first?.tail).toContain(`PROMPT-${k}`);
        return first as ModelRequest;
      };
      await type();

      // Killed: the next prompt goes through. Claude Code starts the server again for the prompt's hook, which then
      // brings the answer; if the prompt raced the server's death, that hook fails (no context) and the prompt after
      // it brings the answer.
      const killed = await theServer();
      process.kill(killed, 'SIGKILL');
      await until('the killed server gone', () => !servers().includes(killed));
      const first = await answer(project, 1);
      let carried = count((await type()).body, first);
      if (carried === 0) {
        expect(await statusOf(project, 1)).toBe('answered');
        carried = count((await type()).body, first);
        console.log(
          'MCP server killed: the first prompt raced the death (no context); the next one brought the answer',
        );
      } else {
        console.log('MCP server killed: Claude Code started it again for the next prompt, which brought the answer');
      }
      expect(carried).toBe(1);
      expect(await statusOf(project, 1)).toBe('delivered');
      const restarted = await theServer();
      expect(restarted).not.toBe(killed);

      // Killed again, then a blocking answer: the waiter (a process of its own) wakes the session, and the woken turn's
      // first tool call starts the server again and brings the answer.
      process.kill(restarted, 'SIGKILL');
      await until('the killed server gone', () => !servers().includes(restarted));
      await until(`the waiter to hold the session\n${session.report()}`, () => waiterArmed(session));
      const from = model.requests.length;
      const second = await answer(project, 2);
      await until(`a woken request\n${session.report()}`, () => model.main(session, from).find(isWake));
      await session.turnEnded('WOKEN');
      expect(count(model.lastMain(session).body, second), where(session, second)).toBe(1);
      await until('#2 delivered', async () => (await statusOf(project, 2)) === 'delivered');

      // Hung: the prompt's hook times out (10 s) and the prompt goes on without context; the answer stays answered.
      const hung = await theServer();
      expect(hung).not.toBe(restarted);
      process.kill(hung, 'SIGSTOP');
      let third: string;
      try {
        third = await answer(project, 3);
        expect(count((await type()).body, third)).toBe(0);
        expect(await statusOf(project, 3)).toBe('answered');
      } finally {
        process.kill(hung, 'SIGCONT');
      }
      // Resumed, the server still runs the call Claude Code gave up on: it may claim the answer and never confirm
      // it, and then the answer waits until that claim lapses. A prompt typed after that brings it.
      const key = new ProjectKeys(prefix, project).question(3);
      let prompts = 0;
      for (;;) {
        prompts++;
        await until('no live claim on #3', async () => {
          const [claimUntil] = (await redis.sendCommand(['HMGET', key, 'claimUntil'])) as (string | null)[];
          return claimUntil === null || claimUntil === undefined || Number(claimUntil) < Date.now();
        });
        const carried = count((await type()).body, third);
        if (carried === 1 || prompts === 3) {
          expect(carried).toBe(1);
          break;
        }
      }
      console.log(`MCP server hung 10 s: the answer came with prompt ${prompts} after it resumed`);
      expect(await statusOf(project, 3)).toBe('delivered');
      expect(await session.end()).toBe(0);
      for (const notes of [first, second, third]) {
        expect(count(model.lastMain(session).body, notes), where(session, notes)).toBe(1);
      }
    },
    4 * CLAUDE_TIMEOUT_MS,
  );
});
