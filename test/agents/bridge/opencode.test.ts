import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBridge } from '../../../src/agents/bridge/run.js';
import { runWaiter } from '../../../src/agents/wake/run.js';
import { loadAgentConfig } from '../../../src/config/agent.js';
import { parseAskInput } from '../../../src/core/ask-input.js';
import { openStore } from '../../../src/store/open.js';
import type { Store } from '../../../src/store/port.js';

const dir = mkdtempSync(join(tmpdir(), 'al-oc-bridge-'));
const env = { ASK_LATER_DB: join(dir, 'inbox.db'), ASK_LATER_PROJECT: 'oc-bridge', HOME: dir };
let store: Store;

beforeAll(async () => {
  const config = loadAgentConfig(env, dir);
  if (config.store.kind !== 'sqlite') throw new Error('expected the embedded store');
  store = await openStore(config.store);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The bridge in this process: requests in, every line it writes out. */
function startBridge() {
  const stdin = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  const stdout = {
    write: (text: string) =>
      lines.push(
        ...text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ),
  };
  const done = runBridge({ stdin, stdout, stderr: { write: () => true } }, env, dir, runWaiter);
  return {
    send: (message: Record<string, unknown>) => stdin.write(`${JSON.stringify(message)}\n`),
    reply: async (id: number) => {
      await expect.poll(() => lines.some((line) => line.id === id)).toBe(true);
      return lines.find((line) => line.id === id) as { text: string | null; claim?: string };
    },
    lines,
    end: async () => {
      stdin.end();
      return done;
    },
  };
}

async function parkAnswered(blocking: boolean): Promise<number> {
  const parsed = parseAskInput({
    context: 'c',
    question: 'Which?',
    impact: 'i',
    isBlocking: blocking,
    options: ['A', 'B'],
  });
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  const { waitSeconds: _none, ...spec } = parsed.value;
  const question = await store.park('oc-bridge', spec);
  await store.answer(
    'oc-bridge',
    question.id,
    { choices: ['A'], other: false },
    { platform: 'slack', userId: 'U', displayName: 'Ada' },
  );
  return question.id;
}

describe('the OpenCode bridge', () => {
  it('GIVEN an answer waiting THEN a message gets it once it is confirmed, and the next gets nothing', async () => {
    const id = await parkAnswered(false);
    const bridge = startBridge();
    bridge.send({ id: 1, op: 'collect', for: 'prompt', sessionID: 'ses_a', messageID: 'msg_1' });
    const first = await bridge.reply(1);
    expect(first.text).toContain(`#${id}`);
    bridge.send({ op: 'confirm', claim: first.claim });
    await expect.poll(async () => (await store.get('oc-bridge', id))?.status).toBe('delivered');
    bridge.send({ id: 2, op: 'collect', for: 'prompt', sessionID: 'ses_a', messageID: 'msg_2' });
    expect((await bridge.reply(2)).text).toBeNull();
    expect(await bridge.end()).toBe(0);
  });

  it('GIVEN a non-blocking answer THEN a tool call leaves it for the next message', async () => {
    const id = await parkAnswered(false);
    const bridge = startBridge();
    bridge.send({ id: 1, op: 'collect', for: 'tool', sessionID: 'ses_b', tool: 'read' });
    expect((await bridge.reply(1)).text).toBeNull();
    bridge.send({ id: 2, op: 'collect', for: 'prompt', sessionID: 'ses_b', messageID: 'msg_1' });
    const reply = await bridge.reply(2);
    expect(reply.text).toContain(`#${id}`);
    bridge.send({ op: 'confirm', claim: reply.claim });
    await expect.poll(async () => (await store.get('oc-bridge', id))?.deliveredVia).toBe('prompt');
    await bridge.end();
  });

  it('GIVEN a blocking answer claimed by a tool call that never confirms THEN no other call takes it meanwhile and it is not marked delivered', async () => {
    const id = await parkAnswered(true);
    const bridge = startBridge();
    bridge.send({ id: 1, op: 'collect', for: 'tool', sessionID: 'ses_c', tool: 'read' });
    expect((await bridge.reply(1)).text).toContain(`#${id}`);
    bridge.send({ id: 2, op: 'collect', for: 'tool', sessionID: 'ses_c', tool: 'read' });
    expect((await bridge.reply(2)).text).toBeNull();
    expect((await store.get('oc-bridge', id))?.status).toBe('answered');
    await bridge.end();
  });

  it('GIVEN a wrong setting THEN every call is answered with nothing and one line names the variable', async () => {
    const stdin = new PassThrough();
    const out: string[] = [];
    const errors: string[] = [];
    const done = runBridge(
      {
        stdin,
        stdout: { write: (text: string) => out.push(text) },
        stderr: { write: (text: string) => errors.push(text) },
      },
      { ...env, ASK_LATER_WAKE: 'sometimes' },
      dir,
      runWaiter,
    );
    stdin.end(`${JSON.stringify({ id: 7, op: 'collect', for: 'prompt', sessionID: 'ses_d' })}\n`);
    expect(await done).toBe(0);
    expect(out).toEqual([`${JSON.stringify({ id: 7, text: null })}\n`]);
    expect(errors).toEqual([expect.stringMatching(/^ask-later agent-bridge: ASK_LATER_WAKE must be .*\n$/)]);
  });

  it('GIVEN lines that are not requests THEN they are ignored and the bridge keeps answering', async () => {
    const bridge = startBridge();
    bridge.send({ op: 'nonsense' });
    bridge.send({ id: 1, op: 'collect', for: 'prompt', sessionID: 'bad id with spaces' });
    expect(await bridge.reply(1)).toMatchObject({ id: 1 });
    await bridge.end();
  });
});
