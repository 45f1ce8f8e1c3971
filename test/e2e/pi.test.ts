/**
 * The real pi binary (0.73.1, pinned) in RPC mode against a fake chat-completions API, with ask-later wired in by
 * `ask-later setup pi` (its extension in pi's extensions folder, as the README says) on the embedded store, next to a
 * small extension of the test's own shaped like pi-question's `question` tool. The person's side is the store,
 * answered as a chat surface would. What the model was sent is read from the fake's recorded requests:
 *
 * - the model parks with the extension's `ask_later`; its `question` call is parked too (the tool result names the
 *   id, the question tool itself never runs);
 * - an answer given meanwhile reaches the next prompt once;
 * - an idle session is woken with no prompt sent, and the model gets the blocking answer once;
 * - `setup pi --remove` gives pi's folder back as it was.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAKE_TEXT } from '../../src/agents/bridge/run.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/port.js';
import {
  type ChatReply,
  type ChatRequestBody,
  type FakeChatCompletions,
  requestText,
  startFakeChatCompletions,
} from '../support/fake-chat-completions.js';
import { person } from '../support/store.js';
import { piBinary } from './pinned-binary.js';
import { repoRoot } from './support.js';

const CLI = join(repoRoot, 'dist', 'cli.js');
const TEST_TIMEOUT_MS = 300_000;
const NOTE_HEADER = 'ask-later: outcomes of the questions you parked';
const TERMINAL = 'THE TERMINAL DIALOG RAN';

/** A tool shaped like pi-question's `question`: were it ever run, the model would read TERMINAL. */
const QUESTION_EXTENSION = `export default function (pi: any) {
  pi.registerTool({
    name: 'question',
    label: 'Question',
    description: 'Ask the user questions.',
    parameters: { type: 'object', properties: { questions: { type: 'array', items: { type: 'object' } } }, required: ['questions'] },
    async execute() {
      return { content: [{ type: 'text', text: ${JSON.stringify(TERMINAL)} }], details: {} };
    },
  });
}
`;

let pi: string;
let api: FakeChatCompletions;
let script: (body: ChatRequestBody, index: number) => ChatReply = () => ({ text: 'ok' });
const dirs: string[] = [];
const children: ChildProcess[] = [];
let store: Store | undefined;

beforeAll(async () => {
  pi = await piBinary();
  api = await startFakeChatCompletions((body, index) => script(body, index));
}, 20 * 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await store?.close().catch(() => undefined);
  await api?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `al-pi-${name}-`)));
  dirs.push(dir);
  return dir;
}

/** Every file under `dir` with its text: what a folder holds, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length)] = readFileSync(path, 'utf8');
    }
  }
  return files;
}

const ASK = {
  context: 'The export runs nightly.',
  question: 'Which format should the export use?',
  impact: 'Decides the file the clients download.',
  isBlocking: false,
  options: ['CSV', 'Parquet'],
};

const PI_QUESTION = {
  questions: [
    {
      questionTopic: 'Retention',
      prompt: 'How long should exports be kept?',
      type: 'single',
      options: [
        { value: '7d', label: 'A week', recommended: true },
        { value: '30d', label: 'A month', description: 'More disk' },
      ],
    },
  ],
};

/** The last tool result's text a request carries. */
function lastToolResult(body: ChatRequestBody): string {
  const tool = [...body.messages].reverse().find((message) => message.role === 'tool');
  return requestText({ messages: tool === undefined ? [] : [tool] });
}

describe('pi with ask-later set up', () => {
  it(
    'GIVEN the model parks and asks with question THEN both are parked; an answer reaches the next prompt once; an idle session is woken; --remove gives pi’s folder back',
    async () => {
      const home = tempDir('home');
      const agentDir = join(home, '.pi', 'agent');
      const project = tempDir('project');
      mkdirSync(join(agentDir, 'extensions'), { recursive: true });
      writeFileSync(
        join(agentDir, 'models.json'),
        JSON.stringify({
          providers: {
            fake: {
              baseUrl: api.url,
              api: 'openai-completions',
              apiKey: 'x',
              compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
              models: [{ id: 'fake-model' }],
            },
          },
        }),
      );
      writeFileSync(join(agentDir, 'extensions', 'question.ts'), QUESTION_EXTENSION);
      const before = snapshot(agentDir);
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        PI_CODING_AGENT_DIR: agentDir,
        ASK_LATER_DB: join(home, 'inbox.db'),
        ASK_LATER_PROJECT: 'pi-e2e',
      };
      const setup = execFileSync(process.execPath, [CLI, 'setup', 'pi'], { env, cwd: project, encoding: 'utf8' });
      expect(setup).toContain(join(agentDir, 'extensions', 'ask-later.ts'));
      store = await openStore({ kind: 'sqlite', path: env.ASK_LATER_DB });

      script = (_body, index) => {
        if (index === 0) return { toolCalls: [{ name: 'ask_later', arguments: ASK }] };
        if (index === 1) return { toolCalls: [{ name: 'question', arguments: PI_QUESTION }] };
        return { text: 'Noted.' };
      };
      const child = spawn(
        process.execPath,
        [pi, '--mode', 'rpc', '--provider', 'fake', '--model', 'fake-model', '--no-session', '--offline'],
        { env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      children.push(child);
      const events: { type?: string }[] = [];
      child.stderr.resume();
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          try {
            events.push(JSON.parse(line) as { type?: string });
          } catch {
            // pi's own log lines
          }
        }
      });
      const ends = () => events.filter((event) => event.type === 'agent_end').length;
      const prompt = (id: string, message: string) =>
        child.stdin.write(`${JSON.stringify({ id, type: 'prompt', message })}\n`);

      prompt('p1', 'Export the data.');
      await expect.poll(ends, { timeout: 120_000 }).toBe(1);
      const turns = api.turns();
      expect(turns).toHaveLength(3);
      const offered = (turns[0]?.tools ?? []).map((tool) => tool.function.name);
      expect(offered).toEqual(expect.arrayContaining(['ask_later', 'get_answer', 'collect_answers', 'question']));
      expect(lastToolResult(turns[1] as ChatRequestBody)).toMatch(/^Parked as #1\b/);
      const parkedQuestion = lastToolResult(turns[2] as ChatRequestBody);
      expect(parkedQuestion).toContain('parked this question for the person as #2');
      expect(requestText(turns[2] as ChatRequestBody)).not.toContain(TERMINAL);
      expect(await store.get('pi-e2e', 1)).toMatchObject({ status: 'pending', isBlocking: false });
      expect(await store.get('pi-e2e', 2)).toMatchObject({
        status: 'pending',
        isBlocking: true,
        question: 'How long should exports be kept?',
        recommended: ['A week'],
      });

      await store.answer('pi-e2e', 1, { choices: ['Parquet'], other: false }, person());
      prompt('p2', 'What next?');
      await expect.poll(ends, { timeout: 60_000 }).toBe(2);
      const withAnswer = requestText(api.turns()[3] as ChatRequestBody);
      expect(withAnswer.split(NOTE_HEADER)).toHaveLength(2);
      expect(withAnswer).toContain('Parquet');
      expect((await store.get('pi-e2e', 1))?.status).toBe('delivered');
      prompt('p3', 'And then?');
      await expect.poll(ends, { timeout: 60_000 }).toBe(3);
      expect(requestText(api.turns()[4] as ChatRequestBody).split(NOTE_HEADER)).toHaveLength(2);

      // Idle now: the blocking answer wakes the session with no prompt sent.
      await store.answer('pi-e2e', 2, { choices: ['A month'], other: false }, person());
      await expect.poll(() => api.turns().length, { timeout: 60_000 }).toBe(6);
      const woken = requestText(api.turns()[5] as ChatRequestBody);
      expect(woken).toContain(WAKE_TEXT);
      expect(woken).toContain('A month');
      expect(woken.split(NOTE_HEADER)).toHaveLength(3);
      await expect.poll(async () => (await store?.get('pi-e2e', 2))?.status).toBe('delivered');
      await expect.poll(ends, { timeout: 60_000 }).toBe(4);

      child.stdin.end();
      child.kill('SIGTERM');
      const removed = execFileSync(process.execPath, [CLI, 'setup', 'pi', '--remove'], {
        env,
        cwd: project,
        encoding: 'utf8',
      });
      expect(removed).toContain('delete');
      expect(snapshot(agentDir)).toEqual(before);
    },
    TEST_TIMEOUT_MS,
  );
});
