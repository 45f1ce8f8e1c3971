/** `ask-later mcp`: the MCP server over stdio, started by Claude Code (or any MCP client) per session. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  type AgentStoreLocation,
  type CaptureMode,
  type DecidedCheck,
  type DeliveryReach,
  loadAgentConfig,
} from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { projectFromEnvironment } from '../../config/project.js';
import { openStore } from '../../store/open.js';
import { sessionStateDir } from '../claude-code/session-file.js';
import { dueDir } from '../hooks/due-marker.js';
import { startDueWatcher } from '../hooks/due-watcher.js';
import { createMcpServer, lazyStore } from './index.js';
import { packageVersion } from './version.js';

/** How long after the handshake the due watcher starts (hooks/due-watcher.ts). */
const WATCH_AFTER_MS = 1000;

export async function runMcp(env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<number> {
  let configProblem: string | undefined;
  let location: AgentStoreLocation | undefined;
  let project: string;
  let midturn: DeliveryReach | undefined;
  let capture: CaptureMode | undefined;
  let decided: DecidedCheck | undefined;
  try {
    const config = loadAgentConfig(env, cwd);
    location = config.store;
    project = config.project;
    midturn = config.midturn;
    capture = config.capture;
    decided = config.decided;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Start anyway: the client shows the server, and every tool call says what to set.
    configProblem = error.message;
    project = projectFromEnvironment(env, cwd);
    process.stderr.write(`ask-later mcp: ${error.message}\n`);
  }

  // With a config problem no tool call reaches the store (each answers with the problem).
  const store = lazyStore(() =>
    location === undefined ? Promise.reject(new Error('no store configured')) : openStore(location),
  );
  const server = createMcpServer({
    project,
    store: store.get,
    version: packageVersion(),
    ...(configProblem ? { configProblem } : {}),
    ...(midturn ? { midturn } : {}),
    ...(decided ? { decided } : {}),
    ...(capture && location
      ? { capture: { mode: capture, inbox: inboxOf(location), stateDir: sessionStateDir(env) } }
      : {}),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  // The client ends the session by closing our stdin; the transport does not notice that by itself.
  process.stdin.once('end', () => void server.close());
  // The session's hooks ask the markers first whether anything is due (hooks/due-marker.ts); this keeps them true.
  const dir = location === undefined ? undefined : dueDir(env, cwd);
  // Its own store: the embedded one looks for other processes' changes every 250 ms there, not every 25 ms.
  const watched = lazyStore(() =>
    location === undefined
      ? Promise.reject(new Error('no store configured'))
      : openStore(location, { pollIntervalMs: 250 }),
  );
  // Started a moment after the handshake: the client's first requests (initialize, tools/list) do not wait for the
  // store to load; until it watches, the hooks look for themselves.
  let watcher: { stop(): Promise<void> } | undefined;
  const starting = setTimeout(() => {
    if (dir !== undefined) watcher = startDueWatcher({ store: watched.get, project, dir });
  }, WATCH_AFTER_MS);
  await closed;
  clearTimeout(starting);
  await watcher?.stop();
  await watched.close().catch(() => undefined);
  await store.close();
  return 0;
}

/** Where the person answers the questions parked in this store, as the model is told. */
function inboxOf(location: AgentStoreLocation): string {
  return location.kind === 'sqlite'
    ? 'the web inbox of ask-later serve on this machine'
    : "the team's ask-later inbox (Slack, Discord or the web inbox, as routed)";
}
