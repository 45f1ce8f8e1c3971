/**
 * What `POST /slack/events` refuses before Bolt reads it: any other method (405 with `Allow: POST`; Bolt would answer
 * 500 and log an error, so anyone could raise serve's error rate), and a request stamped more than five minutes ahead
 * of this clock (Bolt refuses those five minutes behind; a replay must not be stored up for later either). Both are
 * someone else's mistake: logged at info or warn, never as serve's error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logger.js';

/** How far ahead of this clock a request's timestamp may be, in seconds (Bolt's bound on the past). */
export const FUTURE_SKEW_S = 5 * 60;

/** Answer and return true when the request is refused here; false when Bolt is to read it. */
export function refusedBeforeBolt(
  request: IncomingMessage,
  response: ServerResponse,
  log: Logger,
  nowMs: number = Date.now(),
): boolean {
  if (request.method !== 'POST') {
    log.info({ method: (request.method ?? '').slice(0, 10), status: 405 }, 'slack: not a POST');
    response.writeHead(405, { allow: 'POST' }).end();
    return true;
  }
  const header = request.headers['x-slack-request-timestamp'];
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  if (Number.isFinite(seconds) && seconds > nowMs / 1000 + FUTURE_SKEW_S) {
    log.warn({ status: 401 }, 'slack: request stamped in the future');
    response.writeHead(401).end();
    return true;
  }
  return false;
}
