/** Reading a JSON request body: bounded, `application/json` only, one line for what was wrong. */
import type { IncomingMessage } from 'node:http';
import { AgentRequestError } from './agent-request-error.js';

export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AgentRequestError(
      'unsupported-media-type',
      `expected Content-Type application/json, got ${type || 'none'}`,
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new AgentRequestError('too-large', `the body may take at most ${maxBytes} bytes, got ${declared}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new AgentRequestError('too-large', `the body may take at most ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    // The caller went away mid-body: its doing (a 400 in the metrics, logged at info), never an internal error.
    if (
      !(error instanceof AgentRequestError) &&
      (request.destroyed || (error as { code?: unknown }).code === 'ECONNRESET')
    ) {
      throw new AgentRequestError('bad-request', 'the request ended before its body did');
    }
    throw error;
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new AgentRequestError('bad-request', 'the body is not JSON');
  }
}
