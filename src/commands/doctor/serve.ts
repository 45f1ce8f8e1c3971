/**
 * The embedded setup's most likely first mistake: `serve` is not running, so the web inbox (and any chat) is not
 * there to answer in. Asks its `/healthz` at the address it would bind; questions still park without it, and the
 * terminal inbox works, hence a ⚠ and not a ✗.
 */
import { type CheckLine, ok, warn } from './check.js';
import { describeNetworkError } from './deadline.js';

/** `address`: the web inbox as serve binds it, `http://127.0.0.1:7420/`. */
export async function checkServeAnswers(address: string, timeoutMs: number): Promise<CheckLine[]> {
  try {
    const response = await fetch(new URL('healthz', address), { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json().catch(() => undefined)) as { status?: unknown } | undefined;
    if (typeof body?.status !== 'string') {
      return [
        warn(`Serve: something else answers at ${address} (not ask-later serve) — stop it, or give serve another PORT`),
      ];
    }
    return [ok(`Serve: answers at ${address} (${body.status}): open it to answer questions`)];
  } catch (error) {
    return [
      warn(
        `Serve: not answering at ${address} (${describeNetworkError(error, timeoutMs)}) — start it with \`ask-later serve\` and keep it running; until then answer in this terminal with \`ask-later inbox\``,
      ),
    ];
  }
}
