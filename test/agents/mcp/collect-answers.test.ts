import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTHING_WAITING } from '../../../src/agents/mcp/collect-answers.js';
import { createMcpServer } from '../../../src/agents/mcp/index.js';
import type { DeliveryReach } from '../../../src/config/agent.js';
import { DELIVERY_NOTE_BUDGET } from '../../../src/core/delivery-note.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { openTestStore, person, spec, uniqueProject } from '../../support/store.js';

let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

function clientFor(project: string, midturn?: DeliveryReach) {
  return connectClient({ project, store: async () => store, version: 'test', ...(midturn ? { midturn } : {}) });
}

async function collect(client: Client, args?: Record<string, unknown>) {
  return client.callTool({ name: 'collect_answers', arguments: args ?? {} });
}

/** Park and answer questions; `blocking[i]` says whether the i-th is blocking. */
async function answered(project: string, blocking: readonly boolean[], notes = 'Use the queue.') {
  const ids: number[] = [];
  for (const isBlocking of blocking) {
    const q = await store.park(project, spec({ isBlocking, question: `Which database for part ${ids.length + 1}?` }));
    await store.answer(project, q.id, { choices: ['SQLite'], other: false, notes }, person('U1'));
    ids.push(q.id);
  }
  return ids;
}

async function statuses(project: string) {
  return (await store.list(project)).map((q) => [q.id, q.status]).sort((a, b) => Number(a[0]) - Number(b[0]));
}

function hookJson(text: string) {
  return JSON.parse(text) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
}

const typedPrompt = (prompt = 'go on', source = '', session = 's1', promptId = 'p1') => ({
  for: 'UserPromptSubmit',
  prompt,
  source,
  session_id: session,
  prompt_id: promptId,
});
const toolCall = (agentId = '', toolName = 'Bash') => ({
  for: 'PostToolUse',
  agent_id: agentId,
  tool_name: toolName,
  session_id: 's1',
});

describe('collect_answers called by the model', () => {
  it('GIVEN nothing waiting THEN it says so (and that what came before already reached it), and is not an error', async () => {
    const client = await clientFor(uniqueProject());
    const result = await collect(client);
    expect(isError(result)).toBe(false);
    expect(textOf(result)).toBe(NOTHING_WAITING);
    expect(NOTHING_WAITING).toMatch(/already reached you/);
  });

  it('GIVEN the client gives up while the claim is being made (a hook time-out) THEN the claim is given back at once', async () => {
    const project = uniqueProject();
    await answered(project, [true]);
    // The store is slow to claim (a server that hung and resumes): the client cancels meanwhile.
    let claiming: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      claiming = resolve;
    });
    let entered = false;
    const slow = new Proxy(store, {
      get(target, property) {
        if (property === 'claimUndelivered') {
          return async (...args: Parameters<RedisStore['claimUndelivered']>) => {
            entered = true;
            await gate;
            return target.claimUndelivered(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const client = await connectClient({ project, store: async () => slow, version: 'test' });
    const stop = new AbortController();
    const call = client.callTool({ name: 'collect_answers', arguments: typedPrompt() }, undefined, {
      signal: stop.signal,
    });
    await vi.waitFor(() => expect(entered).toBe(true));
    stop.abort();
    await expect(call).rejects.toThrow();
    claiming?.();
    // Claimed after the cancel, then given back: free for the next call, not left to its 10 s lease.
    await vi.waitFor(async () => expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]));
    expect((await store.get(project, 1))?.status).toBe('answered');
  });

  it('GIVEN two answers THEN the note carries both as plain text, and once the result was sent they are delivered and never come again', async () => {
    const project = uniqueProject();
    await answered(project, [true, false]);
    const client = await clientFor(project);
    const text = textOf(await collect(client));
    expect(text).toMatch(/^## ask-later: outcomes of the questions you parked/);
    expect(text).toContain('Which database for part 1?');
    expect(text).toContain('Which database for part 2?');
    expect(text).toContain('> Use the queue.');
    await vi.waitFor(async () =>
      expect(await statuses(project)).toEqual([
        [1, 'delivered'],
        [2, 'delivered'],
      ]),
    );
    expect(textOf(await collect(client))).toBe(NOTHING_WAITING);
  });

  it('GIVEN more than one note holds THEN it stays under the budget, says how many more wait and to call again, and the next call brings them', async () => {
    const project = uniqueProject();
    const long = 'n'.repeat(2500);
    await answered(project, [true, true, true, true, true], long);
    const client = await clientFor(project);
    const first = textOf(await collect(client));
    expect(first.length).toBeLessThanOrEqual(DELIVERY_NOTE_BUDGET);
    expect(first).toMatch(/(\d+) more answers? wait; (it comes|they come) when you call collect_answers again\./);
    await vi.waitFor(async () =>
      expect((await store.list(project, { status: ['delivered'] })).length).toBeGreaterThan(0),
    );
    const delivered = (await store.list(project, { status: ['delivered'] })).length;
    expect(delivered).toBeLessThan(5);
    const second = textOf(await collect(client));
    expect(second).toContain(`#${delivered + 1} `);
  });

  it('GIVEN 20 calls at once over 10 answers THEN each answer is in exactly one result', async () => {
    const project = uniqueProject();
    await answered(
      project,
      Array.from({ length: 10 }, (_, i) => i % 2 === 0),
    );
    const clients = await Promise.all(Array.from({ length: 4 }, () => clientFor(project)));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => collect(clients[i % 4] as Client, i % 3 === 0 ? typedPrompt() : undefined)),
    );
    const texts = results.map((r) => {
      const text = textOf(r);
      return text.startsWith('{') ? (hookJson(text).hookSpecificOutput?.additionalContext ?? '') : text;
    });
    for (let id = 1; id <= 10; id++) {
      const carrying = texts.filter((t) => t.includes(`Which database for part ${id}?`));
      expect(carrying, `#${id}`).toHaveLength(1);
    }
    await vi.waitFor(async () => expect((await store.list(project, { status: ['delivered'] })).length).toBe(10));
  });

  it('GIVEN the result cannot be written to the client THEN the claim is given back at once for the next call', async () => {
    const project = uniqueProject();
    await answered(project, [true]);
    const server = createMcpServer({ project, store: async () => store, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = serverSide.send.bind(serverSide);
    let dropped = 0;
    serverSide.send = async (message, options) => {
      if ('result' in message && JSON.stringify(message.result).includes('Which database')) {
        dropped++;
        throw new Error('the client went away');
      }
      return send(message, options);
    };
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const lost = collect(client).catch(() => undefined); // its response never arrives
    await vi.waitFor(() => expect(dropped).toBe(1));
    // Released, not left to its lease: another session's call gets it right away, and it is not delivered twice.
    const other = await clientFor(project);
    await vi.waitFor(async () => expect(textOf(await collect(other))).toContain('Which database for part 1?'));
    await client.close();
    await lost;
  });
});

describe('collect_answers called by the UserPromptSubmit hook', () => {
  it('GIVEN a typed prompt THEN the text is exactly the hook JSON for UserPromptSubmit, carrying every outcome', async () => {
    const project = uniqueProject();
    await answered(project, [false, true]);
    const client = await clientFor(project);
    const output = hookJson(textOf(await collect(client, typedPrompt('continue', 'user'))));
    expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
    expect(output.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(output.hookSpecificOutput.additionalContext).toContain('Which database for part 1?');
    expect(output.hookSpecificOutput.additionalContext).toContain('Which database for part 2?');
    await vi.waitFor(async () => expect((await store.list(project, { status: ['delivered'] })).length).toBe(2));
  });

  it('GIVEN nothing waiting THEN the text is {} (valid hook JSON that adds nothing to the context)', async () => {
    const client = await clientFor(uniqueProject());
    const result = await collect(client, typedPrompt());
    expect(isError(result)).toBe(false);
    expect(textOf(result)).toBe('{}');
  });

  it.each([
    ['a background-task notification', typedPrompt('<task-notification>\n<summary>ask-later: ready</summary>')],
    ['a system prompt', typedPrompt('wake up', 'system')],
    ['a scheduled wake-up', typedPrompt('tick', 'schedule_wakeup')],
  ])('GIVEN %s THEN the text is {} and the answers keep waiting', async (_what, args) => {
    const project = uniqueProject();
    await answered(project, [true]);
    const client = await clientFor(project);
    expect(textOf(await collect(client, args))).toBe('{}');
    expect(await statuses(project)).toEqual([[1, 'answered']]);
    expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]); // not even leased
  });

  it('GIVEN source "sdk" or absent THEN the prompt counts as typed', async () => {
    const project = uniqueProject();
    await answered(project, [false, false]);
    const client = await clientFor(project);
    expect(textOf(await collect(client, typedPrompt('a', 'sdk')))).toContain('UserPromptSubmit');
    await answered(project, [false]);
    expect(textOf(await collect(client, { for: 'UserPromptSubmit', prompt: 'b' }))).toContain('UserPromptSubmit');
  });
});

describe('collect_answers marks the start of a turn', () => {
  it('GIVEN a session’s waiter holds its lease WHEN a prompt (typed or not) starts a turn THEN the turn holds it, under its prompt id', async () => {
    const client = await clientFor(uniqueProject());
    const session = `turn-${Date.now()}`;
    expect(await store.acquireLease(`waiter:${session}`, 'waiter-1', 60_000)).toBe(true);
    await collect(client, typedPrompt('<task-notification>woken</task-notification>', '', session, 'prompt-7'));
    expect(await store.acquireLease(`waiter:${session}`, 'waiter-1', 60_000)).toBe(false);
    await store.releaseLease(`waiter:${session}`, 'turn:prompt-7'); // what the turn's Stop waiter does
    expect(await store.acquireLease(`waiter:${session}`, 'waiter-2', 60_000)).toBe(true);
  });
});

describe('collect_answers called by the PostToolUse hook', () => {
  it('GIVEN blocking and non-blocking answers THEN a main-agent tool call carries only the blocking ones as PostToolUse context', async () => {
    const project = uniqueProject();
    await answered(project, [false, true, false, true]);
    const client = await clientFor(project);
    const output = hookJson(textOf(await collect(client, toolCall())));
    expect(output.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    const context = output.hookSpecificOutput.additionalContext;
    expect(context).toContain('Which database for part 2?');
    expect(context).toContain('Which database for part 4?');
    expect(context).not.toContain('Which database for part 1?');
    expect(context).not.toContain('more answer'); // the non-blocking ones are not announced mid-turn
    await vi.waitFor(async () =>
      expect(await statuses(project)).toEqual([
        [1, 'answered'],
        [2, 'delivered'],
        [3, 'answered'],
        [4, 'delivered'],
      ]),
    );
  });

  it('GIVEN a subagent’s tool call (agent_id set) THEN the text is {} and nothing is taken', async () => {
    const project = uniqueProject();
    await answered(project, [true]);
    const client = await clientFor(project);
    expect(textOf(await collect(client, toolCall('a7dfccea9e0c33566')))).toBe('{}');
    expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]);
  });

  it('GIVEN ASK_LATER_MIDTURN=all THEN every outcome; off THEN none', async () => {
    const project = uniqueProject();
    await answered(project, [false]);
    expect(textOf(await collect(await clientFor(project, 'off'), toolCall()))).toBe('{}');
    const all = hookJson(textOf(await collect(await clientFor(project, 'all'), toolCall())));
    expect(all.hookSpecificOutput.additionalContext).toContain('Which database for part 1?');
  });

  it('GIVEN ToolSearch (the model may be loading collect_answers itself) THEN that call carries nothing', async () => {
    const project = uniqueProject();
    await answered(project, [true]);
    const client = await clientFor(project);
    expect(textOf(await collect(client, toolCall('', 'ToolSearch')))).toBe('{}');
    expect(textOf(await collect(client))).toContain('Which database for part 1?');
  });

  it('GIVEN only non-blocking answers THEN a tool call adds nothing and leases nothing', async () => {
    const project = uniqueProject();
    await answered(project, [false]);
    const client = await clientFor(project);
    expect(textOf(await collect(client, toolCall()))).toBe('{}');
    expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]);
  });
});

describe('collect_answers refuses bad input', () => {
  it.each([
    [
      { for: 'Stop', prompt: 'x' },
      'Expected `for` to be UserPromptSubmit or PostToolUse (set by ask-later\'s hooks), got "Stop"',
    ],
    [{ for: 'UserPromptSubmit' }, 'Expected `prompt`'],
    [{ for: 'UserPromptSubmit', prompt: 42 }, 'Expected `prompt` to be a string'],
    [{ for: 7 }, 'Expected `for` to be UserPromptSubmit or PostToolUse'],
    [{ prompt: 'x' }, 'prompt are set by ask-later'],
    [{ ids: [1] }, 'collect_answers takes no arguments when you call it yourself; got ids'],
  ])('GIVEN %j THEN an isError result that says what was expected', async (args, reason) => {
    const project = uniqueProject();
    await answered(project, [true]);
    const client = await clientFor(project);
    const result = await collect(client, args);
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toContain(reason);
    expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]);
  });
});
