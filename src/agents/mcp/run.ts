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
import { createMcpServer, lazyStore } from './index.js';
import { packageVersion } from './version.js';

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
    // The project may be the problem itself: then it is no name to show (no tool call reaches the store anyway).
    try {
      project = projectFromEnvironment(env, cwd);
    } catch {
      project = '';
    }
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
  await closed;
  await store.close();
  return 0;
}

/** Where the person answers the questions parked in this store, as the model is told. */
function inboxOf(location: AgentStoreLocation): string {
  return location.kind === 'sqlite'
    ? 'the web inbox of ask-later serve on this machine'
    : "the team's ask-later inbox (Slack, Discord or the web inbox, as routed)";
}
