/**
 * The agent API on serve's HTTP server (`POST /agent/v1/<operation>`, protocol.ts): what `ask-later mcp`, the
 * hook, the status line and the waiter need, for agents that hold a token rather than the store's password. This
 * file routes and runs the steps: Host and Origin (`surfaces/origin-rule.ts`: 403 before the token is read), method and
 * path, the token (auth.ts), the body (body.ts, schemas.ts), the token's scope (scope.ts), the operation
 * (operations.ts), the answer (respond.ts). The person side (`inbox-*`: person-operations.ts, person-schemas.ts) takes
 * only a token that signs a person in (`token create --web`); its long polls wait on one tail of the store's events
 * (inbox-changes.ts).
 *
 * Logs carry the operation, the status, the token's id and the time taken; never a token, a project's questions or
 * any text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logger.js';
import { errorFields } from '../../core/logger.js';
import {
  AGENT_API_PATH,
  AGENT_BODY_MAX_BYTES,
  AGENTS_ONLY_TEXT,
  type AgentOperationName,
  ERROR_STATUS,
  type PersonOperationName,
} from '../../store/http/protocol.js';
import type { Store } from '../../store/port.js';
import { type OriginRule, originRule } from '../../surfaces/origin-rule.js';
import { AgentRequestError } from './agent-request-error.js';
import type { Authenticator } from './auth.js';
import { readJsonBody } from './body.js';
import { type InboxChanges, inboxChanges } from './inbox-changes.js';
import { OPERATIONS } from './operations.js';
import { PERSON_OPERATIONS } from './person-operations.js';
import { PERSON_SCHEMAS } from './person-schemas.js';
import { failureOf, sendFailure, sendJson } from './respond.js';
import { type AgentSideOperationName, describeIssues, REQUEST_SCHEMAS } from './schemas.js';
import { scopedStore } from './scope.js';

export interface AgentApiOptions {
  readonly store: Store;
  readonly auth: Authenticator;
  /** Which Host and Origin are answered (default: loopback names and IP addresses; serve adds its public URL's). */
  readonly origins?: OriginRule;
  readonly logger: Logger;
  /** Told about every call once answered (serve's metrics): the operation (`unknown` for none) and the status. */
  readonly onCall?: (operation: string, status: number) => void;
}

export interface AgentApi {
  /** Answer the request if it is the API's (true), else leave it (false). */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** End every held long poll (serve is stopping): their clients ask again, elsewhere or after the restart. */
  close(): void;
}

export function createAgentApi(options: AgentApiOptions): AgentApi {
  const stopping = new AbortController();
  const changes = inboxChanges(options.store);
  return {
    handle(request, response) {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (!path.startsWith(AGENT_API_PATH)) return false;
      void serveOne(options, changes, path.slice(AGENT_API_PATH.length), request, response, stopping.signal);
      return true;
    },
    close: () => {
      stopping.abort();
      changes.close();
    },
  };
}

function isOperation(name: string): name is AgentOperationName {
  return Object.hasOwn(OPERATIONS, name) || Object.hasOwn(PERSON_OPERATIONS, name);
}

function isPersonOperation(name: AgentOperationName): name is PersonOperationName {
  return Object.hasOwn(PERSON_OPERATIONS, name);
}

async function serveOne(
  { store, auth, origins = originRule(), logger, onCall }: AgentApiOptions,
  changes: InboxChanges,
  name: string,
  request: IncomingMessage,
  response: ServerResponse,
  stopping: AbortSignal,
): Promise<void> {
  const started = performance.now();
  let tokenId: string | undefined;
  // The caller going away (or serve stopping) ends what it waits for.
  const gone = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) gone.abort();
  };
  response.on('close', onClose);
  const signal = AbortSignal.any([gone.signal, stopping]);
  let status = 200;
  try {
    // Before anything else, the token included: a rebinding Host or a foreign page is refused whoever it is.
    const refused = origins.refusal(request.headers);
    if (refused !== undefined) throw new AgentRequestError('host-refused', refused);
    if (request.method !== 'POST') {
      throw new AgentRequestError('method-not-allowed', `the agent API takes POST, got ${request.method ?? 'none'}`);
    }
    if (!isOperation(name))
      throw new AgentRequestError('not-found', `no operation ${JSON.stringify(name.slice(0, 40))}`);
    // Stopping: a wait started now would end at once and be asked again at once; the caller backs off instead.
    if (stopping.aborted) throw new AgentRequestError('store-unavailable', 'serve is stopping; ask again shortly');
    const token = await auth.authenticate(request);
    tokenId = token.id;
    const person = isPersonOperation(name);
    // Before the body: whatever it holds, an agents-only token never reaches the person side.
    if (person && token.web !== true) throw new AgentRequestError('agents-only', AGENTS_ONLY_TEXT);
    const raw = await readJsonBody(request, AGENT_BODY_MAX_BYTES);
    const parsed = (person ? PERSON_SCHEMAS[name] : REQUEST_SCHEMAS[name as AgentSideOperationName]).safeParse(raw);
    if (!parsed.success) throw new AgentRequestError('bad-request', describeIssues(parsed.error));
    const result = person
      ? await (PERSON_OPERATIONS[name] as (context: unknown, body: unknown) => Promise<unknown>)(
          { store, token, changes, signal },
          parsed.data,
        )
      : await (OPERATIONS[name as AgentSideOperationName] as (context: unknown, body: unknown) => Promise<unknown>)(
          { store: scopedStore(store, token), token, signal },
          parsed.data,
        );
    sendJson(response, 200, result);
  } catch (error) {
    const failure = failureOf(error);
    status = ERROR_STATUS[failure.code];
    if (failure.code === 'internal')
      logger.error({ operation: name.slice(0, 40), ...errorFields(error) }, 'agent api: failed');
    sendFailure(response, failure);
  } finally {
    response.off('close', onClose);
    const operation = isOperation(name) ? name : 'unknown';
    onCall?.(operation, status);
    logger.info(
      {
        operation,
        status,
        ...(tokenId ? { token: tokenId } : {}),
        ms: Math.round(performance.now() - started),
      },
      'agent api: call',
    );
  }
}
