/**
 * A small HTTP server in front of a fake: it forwards every request, and lets a test answer some of them itself.
 * Doctor's tests need two answers the fakes do not give: a Slack channel the bot is not in (FakeSlackApi always says
 * `is_member: true`), and Discord's `GET /users/@me`, `/applications/@me`, `/channels/{id}` and the command
 * listings (FakeDiscord has no routes for them).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Forwarded {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
}

export interface OverlayRequest {
  readonly method: string;
  /** Path and query, as received. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answer a request: call `forward()` to get the fake's answer, or answer without it. */
export type OverlayHandler = (request: OverlayRequest, forward: () => Promise<Forwarded>) => Promise<Forwarded>;

export interface Overlay {
  readonly url: string;
  stop(): Promise<void>;
}

export function json(status: number, body: unknown): Forwarded {
  return { status, body: JSON.stringify(body), contentType: 'application/json' };
}

export async function startOverlay(target: string, handle: OverlayHandler): Promise<Overlay> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: OverlayRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    const forward = async (): Promise<Forwarded> => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const response = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers,
        ...(request.body !== '' ? { body: request.body } : {}),
      });
      return {
        status: response.status,
        body: await response.text(),
        contentType: response.headers.get('content-type') ?? 'application/json',
      };
    };
    const answer = await handle(request, forward);
    res.writeHead(answer.status, { 'content-type': answer.contentType });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
