/**
 * What ask-later costs and brings inside the real Claude Code (2.1.332, the binary the end-to-end tests install),
 * offline against a minimal fake Messages API, in long-lived headless sessions
 * (`-p --input-format stream-json --output-format stream-json`), all with the same binary:
 *
 * - prompt latency: a user message written to the session's stdin → the model request it causes arriving at the
 *   fake API. Four sessions, their prompts interleaved: no ask-later at all; the plugin (its prompt hook is an
 *   `mcp_tool` call to collect_answers on the session's own MCP server; its capture hook matches AskUserQuestion and
 *   ExitPlanMode only, so it is not paid on a prompt); the floor of any `mcp_tool` hook (bench/trivial-mcp.mjs, a
 *   tool that answers {} at once); the old command hook (`hook.cjs`, a Node process per prompt, wired by hand).
 *   Medians; aim: plugin ≤ 1.05× none.
 * - wake latency: a blocking question's answer stored while the plugin's session is idle → the woken model request
 *   arriving (the waiter exits 2, Claude Code wakes the session). Aim: p50 ≤ 1 s.
 *
 * Skipped (with a line saying why) when the Claude Code binary is not installed: the end-to-end tests install it
 * (`~/.cache/ask-later-test`), or `ASK_LATER_CLAUDE_BIN` names one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const CLAUDE_AIMS = { promptRatio: 1.05, wakeP50Ms: 1000 };

const REPO = realpathSync(new URL('..', import.meta.url).pathname);
const PACKAGE = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
const VERSION = '0.3.332';

/** The installed binary, or undefined. */
export function claudeBinary() {
  if (process.env.ASK_LATER_CLAUDE_BIN) return process.env.ASK_LATER_CLAUDE_BIN;
  const root = process.env.ASK_LATER_TEST_CACHE ?? join(homedir(), '.cache', 'ask-later-test');
  const bin = join(root, `${PACKAGE.replace('@anthropic-ai/', '')}-${VERSION}`, 'node_modules', PACKAGE, 'claude');
  return existsSync(bin) ? bin : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// A fake Messages API: every request gets "OK." streamed back; arrivals are announced to waiting callers.

function sse(res, text, index) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: {
      id: `msg_bench_${index}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-fake-1',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  event('content_block_stop', { index: 0 });
  event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } });
  event('message_stop', {});
  res.end();
}

async function startFakeModel() {
  const waiting = [];
  let count = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== '/v1/messages') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(path.endsWith('count_tokens') ? '{"input_tokens":1}' : '{}');
        return;
      }
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      // The newest messages: the prompt (or the wake notification) may be followed by a system message.
      const text = JSON.stringify(body.messages?.slice(-3) ?? '');
      for (const w of waiting.splice(0)) {
        if (w.match(text, body)) w.resolve(at);
        else waiting.push(w);
      }
      if (body.stream) sse(res, 'OK.', count++);
      else
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `msg_bench_${count++}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-fake-1',
            content: [{ type: 'text', text: 'OK.' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 2 },
          }),
        );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Resolves with the arrival time of the next main-loop request whose newest messages contain `marker`. */
    next: (marker) =>
      within(
        new Promise((resolve) =>
          waiting.push({ match: (text, body) => text.includes(marker) && (body.tools?.length ?? 0) > 0, resolve }),
        ),
        `a model request carrying "${marker}"`,
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions.

function baseEnv(home, api) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/** A long-lived headless session: `prompt(text)` resolves when its turn's result line came. */
function startSession(claude, cwd, env, args) {
  const child = spawn(
    claude,
    ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', ...args],
    { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  let buffer = '';
  const results = [];
  let sessionId;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      try {
        const event = JSON.parse(line);
        const type = event.type;
        if (typeof event.session_id === 'string') sessionId = event.session_id;
        if (process.env.BENCH_DEBUG) process.stderr.write(`[${cwd.slice(-8)}] ${type}\n`);
        if (type === 'result') for (const r of results.splice(0)) r();
      } catch {}
    }
  });
  if (process.env.BENCH_DEBUG) child.stderr.pipe(process.stderr);
  else child.stderr.resume();
  return {
    write(text) {
      child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`);
    },
    turnEnded: () => within(new Promise((resolve) => results.push(resolve)), 'the end of a turn'),
    /** Claude Code's id of this session (known once it printed its first line). */
    sessionId: () => sessionId,
    /** Kill the session and everything it started (its process group); resolves once it is gone. */
    kill() {
      const gone = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('close', resolve)));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      return gone;
    },
  };
}

function gitProject(scratch) {
  const dir = mkdtempSync(join(scratch, 'project-'));
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

/**
 * @param {{ redisUrl: string, prefix: string, store: import('../dist/store/port.js').Store, rounds: number,
 *   wakes: number, waiterWaiting: (sessionId: string | undefined) => Promise<boolean> }} options
 */
export async function measureClaude(options) {
  const claude = claudeBinary();
  if (!claude) return { skipped: 'no Claude Code binary (run the end-to-end tests once, or set ASK_LATER_CLAUDE_BIN)' };
  const scratch = mkdtempSync(join(tmpdir(), 'ask-later-bench-claude-'));
  const api = await startFakeModel();
  const sessions = [];
  try {
    const project = `bench-claude-${process.pid}`;
    const inbox = { REDIS_URL: options.redisUrl, ASK_LATER_REDIS_PREFIX: options.prefix, ASK_LATER_PROJECT: project };

    // No ask-later.
    const noneHome = mkdtempSync(join(scratch, 'home-none-'));
    // The plugin from this checkout's marketplace, its settings in ~/.claude/settings.json.
    const pluginHome = mkdtempSync(join(scratch, 'home-plugin-'));
    for (const args of [
      ['plugin', 'marketplace', 'add', REPO],
      ['plugin', 'install', 'ask-later@ask-later'],
    ]) {
      execFileSync(claude, args, { cwd: pluginHome, env: baseEnv(pluginHome, api), stdio: 'pipe', timeout: 120_000 });
    }
    const settingsFile = join(pluginHome, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
    settings.env = inbox;
    writeFileSync(settingsFile, JSON.stringify(settings));
    // The old command hook, by hand.
    const hookHome = mkdtempSync(join(scratch, 'home-hook-'));
    const dist = join(REPO, 'plugin', 'dist');
    const hookArgs = [
      '--mcp-config',
      JSON.stringify({ mcpServers: { 'ask-later': { command: 'node', args: [join(dist, 'ask-later.mjs'), 'mcp'] } } }),
      '--strict-mcp-config',
      '--settings',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: `node "${join(dist, 'hook.cjs')}"`, timeout: 10 }] },
          ],
        },
      }),
      '--setting-sources',
      '',
    ];

    // The floor: an mcp_tool hook on a server that answers at once.
    const floorArgs = [
      '--mcp-config',
      JSON.stringify({ mcpServers: { floor: { command: 'node', args: [join(REPO, 'bench', 'trivial-mcp.mjs')] } } }),
      '--strict-mcp-config',
      '--settings',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'mcp_tool', server: 'floor', tool: 'nothing', input: {}, timeout: 10 }] },
          ],
        },
      }),
      '--setting-sources',
      '',
    ];

    const kinds = [
      { name: 'none', session: startSession(claude, gitProject(scratch), baseEnv(noneHome, api), []) },
      { name: 'plugin', session: startSession(claude, gitProject(scratch), { ...baseEnv(pluginHome, api) }, []) },
      { name: 'floor', session: startSession(claude, gitProject(scratch), baseEnv(noneHome, api), floorArgs) },
      {
        name: 'command hook',
        session: startSession(claude, gitProject(scratch), { ...baseEnv(hookHome, api), ...inbox }, hookArgs),
      },
    ];
    for (const kind of kinds) sessions.push(kind.session);
    // Warm up: the first turn loads everything (MCP servers included).
    for (const { session } of kinds) {
      const ended = session.turnEnded();
      session.write('warm up');
      await ended;
    }

    const latencies = Object.fromEntries(kinds.map((k) => [k.name, []]));
    const trace = (what) => process.env.BENCH_DEBUG && process.stderr.write(`[bench] ${what}\n`);
    for (let round = 0; round < options.rounds; round++) {
      trace(`round ${round}`);
      for (const { name, session } of kinds) {
        const marker = `bench prompt ${name} ${round}`;
        const arrived = api.next(marker);
        const ended = session.turnEnded();
        const written = performance.now();
        session.write(marker);
        latencies[name].push((await arrived) - written);
        await ended;
      }
    }

    // Wake: park a blocking question, let a turn end (the Stop hook arms the waiter), answer it, time the wake.
    const plugin = kinds[1].session;
    const wakes = [];
    for (let i = 0; i < options.wakes; i++) {
      const question = await options.store.park(project, {
        context: 'Bench.',
        question: 'Which one?',
        impact: 'None.',
        isBlocking: true,
        options: [{ label: 'A' }, { label: 'B' }],
        multiSelect: false,
      });
      const ended = plugin.turnEnded();
      plugin.write(`bench wake turn ${i}`);
      await ended;
      trace(`wake ${i}: turn ended, waiting for the waiter`);
      // The waiter holds the session's lease once it waits.
      await until(() => options.waiterWaiting(plugin.sessionId()));
      const woken = api.next(`#${question.id} (blocking) was answered`);
      const answered = performance.now();
      await options.store.answer(
        project,
        question.id,
        { choices: ['A'], other: false },
        {
          platform: 'slack',
          userId: 'U1',
          displayName: 'Bench',
        },
      );
      const turn = plugin.turnEnded();
      trace(`wake ${i}: answered #${question.id}`);
      wakes.push((await woken) - answered);
      trace(`wake ${i}: woken`);
      await turn;
    }

    const result = {
      promptMs: Object.fromEntries(Object.entries(latencies).map(([name, values]) => [name, median(values)])),
      wakeP50Ms: median(wakes),
      wakeP90Ms: percentile(wakes, 90),
      rounds: options.rounds,
      wakes: wakes.length,
    };
    return result;
  } finally {
    await Promise.all(sessions.map((session) => session.kill()));
    await api.close();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** `work`, or a rejection naming `what` after `ms`: a stuck session fails the bench instead of hanging it. */
function within(work, what, ms = 90_000) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: no ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function until(check, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('bench: timed out waiting for the waiter');
}
