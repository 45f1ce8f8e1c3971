/**
 * The MCP server itself over Streamable HTTP at `/mcp`, for MCP clients that cannot start a local process: the same
 * model's tools as `ask-later mcp` (not the capture hook's), on serve's store through the token's scope (scope.ts), with the same tokens as the
 * agent API (`Authorization: Bearer alt_…`).
 *
 * Stateless: each POST gets a server and a transport of its own (the SDK's stateless mode, no session id), which is
 * all the tools need: none keeps state between calls (a waiting `ask_later` streams its progress on the POST's own
 * SSE response). GET and DELETE (a session's stream, its end) are 405.
 *
 * Every request first passes the Host and Origin rule of serve's entry points (`surfaces/origin-rule.ts`): a rebinding
 * `Host` or a foreign page's `Origin` is 403, valid token or not.
 *
 * The project a request works in: the `X-Ask-Later-Project` header, else the `project` query parameter, else the
 * token's one pattern when it names a single project (no `*`). None of these: 400; a project the token does not
 * reach: 403 with the same line whether or not it exists.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createMcpServer } from '../../agents/mcp/index.js';
import { packageVersion } from '../../agents/mcp/version.js';
import type { DeliveryReach } from '../../config/agent.js';
import { errorFields, type Logger } from '../../core/logger.js';
import { PROJECT_HEADER } from '../../store/http/protocol.js';
import type { Store } from '../../store/port.js';
import type { TokenRecord } from '../../store/token-port.js';
import { type OriginRule, originRule } from '../../surfaces/origin-rule.js';
import { AgentRequestError } from './agent-request-error.js';
import type { Authenticator } from './auth.js';
import { MCP_PATH } from './mcp-path.js';
import { failureOf, sendFailure, sendJson } from './respond.js';
import { reaches, refusal, scopedStore } from './scope.js';

export { MCP_PATH } from './mcp-path.js';

export interface McpEndpointOptions {
  readonly store: Store;
  readonly auth: Authenticator;
  /** Which Host and Origin are answered (default: loopback names and IP addresses; serve adds its public URL's). */
  readonly origins?: OriginRule;
  readonly logger: Logger;
  /** `ASK_LATER_MIDTURN` as serve reads it: which outcomes `collect_answers` carries for a `PostToolUse` hook. */
  readonly midturn?: DeliveryReach;
  /** How often a waiting ask_later reports progress (tests make it shorter). */
  readonly progressIntervalMs?: number;
}

export interface McpEndpoint {
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const version = packageVersion();
  return {
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== MCP_PATH) return false;
      void serveOne(options, version, url, request, response);
      return true;
    },
  };
}

async function serveOne(
  options: McpEndpointOptions,
  version: string,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let status = 200;
  try {
    // The transport's rule (servers MUST validate Origin) and DNS rebinding: before the token is even read.
    const refused = (options.origins ?? originRule()).refusal(request.headers);
    if (refused !== undefined) {
      status = 403;
      sendJson(response, 403, { jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${refused}` }, id: null });
      return;
    }
    if (request.method !== 'POST') {
      status = 405;
      sendJson(
        response,
        405,
        {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: /mcp is stateless, POST only' },
          id: null,
        },
        { allow: 'POST' },
      );
      return;
    }
    const token = await options.auth.authenticate(request);
    const project = projectOf(request, url, token);
    const server = createMcpServer({
      project,
      store: async () => scopedStore(options.store, token),
      version,
      ...(options.midturn !== undefined ? { midturn: options.midturn } : {}),
      ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
    });
    // No session id generator: the SDK's stateless mode.
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    // The SDK's own types disagree under exactOptionalPropertyTypes (its getters may return undefined).
    await server.connect(transport as Transport);
    await transport.handleRequest(request, response);
    status = response.statusCode;
  } catch (error) {
    const failure = failureOf(error);
    if (failure.code === 'internal') options.logger.error(errorFields(error), 'mcp over http: failed');
    sendFailure(response, failure);
    status = response.statusCode;
  } finally {
    options.logger.info({ status }, 'mcp over http: request');
  }
}

/** The project of a request (see the file comment); AgentRequestError when none is named or it is out of reach. */
function projectOf(request: IncomingMessage, url: URL, token: TokenRecord): string {
  const header = request.headers[PROJECT_HEADER];
  const named = (Array.isArray(header) ? header[0] : header)?.trim() || url.searchParams.get('project')?.trim();
  const only = token.patterns.length === 1 && !token.patterns[0]?.includes('*') ? token.patterns[0] : undefined;
  const project = named || only;
  if (!project) {
    throw new AgentRequestError(
      'bad-request',
      'name the project: the X-Ask-Later-Project header or the project query parameter (this token reaches more than one)',
    );
  }
  if (project.length > 1024) throw new AgentRequestError('bad-request', 'the project name is over 1024 characters');
  if (!reaches(token, project)) throw new AgentRequestError('forbidden', refusal(token, project));
  return project;
}
