/**
 * How a platform payload's limit failures read in an error: the first few zod issues as "limit: what (at where)".
 * Shared by the Slack and Discord renderers' assertions.
 */
import type { ZodError } from 'zod';

export function describePayloadIssues(error: ZodError): string {
  const shown = 5;
  const parts = error.issues.slice(0, shown).map((issue) => {
    const where = issue.path.reduce<string>(
      (path, key) =>
        typeof key === 'number' ? `${path}[${key}]` : path === '' ? String(key) : `${path}.${String(key)}`,
      '',
    );
    return where === '' ? issue.message : `${issue.message} (at ${where})`;
  });
  const more = error.issues.length - shown;
  return more > 0 ? `${parts.join('; ')}; and ${more} more` : parts.join('; ');
}
