/**
 * The web inbox's server-sent events: one `message` (data: a question ref) whenever a question may have changed, from
 * the web surface's notices; for a blocking question just parked, one `blocking` event too (data: JSON with its ref
 * and project name), on which the page may raise a desktop notification; and a heartbeat comment so proxies and
 * browsers keep the stream open. A person signed in for some projects hears only of theirs: a notice whose project
 * is unknown or out of their reach is not sent to them; and at each heartbeat their sign-in is checked again, so a
 * revoked or expired token ends the stream (the page's next request then asks them to sign in).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { projectName } from '../../render/web/format.js';
import { type Actor, reachesProject } from '../access.js';
import type { ChangeDetails } from '../store-changes.js';
import { COMMON_HEADERS } from './respond.js';
import type { WebSurface } from './surface.js';

export interface EventStreams {
  /**
   * Stream the changes `actor` may hear of. `stillSignedIn`, for a person signed in with their own token: asked at
   * each heartbeat; false ends the stream.
   */
  open(request: IncomingMessage, response: ServerResponse, actor: Actor, stillSignedIn?: () => Promise<boolean>): void;
  /** End every open stream (the HTTP server would otherwise wait for them). */
  close(): void;
}

/** Whether a notice may reach the actor's page. */
function heard(actor: Actor, details: ChangeDetails): boolean {
  if (actor.projects === undefined) return true;
  return details.project !== undefined && reachesProject(actor, details.project);
}

export function eventStreams(surface: WebSurface, heartbeatMs: number): EventStreams {
  const streams = new Set<ServerResponse>();
  return {
    open(request, response, actor, stillSignedIn) {
      response.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.write('retry: 3000\n: connected\n\n');
      streams.add(response);
      const unsubscribe = surface.subscribe((ref, details) => {
        if (!heard(actor, details)) return;
        // Refs are `<16 url-safe chars>.<digits>`: nothing in them can break an event's framing.
        response.write(`data: ${ref}\n\n`);
        if (details.blockingParked === true && details.project !== undefined) {
          // JSON escapes every line break: one `data:` line.
          response.write(
            `event: blocking\ndata: ${JSON.stringify({ ref, project: projectName(details.project) })}\n\n`,
          );
        }
      });
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(response);
      };
      heartbeat = setInterval(() => {
        response.write(': ping\n\n');
        // A store that cannot say keeps the stream: the page's own requests are refused if the token is gone.
        stillSignedIn?.().then(
          (yes) => {
            if (yes || response.writableEnded) return;
            end(); // nothing more is written to it
            response.end();
          },
          () => undefined,
        );
      }, heartbeatMs);
      heartbeat.unref();
      request.once('close', end);
      response.once('close', end);
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
