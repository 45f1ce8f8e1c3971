/** How the agent API answers: JSON, never cached; failures as `{"error": {"code", "message"}}` (protocol.ts). */
import type { ServerResponse } from 'node:http';
import { InvalidAnswerError } from '../../core/invalid-answer-error.js';
import { CorruptRecordError } from '../../store/corrupt-record-error.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { type AgentErrorBody, type AgentErrorCode, ERROR_STATUS } from '../../store/http/protocol.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { AgentRequestError } from './agent-request-error.js';

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (response.headersSent) {
    response.end();
    return;
  }
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  response.end(payload);
}

/** What a failure becomes on the wire: the code and the one line the caller reads. */
export function failureOf(error: unknown): { readonly code: AgentErrorCode; readonly message: string } {
  if (error instanceof AgentRequestError) return { code: error.code, message: error.message };
  // The question cannot take that pick or those notes: the reason, for the person who sent them (never logged).
  if (error instanceof InvalidAnswerError) return { code: 'invalid-answer', message: error.message };
  if (error instanceof ProjectRefusedError) return { code: 'forbidden', message: error.message };
  if (error instanceof StoreUnavailableError) {
    return { code: 'store-unavailable', message: 'serve cannot reach its store right now; nothing was done' };
  }
  if (error instanceof CorruptRecordError)
    return { code: 'internal', message: `stored question ${error.record} is unreadable` };
  return { code: 'internal', message: 'serve failed unexpectedly; nothing more is known here' };
}

export function sendFailure(response: ServerResponse, failure: { code: AgentErrorCode; message: string }): void {
  const body: AgentErrorBody = { error: failure };
  const headers: Record<string, string> =
    failure.code === 'unauthorized' ? { 'www-authenticate': 'Bearer realm="ask-later"' } : {};
  sendJson(response, ERROR_STATUS[failure.code], body, headers);
}
