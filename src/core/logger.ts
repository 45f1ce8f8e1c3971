/**
 * The bridge's logger: structured fields only. Callers pass ids, statuses, counts and timings; never question,
 * answer or note text, never a token. (`serve` hands in pino; tests hand in a recorder.)
 */
export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What may be logged about an error: its name and code, not its message (which can quote a payload). */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const code = (error as { code?: unknown }).code;
  return { error: error.name, ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}) };
}
