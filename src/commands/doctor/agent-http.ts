/**
 * The agent side over HTTP (`ASK_LATER_URL` + `ASK_LATER_TOKEN`, or the plugin's settings): serve answers at the
 * URL, it accepts the token, and which projects the token reaches (and whether this directory's project is one).
 * One call (`whoami`) through the same client the agents use. Never prints the token or more of the URL than its
 * origin.
 */
import { describeServeUrl } from '../../config/agent.js';
import { matchesProject } from '../../core/project-pattern.js';
import { AgentApiError } from '../../store/http/agent-api-error.js';
import { openHttpStore } from '../../store/http/http-store.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import type { HttpStoreLocation } from '../../store/open.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { type CheckLine, fail, ok, warn } from './check.js';
import { describeNetworkError, withDeadline } from './deadline.js';

/** A token expiring sooner than this is worth a warning. */
const EXPIRY_WARNING_MS = 7 * 24 * 60 * 60 * 1000;

export async function checkAgentHttp(
  location: HttpStoreLocation,
  project: string,
  timeoutMs: number,
): Promise<CheckLine[]> {
  const where = `ask-later serve at ${describeServeUrl(location.url)}`;
  const lines: CheckLine[] = [];
  if (plainOverNetwork(location.url)) {
    lines.push(
      warn(
        `${where}: http:// beyond this machine sends the token in clear — put serve behind https:// (a proxy or a load balancer)`,
      ),
    );
  }
  const store = await openHttpStore({ url: location.url, token: location.token, timeoutMs });
  try {
    const who = await withDeadline(store.whoami(), timeoutMs + 250);
    const expires =
      who.expiresAt === null ? '' : `; it expires on ${new Date(who.expiresAt).toISOString().slice(0, 10)}`;
    lines.push(
      ok(`${where} accepts the token "${who.name}" (id ${who.id}), which reaches ${who.patterns.join(', ')}${expires}`),
    );
    if (who.expiresAt !== null && who.expiresAt - Date.now() < EXPIRY_WARNING_MS) {
      lines.push(warn(`The token "${who.name}" expires within 7 days — ask for a new one (ask-later token create)`));
    }
    if (!who.patterns.some((pattern) => matchesProject(pattern, project))) {
      lines.push(
        warn(
          `This directory's project ${project} is not among the token's patterns — the agents here are refused (403); ask for a token that reaches it, or set ASK_LATER_PROJECT`,
        ),
      );
    }
  } catch (error) {
    lines.push(fail(explain(error, where, timeoutMs)));
  } finally {
    await store.close();
  }
  return lines;
}

function explain(error: unknown, where: string, timeoutMs: number): string {
  if (error instanceof TokenRefusedError) {
    return `${where} refused the token (${error.message}) — create one with \`ask-later token create\` where serve's store is, and set ASK_LATER_TOKEN`;
  }
  if (error instanceof AgentApiError) {
    return `${where} answered, but not as ask-later's agent API (${error.code}) — is ASK_LATER_URL serve's address, and serve this version or newer?`;
  }
  const cause = error instanceof StoreUnavailableError ? error.cause : error;
  return `${where} is unreachable (${describeNetworkError(cause, timeoutMs)}) — is serve running there, and ASK_LATER_URL right?`;
}

/** An http:// URL to a host other than loopback. */
function plainOverNetwork(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname);
  } catch {
    return false;
  }
}
