/**
 * One JSON call to serve's agent API over node:http(s): keep-alive, a time-out per call, and every failure mapped
 * to what the agent side already handles: StoreUnavailableError (nothing answered: refused, reset, timed out, a
 * gateway's 502/503/504), TokenRefusedError (401), ProjectRefusedError (403), and for the person side
 * AgentsOnlyTokenError (403 `agents-only`) and InvalidAnswerError (422); AgentApiError (the rest). The
 * token goes in the Authorization header only; no error carries it, or a body.
 *
 * node:http rather than fetch: the hook and the status line pay for what they load on every prompt, and undici
 * (behind fetch) costs more to load than their whole store call.
 */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { InvalidAnswerError } from '../../core/invalid-answer-error.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { AgentApiError } from './agent-api-error.js';
import { AgentsOnlyTokenError } from './agents-only-token-error.js';
import { ProjectRefusedError } from './project-refused-error.js';
import { AGENT_API_PATH, type AgentOperationName, type AgentOperations } from './protocol.js';
import { checkReply } from './replies.js';
import { TokenRefusedError } from './token-refused-error.js';

/** The most a response body may take (a project's whole list of questions at every limit fits well within it). */
const RESPONSE_MAX_BYTES = 64 * 1024 * 1024;

export interface AgentClientOptions {
  /** Serve's URL (`ASK_LATER_URL`): http(s), optionally with a path prefix. */
  readonly url: string;
  /** `ASK_LATER_TOKEN`. */
  readonly token: string;
}

export interface CallOptions {
  /** Give up after this long: the call fails as unavailable. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

type Transport = {
  request(url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest;
  Agent: new (options: { keepAlive: boolean }) => Agent;
};

export class AgentClient {
  readonly #base: URL;
  readonly #authorization: string;
  #transport: Promise<{ transport: Transport; agent: Agent }> | undefined;
  #closed = false;
  readonly #inFlight = new Set<ClientRequest>();

  constructor(options: AgentClientOptions) {
    const base = new URL(options.url);
    if (!base.pathname.endsWith('/')) base.pathname = `${base.pathname}/`;
    this.#base = base;
    this.#authorization = `Bearer ${options.token}`;
  }

  /** Call one operation. */
  async call<Op extends AgentOperationName>(
    operation: Op,
    body: AgentOperations[Op]['request'],
    options: CallOptions,
  ): Promise<AgentOperations[Op]['response']> {
    let reply: unknown;
    try {
      reply = await this.#post(operation, JSON.stringify(body), options, false);
    } catch (error) {
      // A kept-alive socket the server had closed fails before anything reached it: once more on a fresh one.
      if (!(error instanceof StaleSocketError)) throw error;
      reply = await this.#post(operation, JSON.stringify(body), options, true);
    }
    return checkReply(operation, reply);
  }

  close(): void {
    this.#closed = true;
    for (const request of this.#inFlight) request.destroy();
    void this.#transport?.then(({ agent }) => agent.destroy()).catch(() => undefined);
  }

  #open(): Promise<{ transport: Transport; agent: Agent }> {
    // https (and tls) load only for an https URL.
    this.#transport ??= (this.#base.protocol === 'https:' ? import('node:https') : import('node:http')).then(
      (module) => {
        const transport = module as unknown as Transport;
        return { transport, agent: new transport.Agent({ keepAlive: true }) };
      },
    );
    return this.#transport;
  }

  async #post(operation: string, payload: string, options: CallOptions, retried: boolean): Promise<unknown> {
    const { transport, agent } = await this.#open();
    // Checked after the await: a signal that aborted meanwhile has no abort event left to fire.
    if (this.#closed) throw new StoreUnavailableError({ cause: new Error('the client is closed') });
    if (options.signal?.aborted) throw new StoreUnavailableError({ cause: new CallAbortedError() });
    const url = new URL(`${AGENT_API_PATH.slice(1)}${operation}`, this.#base);
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown, value?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.#inFlight.delete(request);
        if (error === undefined) resolve(value);
        else reject(error);
      };
      const request = transport.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: this.#authorization,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            accept: 'application/json',
          },
        },
        (response) => {
          readBody(response).then(
            (text) => {
              const status = response.statusCode ?? 0;
              try {
                finish(
                  status === 200 ? undefined : failure(status, text),
                  status === 200 ? parseJson(text) : undefined,
                );
              } catch (error) {
                finish(error);
              }
            },
            (error: unknown) => finish(new StoreUnavailableError({ cause: error })),
          );
        },
      );
      this.#inFlight.add(request);
      const timer = setTimeout(() => request.destroy(new CallTimeoutError()), options.timeoutMs);
      const onAbort = () => request.destroy(new CallAbortedError());
      options.signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!retried && request.reusedSocket && error.code === 'ECONNRESET') finish(new StaleSocketError());
        else finish(new StoreUnavailableError({ cause: error }));
      });
      request.end(payload);
    });
  }
}

/** The call took longer than its time-out. */
class CallTimeoutError extends Error {
  override readonly name = 'CallTimeoutError';
  readonly code = 'ETIMEDOUT';
}

/** The caller's signal aborted the call. */
class CallAbortedError extends Error {
  override readonly name = 'CallAbortedError';
  readonly code = 'ABORTED';
}

/** Internal: a reused keep-alive socket was reset before the request reached serve. */
class StaleSocketError extends Error {
  override readonly name = 'StaleSocketError';
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > RESPONSE_MAX_BYTES) response.destroy(new Error(`response over ${RESPONSE_MAX_BYTES} bytes`));
      else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('response aborted')));
  });
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object') return value;
  } catch {
    // below
  }
  throw new AgentApiError('bad-response', 'serve answered with something that is not a JSON object');
}

/** The error for a non-200 answer: the API's own code and line when the body is one, else the status. */
function failure(status: number, text: string): Error {
  let code: string | undefined;
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') code = body.error.code.slice(0, 40);
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 300);
  } catch {
    // Not ours (a proxy's page): the status says enough.
  }
  if (status === 401) return new TokenRefusedError(message ?? 'serve refused the token (HTTP 401)');
  if (status === 403 && code === 'agents-only')
    return new AgentsOnlyTokenError(message ?? 'the token is for agents only');
  if (status === 422 && code === 'invalid-answer') return new InvalidAnswerError(message ?? 'serve refused the answer');
  if (status === 403 && code === 'host-refused') return new AgentApiError(code, message ?? 'serve refused the host');
  if (status === 403) return new ProjectRefusedError(message ?? 'the token does not reach this project (HTTP 403)');
  if (status === 502 || status === 503 || status === 504 || code === 'store-unavailable') {
    return new StoreUnavailableError({ cause: new AgentApiError(code ?? `HTTP ${status}`, `HTTP ${status}`) });
  }
  return new AgentApiError(code ?? `HTTP ${status}`, message ?? `serve answered HTTP ${status}`);
}
