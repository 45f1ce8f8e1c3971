/**
 * OpenCode's own question tool (`question`), as ask-later mirrors it. Pure.
 *
 * OpenCode's `question.asked` event carries `{id, sessionID, questions: [{question, header, options: [{label,
 * description}], multiple?, custom?}]}`; it is parked like Claude Code's AskUserQuestion (one question, or a set with
 * a topic per header: `askInputFor`). Its reply (`POST /question/{id}/reply`, and the `question.replied` event) is
 * `answers: string[][]`, one list of picked labels (or the person's own text) per question.
 */
import { type Question, type Selection, selectionsOf } from '../../core/question.js';
import type { AskedQuestion } from '../claude-code/ask-user-question.js';
import { plainLabel, readAskUserQuestion } from '../claude-code/ask-user-question.js';

/** One pending request of OpenCode's question tool. */
export interface QuestionRequest {
  readonly id: string;
  readonly sessionID: string;
  readonly asked: readonly AskedQuestion[];
}

/** What the question's card says of its impact. */
export const OPENCODE_ASKED_IMPACT =
  "The agent asked this in OpenCode (its question tool) and waits for the answer; answer here or in OpenCode's " +
  'own prompt, whichever comes first.';

/** The event's properties as a request, or a reason they cannot be read. */
export function readQuestionRequest(properties: unknown): QuestionRequest | string {
  const fields = (properties ?? {}) as Record<string, unknown>;
  if (typeof fields.id !== 'string' || fields.id === '') return 'the question request has no id';
  if (typeof fields.sessionID !== 'string') return 'the question request has no sessionID';
  const questions = Array.isArray(fields.questions)
    ? fields.questions.map((question) =>
        question !== null && typeof question === 'object'
          ? { ...question, multiSelect: (question as { multiple?: unknown }).multiple === true }
          : question,
      )
    : fields.questions;
  const asked = readAskUserQuestion({ questions });
  if (typeof asked === 'string') return asked;
  return { id: fields.id, sessionID: fields.sessionID, asked };
}

/** The context a mirrored question is parked with: the questions themselves, as OpenCode shows them. */
export function questionContext(asked: readonly AskedQuestion[]): string {
  return asked
    .map((question) => (question.header === undefined ? question.question : `${question.header}: ${question.question}`))
    .join('\n\n');
}

function labelsOf(asked: AskedQuestion, selection: Selection): string[] {
  const labels = selection.choices.map(
    (choice) => asked.options.find((option) => plainLabel(option.label) === choice)?.label ?? choice,
  );
  const notes = selection.notes?.trim() ?? '';
  if (selection.other) labels.push(notes === '' ? 'Other' : notes);
  else if (notes !== '') labels.push(`Notes: ${notes}`);
  for (const note of selection.choiceNotes ?? []) labels.push(`Notes on ${note.choice}: ${note.notes.trim()}`);
  return labels;
}

/** The reply OpenCode's question tool takes for the person's answer: per question, the labels as the model wrote them. */
export function replyAnswers(asked: readonly AskedQuestion[], question: Question): string[][] {
  if (question.answer === undefined) return asked.map(() => []);
  const selections = selectionsOf(question.answer);
  return asked.map((each, index) => {
    const selection = selections[index];
    return selection === undefined ? [] : labelsOf(each, selection);
  });
}

/** OpenCode's reply as the inbox's answer: labels that are options are picked, anything else is Other's text. */
export function selectionFromReply(asked: AskedQuestion, answers: readonly string[]): Selection {
  const labels = new Set(asked.options.map((option) => plainLabel(option.label)));
  const picked = answers.map(plainLabel);
  const choices = asked.options.map((option) => plainLabel(option.label)).filter((label) => picked.includes(label));
  const own = picked.filter((answer) => !labels.has(answer)).join('\n');
  if (own === '') return { choices: asked.multiSelect ? choices : choices.slice(0, 1), other: false };
  // One pick on a single-select question: the person's own words are that pick.
  return { choices: asked.multiSelect ? choices : [], other: true, notes: own };
}
