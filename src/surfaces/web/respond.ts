/** How the web inbox answers: HTML pages under a strict CSP, JSON, plain text; never cached. */
import type { ServerResponse } from 'node:http';

/**
 * Headers every answer carries. `same-origin`, not `no-referrer`: under `no-referrer` a browser posts the page's own
 * forms (sign-in, sign-out) with `Origin: null`, which the origin rule refuses; under `same-origin` the page's own
 * requests name their origin and no other site is ever sent a referrer.
 */
export const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' } as const;

/** A page's headers: only this origin's script and stylesheet, never framed. */
export const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
} as const;

export function sendHtml(response: ServerResponse, status: number, page: string): void {
  response.writeHead(status, { ...COMMON_HEADERS, ...HTML_HEADERS });
  response.end(page);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

export function methodNotAllowed(response: ServerResponse, allow: string): void {
  response.writeHead(405, { ...COMMON_HEADERS, allow, 'content-type': 'text/plain; charset=utf-8' });
  response.end('Method not allowed.');
}
