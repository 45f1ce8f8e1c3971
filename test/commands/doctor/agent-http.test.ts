import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/commands/doctor/run.js';
import type { Store } from '../../../src/store/port.js';
import { type AgentApiServer, createToken, startAgentApi } from '../../support/agent-api.js';
import { openTestStore } from '../../support/store.js';

let store: Store;
let api: AgentApiServer;
const dirs: string[] = [];

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ask-later-doctor-${name}-`));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  store = await openTestStore();
  api = await startAgentApi(store);
});
afterAll(async () => {
  await api.close();
  await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function doctor(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  let out = '';
  const code = await runDoctor(
    { HOME: tempDir('home'), ...env },
    {
      stdout: {
        write: (text: string) => {
          out += text;
        },
      },
    },
    { home: tempDir('home'), cwd: tempDir('cwd'), timeoutMs: 2000 },
  );
  return { code, lines: out.trimEnd().split('\n') };
}

describe('doctor on an agent machine set up for HTTP', () => {
  it('GIVEN a URL and a live token THEN serve accepts it and the lines name its patterns, never the token', async () => {
    const project = '/srv/doctor/api';
    const token = await createToken(store, 'doctor-alice', ['/srv/doctor/*']);
    const { code, lines } = await doctor({
      ASK_LATER_URL: api.url,
      ASK_LATER_TOKEN: token,
      ASK_LATER_PROJECT: project,
    });
    expect(code).toBe(0);
    const origin = new URL(api.url).origin;
    expect(lines[0]).toBe(`✓ Config: agents over HTTP, ask-later serve at ${origin} (agent token); project ${project}`);
    expect(lines[1]).toBe(
      `✓ ask-later serve at ${origin} accepts the token "doctor-alice" (id ${token.slice(4, 16)}), which reaches /srv/doctor/*`,
    );
    expect(lines.join('\n')).not.toContain(token.slice(17));
  });

  it('GIVEN a token that does not reach this directory’s project THEN a warning says the agents here are refused', async () => {
    const token = await createToken(store, 'doctor-bob', ['/srv/elsewhere/**']);
    const { code, lines } = await doctor({
      ASK_LATER_URL: api.url,
      ASK_LATER_TOKEN: token,
      ASK_LATER_PROJECT: '/srv/mine',
    });
    expect(code).toBe(0);
    expect(lines[2]).toBe(
      "⚠ This directory's project /srv/mine is not among the token's patterns — the agents here are refused (403); ask for a token that reaches it, or set ASK_LATER_PROJECT",
    );
  });

  it('GIVEN a revoked token, or nothing listening THEN one ✗ line with the fix, exit 1', async () => {
    const token = await createToken(store, 'doctor-revoked', ['**']);
    await store.tokens().revoke('doctor-revoked');
    const revoked = await doctor({ ASK_LATER_URL: api.url, ASK_LATER_TOKEN: token, ASK_LATER_PROJECT: '/srv/x' });
    expect(revoked.code).toBe(1);
    expect(revoked.lines[1]).toBe(
      `✗ ask-later serve at ${new URL(api.url).origin} refused the token (the token is unknown or was revoked) — create one with \`ask-later token create\` where serve's store is, and set ASK_LATER_TOKEN`,
    );

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    await new Promise((resolve) => closed.close(resolve));
    const down = await doctor({
      ASK_LATER_URL: `http://127.0.0.1:${address.port}`,
      ASK_LATER_TOKEN: token,
      ASK_LATER_PROJECT: '/srv/x',
    });
    expect(down.code).toBe(1);
    expect(down.lines[1]).toBe(
      `✗ ask-later serve at http://127.0.0.1:${address.port} is unreachable (connection refused) — is serve running there, and ASK_LATER_URL right?`,
    );
  });

  it('GIVEN plain http:// to another host THEN a warning about the token in clear; a malformed token THEN the config line fails', async () => {
    const token = await createToken(store, 'doctor-clear', ['**']);
    const clear = await doctor({
      ASK_LATER_URL: 'http://10.255.255.1:1',
      ASK_LATER_TOKEN: token,
      ASK_LATER_PROJECT: '/x',
    });
    expect(clear.lines[1]).toBe(
      '⚠ ask-later serve at http://10.255.255.1:1: http:// beyond this machine sends the token in clear — put serve behind https:// (a proxy or a load balancer)',
    );
    const bad = await doctor({ ASK_LATER_URL: api.url, ASK_LATER_TOKEN: 'nope' });
    expect(bad).toEqual({
      code: 1,
      lines: [
        '✗ Config: ASK_LATER_TOKEN must be a token from `ask-later token create` (alt_, 12 letters and digits, _ and 43 more characters), got 4 characters that are not one',
      ],
    });
  });
});
