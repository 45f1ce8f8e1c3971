/**
 * The web inbox's server-sent events: one `message` (data: a question ref) whenever a question may have changed, from
 * the web surface's notices, and a heartbeat comment so proxies and browsers keep the stream open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS } from './respond.js';
import type { WebSurface } from './surface.js';

export interface EventStreams {
  open(request: IncomingMessage, response: ServerResponse): void;
  /** End every open stream (the HTTP server would otherwise wait for them). */
  close(): void;
}

export function eventStreams(surface: WebSurface, heartbeatMs: number): EventStreams {
  const streams = new Set<ServerResponse>();
  return {
    open(request, response) {
      response.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.write('retry: 3000\n: connected\n\n');
      streams.add(response);
      const unsubscribe = surface.subscribe((ref) => {
        // Refs are `<16 url-safe chars>.<digits>`: nothing in them can break an event's framing.
        response.write(`data: ${ref}\n\n`);
      });
      const heartbeat = setInterval(() => response.write(': ping\n\n'), heartbeatMs);
      heartbeat.unref();
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(response);
      };
      request.once('close', end);
      response.once('close', end);
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
