/**
 * pi's ask-the-user tools, as ask-later parks them. Pure.
 *
 * pi-question's `question` tool (and its peers shaped like it) takes `{questions: [{questionTopic, prompt, type,
 * options: [{value, label, description, recommended}]}]}`; a call is parked like Claude Code's AskUserQuestion (one
 * question, or a set with a topic per `questionTopic`: `askInputFor`) and the tool is blocked with the receipt.
 */
import type { AskedQuestion } from '../claude-code/ask-user-question.js';

/** What the question's card says of its impact. */
export const PI_ASKED_IMPACT =
  'The agent asked this in pi (its question tool) and goes on with work that does not depend on it; what depends ' +
  'on the answer waits for it.';

/** The `type`s of pi-question that let the person pick more than one option. */
const MULTI_TYPES = new Set(['multi', 'multiple', 'multi-select', 'multiselect', 'checkbox', 'checkboxes']);

/** Whether a tool call looks like pi-question's `question`: a `questions` list of objects with a `prompt`. */
export function looksLikePiQuestion(input: unknown): boolean {
  const questions = (input as { questions?: unknown } | null)?.questions;
  return (
    Array.isArray(questions) &&
    questions.length > 0 &&
    questions.every(
      (q) => q !== null && typeof q === 'object' && typeof (q as { prompt?: unknown }).prompt === 'string',
    )
  );
}

/** The call's questions as ask-later reads an agent's own questions, or a reason they cannot be read. */
export function readPiQuestion(input: unknown): readonly AskedQuestion[] | string {
  if (!looksLikePiQuestion(input)) return 'the tool input has no `questions` list of prompts';
  const questions = (input as { questions: Record<string, unknown>[] }).questions;
  const asked: AskedQuestion[] = [];
  for (const [index, raw] of questions.entries()) {
    const where = `questions[${index}]`;
    const topic = raw.questionTopic;
    if (topic !== undefined && typeof topic !== 'string') return `${where}.questionTopic is not text`;
    const options = raw.options ?? [];
    if (!Array.isArray(options)) return `${where}.options is not a list`;
    const read: { label: string; description?: string }[] = [];
    for (const [at, option] of options.entries()) {
      const fields = (option ?? {}) as Record<string, unknown>;
      const label = typeof fields.label === 'string' ? fields.label : fields.value;
      if (typeof label !== 'string') return `${where}.options[${at}] has no label`;
      const description = fields.description;
      if (description !== undefined && typeof description !== 'string') {
        return `${where}.options[${at}].description is not text`;
      }
      read.push({
        label: fields.recommended === true ? `${label} (Recommended)` : label,
        ...(description === undefined ? {} : { description }),
      });
    }
    asked.push({
      question: raw.prompt as string,
      ...(typeof topic === 'string' && topic.trim() !== '' ? { header: topic } : {}),
      options: read,
      multiSelect: typeof raw.type === 'string' && MULTI_TYPES.has(raw.type.toLowerCase()),
    });
  }
  return asked;
}

/** The tool result's text (the block reason) for a parked call: the model reads it instead of an answer. */
export function parkedReason(id: number, blockingNote: string): string {
  return (
    `ask-later parked this question for the person as #${id} instead of waiting at the terminal (they answer it in ` +
    `the team's inbox). ${blockingNote} The answer arrives with a later prompt or tool result, marked as coming ` +
    'from ask-later; do not ask it again.'
  );
}
