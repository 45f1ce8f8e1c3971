/**
 * Which prompts carry answers (BRIEF "Delivery"): only those the person typed. Shared by the `ask-later hook`
 * command and `collect_answers` called by a `UserPromptSubmit` hook.
 */

/** Sources whose prompts the person typed (or an SDK caller sent on their behalf): only these carry answers. */
const PERSON_SOURCES: ReadonlySet<unknown> = new Set(['user', 'sdk']);

/**
 * Whether this prompt carries answers: the person typed it. Claude Code's `source` may be absent (older versions)
 * or empty (an `mcp_tool` hook's template of a missing field): that counts as typed. Background-task notifications
 * (a waiter waking the session included) arrive as prompts starting with `<task-notification>`.
 */
export function carriesAnswers(input: { readonly prompt: string; readonly source?: unknown }): boolean {
  if (input.source !== undefined && input.source !== '' && !PERSON_SOURCES.has(input.source)) return false;
  return !input.prompt.trimStart().startsWith('<task-notification>');
}
