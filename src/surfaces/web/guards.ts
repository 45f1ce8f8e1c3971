/**
 * What every web inbox request must pass before it is read: the Host / Origin rule of every entry point
 * (`surfaces/origin-rule.ts`: a site that rebinds its DNS name to 127.0.0.1 cannot read the page or act through it),
 * and for what changes anything, the page's own origin (`Origin` and `Sec-Fetch-Site`, when sent).
 */
import type { IncomingMessage } from 'node:http';
import { RequestRefusedError } from './request-refused-error.js';

/** Refuse a request another site's page made: its `Origin` must be this host, `Sec-Fetch-Site` same-origin. */
export function checkSameOrigin(request: IncomingMessage): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new RequestRefusedError(403, 'Only the inbox page itself can do that.');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = request.headers.host ?? '';
  if (origin !== `http://${host}` && origin !== `https://${host}`) {
    throw new RequestRefusedError(403, 'Only the inbox page itself can do that.');
  }
}
