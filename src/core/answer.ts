/**
 * The ready-answer rule: what a person's selection must be before it can be sent as the answer to a question.
 * Pure; the store calls {@link checkAnswer} before it answers, and the renderers show {@link answerReadiness} as the
 * ready mark (ready / pick one / needs a note).
 */
import { NOTES_MAX } from './limits.js';
import { type ChoiceNote, OTHER_LABEL, type QuestionItem, type Selection } from './question.js';

/**
 * The ready mark of a selection:
 * - `ready`: one option (several when `multiSelect`) and/or `Other`, and `Other` has notes;
 * - `pick-one`: nothing picked, or more than one pick on a single-select question;
 * - `needs-note`: `Other` is picked but the notes are blank (it would say nothing).
 */
export type Readiness = 'ready' | 'pick-one' | 'needs-note';

/** What the rule needs to know about the question (a single question, or one member of a set). */
export type AnswerTarget = Pick<QuestionItem, 'options' | 'multiSelect'>;

/** Outcome of {@link checkAnswer}: the normalised selection, or why it cannot be sent. */
export type AnswerCheck =
  | { readonly ok: true; readonly selection: Selection }
  | { readonly ok: false; readonly reason: string };

/**
 * The ready mark of a draft. It counts picks and looks at the notes only: whether the choices are the question's
 * labels, appear once and fit the limits is {@link checkAnswer}'s job, so a `ready` draft can still be refused there.
 */
export function answerReadiness(question: AnswerTarget, selection: Selection): Readiness {
  const picks = selection.choices.length + (selection.other ? 1 : 0);
  if (picks === 0 || (!question.multiSelect && picks > 1)) {
    return 'pick-one';
  }
  if (selection.other && isBlank(selection.notes)) {
    return 'needs-note';
  }
  return 'ready';
}

/**
 * Whether a selection may be sent as the answer, and the form to store: choices in the options' order, notes
 * trimmed and left out when blank, notes per option kept for picked options only (in the options' order, blank ones
 * left out). Refused: a choice that is not one of the options' labels, a choice given twice, more than one pick in
 * total (option or `Other`) on a single-select question, notes per option on a single-select question or for an
 * option that is not one of the labels, any notes over {@link NOTES_MAX} characters (after trimming), and anything
 * {@link answerReadiness} does not call `ready`. The reason says what was expected and what came, for the person or
 * the model that sent it.
 */
export function checkAnswer(question: AnswerTarget, selection: Selection): AnswerCheck {
  const labels = question.options.map((option) => option.label);
  const seen = new Set<string>();
  for (const choice of selection.choices) {
    if (!labels.includes(choice)) {
      return refuse(`Expected each choice to be one of the options ${quoteAll(labels)}, got ${quote(choice)}`);
    }
    if (seen.has(choice)) {
      return refuse(`Expected each choice once, got ${quote(choice)} more than once`);
    }
    seen.add(choice);
  }

  const picks = [...selection.choices.map(quote), ...(selection.other ? [OTHER_LABEL] : [])];
  if (!question.multiSelect && picks.length > 1) {
    return refuse(
      `Expected one pick (an option or ${OTHER_LABEL}) on a single-select question, got ${picks.length}: ${picks.join(', ')}`,
    );
  }

  const notes = selection.notes?.trim() ?? '';
  if (notes.length > NOTES_MAX) {
    return refuse(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  const choiceNotes = checkChoiceNotes(question, labels, seen, selection.choiceNotes ?? []);
  if (typeof choiceNotes === 'string') return refuse(choiceNotes);

  switch (answerReadiness(question, selection)) {
    case 'pick-one':
      return refuse(`Expected a choice (one of ${quoteAll(labels)}) or ${OTHER_LABEL} with notes, got nothing`);
    case 'needs-note':
      return refuse(`Expected notes with ${OTHER_LABEL} saying what the answer is, got none`);
    case 'ready':
      break;
  }

  const normalised: Selection = {
    choices: labels.filter((label) => seen.has(label)),
    other: selection.other,
    ...(notes === '' ? {} : { notes }),
    ...(choiceNotes.length === 0 ? {} : { choiceNotes }),
  };
  return { ok: true, selection: normalised };
}

/**
 * Notes per option, checked: only on a multi-select, only for the question's labels, once each, each within
 * {@link NOTES_MAX}. Returns the notes of the `picked` options (trimmed, blank ones dropped, in the options' order),
 * or why they are refused. Notes of options not picked are dropped: a draft keeps them while the person changes their
 * mind, an answer carries only what was picked.
 */
export function checkChoiceNotes(
  question: AnswerTarget,
  labels: readonly string[],
  picked: ReadonlySet<string>,
  choiceNotes: readonly ChoiceNote[],
): ChoiceNote[] | string {
  if (choiceNotes.length === 0) return [];
  if (!question.multiSelect) {
    return 'Expected notes per option only on a multi-select question (a single-select answer has one set of notes)';
  }
  const byChoice = new Map<string, string>();
  for (const { choice, notes } of choiceNotes) {
    if (!labels.includes(choice)) {
      return `Expected notes per option for the options ${quoteAll(labels)}, got notes for ${quote(choice)}`;
    }
    if (byChoice.has(choice)) return `Expected notes for ${quote(choice)} once, got them more than once`;
    const trimmed = notes.trim();
    if (trimmed.length > NOTES_MAX) {
      return `Expected the notes for ${quote(choice)} to be at most ${NOTES_MAX} characters, got ${trimmed.length}`;
    }
    byChoice.set(choice, trimmed);
  }
  return labels.flatMap((choice) => {
    const notes = byChoice.get(choice);
    return picked.has(choice) && notes ? [{ choice, notes }] : [];
  });
}

/**
 * The picked answer as one line of text for people and the agent: the chosen labels in the options' order,
 * then `Other`, joined with ", " (`Use Postgres`, `Use Postgres, Use Redis`, `Other`). Notes are not part of it.
 * A selection with nothing picked reads `nothing picked`.
 */
export function describeSelection(question: Pick<QuestionItem, 'options'>, selection: Selection): string {
  const order = new Map(question.options.map((option, index) => [option.label, index]));
  const rank = (label: string): number => order.get(label) ?? order.size;
  const choices = [...selection.choices].sort((a, b) => rank(a) - rank(b));
  const parts = selection.other ? [...choices, OTHER_LABEL] : choices;
  return parts.length === 0 ? 'nothing picked' : parts.join(', ');
}

function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim() === '';
}

function refuse(reason: string): AnswerCheck {
  return { ok: false, reason };
}

function quote(text: string): string {
  return JSON.stringify(text);
}

function quoteAll(labels: readonly string[]): string {
  return labels.map(quote).join(', ');
}
