/**
 * One agent process of bench/sqlite-load.mjs: an MCP server's store on the shared SQLite file. It waits for lines on
 * stdin: `burst <groups> <size> <gapMs>` parks `groups` groups of `size` questions at once (a model's parallel tool
 * calls), with a random pause of 0 to 2 × gapMs between groups, and answers with each park's latency (ms); `collect` claims and confirms every outcome waiting for its project and
 * answers with the ids it delivered; `exit` closes the store. Answers are one JSON line each on stdout.
 */

import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { openSqliteStore } from '../dist/store/sqlite/sqlite-store.js';

const [path, project] = process.argv.slice(2);
const SPEC = {
  context: 'We are migrating the **billing** service off the monolith before the March cut-over.',
  question: 'Which database should the billing service use?',
  impact: 'Decides the migration scripts, the backup plan and who is on call for the new store.',
  isBlocking: false,
  options: [
    { label: 'Postgres', description: 'What the team knows' },
    { label: 'SQLite', description: 'One file next to the service' },
  ],
  recommended: ['Postgres'],
  multiSelect: false,
};

const store = await openSqliteStore({ path });
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function burst(groups, size, gapMs) {
  const latencies = [];
  let refused = 0;
  const parkOne = async (i) => {
    const started = performance.now();
    try {
      await store.park(project, { ...SPEC, isBlocking: i % 4 === 0 });
      latencies.push(performance.now() - started);
    } catch {
      refused++;
    }
  };
  for (let g = 0; g < groups; g++) {
    await Promise.all(Array.from({ length: size }, (_, i) => parkOne(g * size + i)));
    await pause(Math.random() * 2 * gapMs);
  }
  say({ latencies, refused });
}

async function collect() {
  const delivered = [];
  for (;;) {
    const claim = await store.claimUndelivered(project, { budget: 8000, leaseMs: 30_000 });
    if (claim.questions.length === 0) break;
    delivered.push(...(await store.confirmClaim(project, claim)));
  }
  say({ delivered });
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(' ');
  if (command === 'burst') await burst(Number(args[0]), Number(args[1]), Number(args[2]));
  else if (command === 'collect') await collect();
  else if (command === 'exit') break;
}
await store.close();
