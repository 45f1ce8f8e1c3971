import { CheckTimeoutError } from './check-timeout-error.js';

/** `work`, or `CheckTimeoutError` after `ms` (the work is left to fail on its own; its rejection is swallowed). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Why a connection or request failed, in words safe to print: a time-out, or the system error code
 * (`ECONNREFUSED`, `ENOTFOUND`, a TLS code). Never the error's message, which can quote a URL.
 */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof CheckTimeoutError) return `no answer within ${timeoutMs / 1000} s`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'ConnectTimeout')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code)) {
      if (code === 'ECONNREFUSED') return 'connection refused';
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${code})`;
      return code;
    }
    current = current.cause;
  }
  return error instanceof Error ? error.name : 'unknown error';
}
