/**
 * Wake latency of a waiting `ask_later`: the built `ask-later mcp` over stdio parks a question with waitSeconds;
 * once it waits, the bench answers through the store and times from the start of that answer call to the tool
 * call returning at the client (so the answer's own round trip is included). Aim: p99 ≤ 50 ms.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const QUESTION = {
  context: 'Bench.',
  question: 'Which one?',
  impact: 'None.',
  isBlocking: true,
  options: ['A', 'B'],
  waitSeconds: 30,
};

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function measureWake({ storeEnv, store, runs }) {
  const project = `bench-wake-${randomUUID()}`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [new URL('../dist/cli.js', import.meta.url).pathname, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...storeEnv, ASK_LATER_PROJECT: project },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const samples = [];
  try {
    for (let i = 1; i <= runs + 10; i++) {
      let returned;
      const call = client.callTool({ name: 'ask_later', arguments: QUESTION }).then((result) => {
        returned = performance.now();
        return result;
      });
      while (!(await store.get(project, i))) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, 5)); // let the server settle into its blocking read
      const started = performance.now();
      const answered = await store.answer(
        project,
        i,
        { choices: ['A'], other: false },
        {
          platform: 'slack',
          userId: 'U',
          displayName: 'Bench',
        },
      );
      if (answered.kind !== 'won') throw new Error(`bench: answer #${i} gave ${answered.kind}`);
      const result = await call;
      const text = result.content?.[0]?.text ?? '';
      if (!text.includes('got its outcome while you waited'))
        throw new Error(`bench: #${i} returned "${text.slice(0, 80)}"`);
      if (i > 10) samples.push(returned - started); // the first 10 warm up
    }
  } finally {
    await client.close();
  }
  samples.sort((a, b) => a - b);
  return { runs: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.at(-1) };
}
