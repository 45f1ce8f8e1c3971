/** Reading a request body: bounded; JSON for the actions, a form for sign-in. */
import type { IncomingMessage } from 'node:http';
import { RequestRefusedError } from './request-refused-error.js';

const BODY_MAX = 64 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > BODY_MAX) throw new RequestRefusedError(413, 'That request is too large.');
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    // The client went away mid-body: its doing, not the inbox's (a 4xx, never a 500 or an error log line).
    if (
      !(error instanceof RequestRefusedError) &&
      (request.destroyed || (error as { code?: unknown }).code === 'ECONNRESET')
    ) {
      throw new RequestRefusedError(400, 'The request ended before its body did.');
    }
    throw error;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body: `Content-Type: application/json` (a cross-site form cannot send it), parsed. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new RequestRefusedError(415, 'Send JSON (Content-Type: application/json).');
  }
  const text = await readBody(request);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestRefusedError(400, 'That request is not JSON.');
  }
}
