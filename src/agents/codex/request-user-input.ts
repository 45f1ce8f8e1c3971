/**
 * Codex's own question tool, `request_user_input`, as ask-later reads it. Pure.
 *
 * Codex 0.169 offers it in Plan mode (and in Default mode with `features.default_mode_request_user_input`), with the
 * input `{questions: [{id, header, question, options: [{label, description}]}]}` (1 to 3 questions, single choice,
 * the suggested option labelled `… (Recommended)`): the shape of Claude Code's AskUserQuestion without
 * `multiSelect`, so it is read by the same code and parked the same way (one question, or a set whose topics are
 * the headers).
 */
import { askInputFor, readAskUserQuestion } from '../claude-code/ask-user-question.js';

export const REQUEST_USER_INPUT = 'request_user_input';

/** What the parked question's card says of its impact. */
export const REQUESTED_IMPACT =
  'The agent asked this in Codex (request_user_input) and goes on with work that does not depend on it; ' +
  'what depends on the answer waits for it.';

/**
 * `ask_later`'s arguments for the call's input (an object from the hook's stdin), or a reason it cannot be read.
 * The context is the questions themselves: Codex's hook payload carries no words of the model before the call.
 */
export function requestedInput(toolInput: unknown): Record<string, unknown> | string {
  const asked = readAskUserQuestion(toolInput);
  if (typeof asked === 'string') return asked;
  const context = ['The agent asked in Codex:', ...asked.map((question) => `- ${question.question}`)].join('\n');
  return askInputFor(asked, context, REQUESTED_IMPACT);
}
