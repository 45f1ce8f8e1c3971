/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency at an exact version) against
 * serve's `/mcp`, through a loopback proxy that adds the token (the suite sends no `Authorization`) and passes every
 * other header on as the suite sent it, `Host` and `Origin` included. The suite needs Node 22 or later (it imports
 * `fs.globSync`): it runs on CI's Node 24 leg; on Node 20 only the baseline's own check runs. The scenarios that do not
 * pass, and why each cannot, are in `conformance-baseline.yml` (the suite's `--expected-failures` format).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { Store } from '../../../src/store/port.js';
import { createToken } from '../../support/agent-api.js';
import { openTestStore, uniquePrefix, uniqueProject } from '../../support/store.js';
import { RecordingLogger } from '../../surfaces/slack/harness.js';

const CLI = new URL('../../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url).pathname;
const BASELINE = new URL('./conformance-baseline.yml', import.meta.url).pathname;
const SUITE_RUNS = Number(process.versions.node.split('.')[0]) >= 22;

/** The scenarios every MCP server over Streamable HTTP should pass, with no failure and no warning. */
const CLEAN = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
/** Applicable, no failure; they warn only of a stateful, resumable server's SHOULDs (see the baseline). */
const STATEFUL_WARNINGS: Readonly<Record<string, readonly string[]>> = {
  'server-sse-polling': ['server-sse-polling-session', 'server-sse-priming-event', 'server-sse-retry-field'],
  'server-sse-multiple-streams': ['server-sse-multiple-streams-session'],
};

/** The baseline's scenario names, in order (the file is a `server:` list). */
function baselineScenarios(): string[] {
  return [...readFileSync(BASELINE, 'utf8').matchAll(/^ {2}- ([a-z0-9-]+)\s*$/gm)].map((match) => match[1] ?? '');
}

describe('the conformance baseline', () => {
  it('GIVEN the baseline THEN every entry is a scenario of the installed suite, once, under a comment saying why', () => {
    const names = baselineScenarios();
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names).size).toBe(names.length);
    const suite = readFileSync(
      new URL('../../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
      'utf8',
    );
    // A scenario's name as its class sets it (`this.name=\`ping\``, in the built file).
    const known = (name: string) => suite.includes(`name=\`${name}\``);
    for (const name of [...names, ...CLEAN]) expect(known(name), name).toBe(true);
    expect(known('no-such-scenario')).toBe(false);
    for (const name of CLEAN) expect(names).not.toContain(name);
    // Each group of entries follows a comment.
    const text = readFileSync(BASELINE, 'utf8');
    for (const group of text.split(/\n\s*\n/).filter((block) => /^ {2}- /m.test(block))) {
      expect(group.trimStart().startsWith('#'), group).toBe(true);
    }
  });
});

describe.runIf(SUITE_RUNS)('the MCP conformance suite against /mcp', () => {
  const prefix = uniquePrefix();
  let store: Store;
  let serve: ServeHandle;
  let proxy: Server;
  let url = '';

  beforeAll(async () => {
    store = await openTestStore({ prefix });
    serve = await startServe(
      { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1', routes: [] },
      { logger: new RecordingLogger(), sweepMs: 0, bridge: { blockMs: 50 } },
    );
    // One literal project: /mcp works in it without a project header (the suite sends none).
    const token = await createToken(store, 'conformance', [uniqueProject('conformance')]);
    proxy = createServer((incoming, outgoing) => {
      const upstream = request(
        {
          host: '127.0.0.1',
          port: serve.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, authorization: `Bearer ${token}` },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await serve?.stop();
    await store?.close();
  });

  /** Run the suite's CLI (`server --url …` and `args`); its exit code and its output without colours. */
  function conformance(args: readonly string[]): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'server', '--url', url, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '' },
      });
      let output = '';
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('close', (code) => resolve({ code, output: stripVTControlCharacters(output) }));
    });
  }

  it('GIVEN every scenario and the baseline THEN exactly the baseline’s scenarios fail, and the others pass with no failure and no warning', async () => {
    const { code, output } = await conformance(['--suite', 'all', '--expected-failures', BASELINE]);
    expect(output).toContain('Baseline check passed: all failures are expected.');
    expect(code).toBe(0);
    for (const name of CLEAN) expect(output).toMatch(new RegExp(`^✓ ${name}: [1-9]\\d* passed, 0 failed$`, 'm'));
  });

  it.each(CLEAN)('GIVEN %s alone THEN every check passes, with no warning', async (scenario) => {
    const { code, output } = await conformance(['--scenario', scenario]);
    expect(output).toMatch(/^Passed: (\d+)\/\1, 0 failed, 0 warnings$/m);
    expect(code).toBe(0);
  });

  it.each(
    Object.keys(STATEFUL_WARNINGS),
  )('GIVEN %s alone THEN no check fails; it warns only of a stateful server’s SHOULDs', async (scenario) => {
    const { code, output } = await conformance(['--scenario', scenario]);
    expect(output).toMatch(/, 0 failed, \d+ warnings?$/m);
    expect(code).toBe(0);
    const warned = [...output.matchAll(/\[([a-z0-9-]+)\s*\]\s+WARNING/g)].map((match) => match[1]);
    expect(warned.length).toBeGreaterThan(0);
    for (const id of warned) expect(STATEFUL_WARNINGS[scenario]).toContain(id);
  });
});
