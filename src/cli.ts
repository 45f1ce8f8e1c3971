#!/usr/bin/env node
/**
 * `ask-later <command>`: each command lazy-imports only what it runs, so the per-prompt hook stays cheap.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const commands: Record<string, { summary: string; run: (args: string[]) => Promise<number> }> = {
  doctor: {
    summary: 'checks the config, the store, Slack, Discord and the Claude Code install, and says what to fix',
    run: async () => (await import('./commands/doctor/run.js')).runDoctor(process.env),
  },
  hook: {
    summary: "Claude Code's UserPromptSubmit hook: adds the answers waiting for this project to the prompt",
    run: async () => (await import('./agents/hooks/run.js')).runHook(process, process.env, process.cwd()),
  },
  status: {
    summary: "one line for Claude Code's statusLine: questions waiting, blocking and answered in this project",
    run: async () => (await import('./agents/status-line/run.js')).runStatus(process, process.env, process.cwd()),
  },
  mcp: {
    summary: 'the MCP server over stdio (started by Claude Code or any MCP client)',
    run: async () => (await import('./agents/mcp/run.js')).runMcp(process.env, process.cwd()),
  },
  wait: {
    summary: "Claude Code's SessionStart/Stop waiter (async, asyncRewake): wakes the idle session when an answer lands",
    run: async () => {
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      const { runWaiter } = await import('./agents/wake/run.js');
      return runWaiter(process, process.env, process.cwd(), { signal: stop.signal });
    },
  },
  'retry-failed': {
    summary:
      'hands the events the bridge gave up on (see doctor) back to it: retry-failed [slack|discord|telegram|web]',
    run: async (args) =>
      (await import('./commands/doctor/retry-failed.js')).runRetryFailed(process.env, args, {
        stdout: process.stdout,
        stderr: process.stderr,
      }),
  },
  decisions: {
    summary: 'the answered questions, newest first: decisions [--project PATTERN] [--since 7d] [--format md|json|csv]',
    run: async (args) =>
      (await import('./commands/decisions/run.js')).runDecisions(process.env, args, {
        stdout: process.stdout,
        stderr: process.stderr,
      }),
  },
  token: {
    summary: "agents' tokens for serve's agent API: token create --name NAME --projects PATTERN | list | revoke NAME",
    run: async (args) =>
      (await import('./commands/token/run.js')).runToken(process.env, args, {
        stdout: process.stdout,
        stderr: process.stderr,
      }),
  },
  setup: {
    summary: 'wires ask-later into another coding agent: setup codex|opencode|pi [--project] [--remove] [--dry-run]',
    run: async (args) => {
      const [agent, ...flags] = args;
      const io = { stdout: process.stdout, stderr: process.stderr };
      if (agent === 'codex') {
        const wiring = { node: process.execPath, cli: fileURLToPath(import.meta.url) };
        return (await import('./agents/codex/setup.js')).runSetupCodex(flags, process.env, process.cwd(), io, wiring);
      }
      if (agent === 'opencode') {
        return (await import('./agents/opencode/setup.js')).runSetupOpenCode(flags, process.env, process.cwd(), io);
      }
      if (agent === 'pi') {
        return (await import('./agents/pi/setup.js')).runSetupPi(flags, process.env, process.cwd(), io);
      }
      process.stderr.write(
        `ask-later setup: expected an agent (codex, opencode or pi), got ${JSON.stringify(agent ?? '')}\n`,
      );
      return 2;
    },
  },
  inbox: {
    summary:
      'the questions waiting, as a keyboard inbox in the terminal: inbox [--list | --json] [--filter …] [--project …]',
    run: async (args) =>
      (await import('./commands/inbox/run.js')).runInboxCommand(process.env, args, {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
      }),
  },
  answer: {
    summary: 'answers one waiting question: answer <id> --pick <label>… [--other TEXT] [--notes TEXT] [--project NAME]',
    run: async (args) =>
      (await import('./commands/inbox/run.js')).runAnswerCommand(process.env, args, {
        stdout: process.stdout,
        stderr: process.stderr,
      }),
  },
  ask: {
    summary: 'parks a question from a script or job: ask --question TEXT --option A --option B [--wait S] [--json] …',
    run: async (args) => {
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      const io = { stdout: process.stdout, stderr: process.stderr };
      return (await import('./commands/ask/run.js')).runAsk(process.env, process.cwd(), args, io, {
        signal: stop.signal,
      });
    },
  },
  get: {
    summary: 'collects the outcome of a question parked with ask, once: get <id> [--wait S] [--json]',
    run: async (args) => {
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      const io = { stdout: process.stdout, stderr: process.stderr };
      return (await import('./commands/ask/run.js')).runGet(process.env, process.cwd(), args, io, {
        signal: stop.signal,
      });
    },
  },
  'agent-bridge': {
    summary: "the OpenCode plugin's and pi extension's link to the inbox (started by them, JSON lines on stdio)",
    run: () => runAgentBridge(),
  },
  'opencode-bridge': {
    summary: 'agent-bridge under its first name (plugins written by earlier setups start it)',
    run: () => runAgentBridge(),
  },
  serve: {
    summary: 'the web inbox (http://127.0.0.1:7420/), and the bridge to Slack and Discord when they are configured',
    run: async () => {
      const code = await (await import('./serve/run.js')).runServe(process.env);
      // A stop that left work in hand (a store or platform not answering) may leave a socket open: end here.
      process.exit(code);
    },
  },
};

async function runAgentBridge(): Promise<number> {
  const [{ runBridge }, { runWaiter }] = await Promise.all([
    import('./agents/bridge/run.js'),
    import('./agents/wake/run.js'),
  ]);
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  return runBridge(io, process.env, process.cwd(), runWaiter);
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return ['Usage: ask-later <command>', '', 'Commands:', ...lines, '', 'Options: --help, --version'].join('\n');
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`ask-later: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  return command.run(rest);
}

process.exitCode = await main(process.argv.slice(2));
