/**
 * Which `Host` serve answers as and which `Origin` may call it: one rule for every HTTP entry point of serve (the
 * web inbox, `/agent/v1/*`, `/mcp`, `/metrics`; not `/healthz`, which load balancers call by any name, nor Slack's
 * signed requests). It keeps a page on another site from reaching serve through the person's browser: the MCP
 * transport's rule (servers MUST validate `Origin`) and DNS rebinding (a site whose name now resolves to 127.0.0.1).
 *
 * - `Host`: a loopback name (`localhost`, `127.x.x.x`, `[::1]`), an IP address (a rebinding needs a DNS name: a page
 *   reached by address has that address as its own origin), or the host of `ASK_LATER_PUBLIC_URL`, any port.
 * - `Origin`, when sent: a loopback page (any port), serve's own page (the origin of the request's `Host`), or
 *   `ASK_LATER_PUBLIC_URL`'s origin. `null` and anything else is a foreign page.
 *
 * Pure: headers in, the refusal's one line out (the caller answers 403 in its own format).
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface OriginRuleOptions {
  /** `ASK_LATER_PUBLIC_URL`: the address people and agents reach serve at, e.g. `https://ask-later.example.com`. */
  readonly publicUrl?: string;
}

/** The request's headers the rule reads. */
export interface RequestHeaders {
  readonly host?: string | undefined;
  readonly origin?: string | undefined;
}

export interface OriginRule {
  /** Why the request is refused (one line for the caller), or undefined when it may go on. */
  refusal(headers: RequestHeaders): string | undefined;
}

/** The host name of a `Host` header (`[::1]:7420` → `[::1]`, `Example.COM:443` → `example.com`). */
export function hostName(host: string): string {
  const bracketed = /^(\[[^\]]*\])(?::\d+)?$/.exec(host);
  if (bracketed?.[1]) return bracketed[1].toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** Whether a host name (as {@link hostName} gives it, or a URL's `hostname`) is this machine's loopback. */
function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** Whether the `Host` header names this machine's loopback (`localhost`, `127.0.0.1`, `[::1]`, any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && host !== '' && isLoopbackName(hostName(host));
}

function isAddress(name: string): boolean {
  return isIPv4(name) || (name.startsWith('[') && name.endsWith(']') && isIPv6(name.slice(1, -1)));
}

/** The public URL's origin and host name, validated by the config. */
function publicParts(publicUrl: string | undefined): { origin: string; name: string } | undefined {
  if (publicUrl === undefined) return undefined;
  const url = new URL(publicUrl);
  return { origin: url.origin, name: url.hostname.toLowerCase() };
}

export const HOST_REFUSED =
  'serve answers only as localhost, 127.0.0.1, [::1], an IP address or the host of ASK_LATER_PUBLIC_URL: set ASK_LATER_PUBLIC_URL to the address people and agents reach it at';
export const ORIGIN_REFUSED =
  "a page of another site may not call serve (its Origin is not loopback, serve's own or ASK_LATER_PUBLIC_URL's)";

export function originRule(options: OriginRuleOptions = {}): OriginRule {
  const publicSide = publicParts(options.publicUrl);
  const hostAllowed = (host: string | undefined): boolean => {
    if (host === undefined || host === '') return false;
    const name = hostName(host);
    return isLoopbackName(name) || isAddress(name) || name === publicSide?.name;
  };
  const originAllowed = (origin: string, host: string): boolean => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const name = url.hostname.toLowerCase();
    return isLoopbackName(name) || url.host.toLowerCase() === host.toLowerCase() || url.origin === publicSide?.origin;
  };
  return {
    refusal(headers) {
      if (!hostAllowed(headers.host)) return HOST_REFUSED;
      if (headers.origin !== undefined && !originAllowed(headers.origin, headers.host ?? '')) return ORIGIN_REFUSED;
      return undefined;
    },
  };
}
