/**
 * What one check found: a status and one line for a person, with the fix when something is wrong. No line ever
 * quotes a token, a password or a URL: settings are named by their variable (`REDIS_URL`, `SLACK_BOT_TOKEN`).
 */

/** `ok`: fine. `warn`: worth fixing, but nothing needed is broken (exit 0). `fail`: something needed is wrong. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckLine {
  readonly status: CheckStatus;
  /** One line, without the mark. */
  readonly text: string;
}

export const ok = (text: string): CheckLine => ({ status: 'ok', text });
export const warn = (text: string): CheckLine => ({ status: 'warn', text });
export const fail = (text: string): CheckLine => ({ status: 'fail', text });

const MARKS: Record<CheckStatus, string> = { ok: '✓', warn: '⚠', fail: '✗' };

/** `✓ Redis 7.2.4 at REDIS_URL, AOF on` */
export function formatLine(line: CheckLine): string {
  return `${MARKS[line.status]} ${line.text}`;
}

/** Every network call's time-out: doctor answers within a few seconds whatever is down. */
export const NETWORK_TIMEOUT_MS = 3000;
