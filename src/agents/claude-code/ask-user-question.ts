/**
 * Claude Code's own question tool, `AskUserQuestion`, as ask-later reads and answers it. Pure.
 *
 * The tool's input is `{questions: [{question, header, options: [{label, description}], multiSelect}]}` (1 to 4
 * questions). ask-later parks it as one question, or as a set whose topics are the headers; an option labelled
 * `… (Recommended)` becomes the recommendation, shown without the suffix. The answer goes back either as the
 * tool's own result (`answers`: question text → the labels as the model wrote them, joined with ", ") or, when the
 * tool was denied with the parked id, through ask-later's delivery paths.
 */
import { type Question, type QuestionItem, type Selection, selectionsOf } from '../../core/question.js';

export const ASK_USER_QUESTION = 'AskUserQuestion';

/** One question as the model asked it. */
export interface AskedQuestion {
  readonly question: string;
  /** A short label (Claude Code shows it as a chip); absent when the model left it out. */
  readonly header?: string;
  readonly options: readonly { readonly label: string; readonly description?: string }[];
  readonly multiSelect: boolean;
}

/** What Claude Code shows as its hint that an option is the one the model suggests. */
const RECOMMENDED_SUFFIX = /\s*\(recommended\)\s*$/i;

/** An option's label without the `(Recommended)` suffix. */
export function plainLabel(label: string): string {
  return label.replace(RECOMMENDED_SUFFIX, '');
}

/**
 * The tool's input (an object from a command hook's stdin, or the JSON string an `mcp_tool` hook's template makes of
 * it) as questions, or a reason it cannot be read.
 */
export function readAskUserQuestion(toolInput: unknown): readonly AskedQuestion[] | string {
  let input = toolInput;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return 'the tool input is not JSON';
    }
  }
  const questions = (input as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(questions) || questions.length === 0) return 'the tool input has no `questions` list';
  const read: AskedQuestion[] = [];
  for (const [index, raw] of questions.entries()) {
    const where = `questions[${index}]`;
    if (raw === null || typeof raw !== 'object') return `${where} is not an object`;
    const { question, header, options, multiSelect } = raw as Record<string, unknown>;
    if (typeof question !== 'string') return `${where}.question is not text`;
    if (header !== undefined && typeof header !== 'string') return `${where}.header is not text`;
    if (!Array.isArray(options)) return `${where}.options is not a list`;
    const parsedOptions: { label: string; description?: string }[] = [];
    for (const [at, option] of options.entries()) {
      const label = (option as { label?: unknown } | null)?.label;
      const description = (option as { description?: unknown } | null)?.description;
      if (typeof label !== 'string') return `${where}.options[${at}].label is not text`;
      if (description !== undefined && typeof description !== 'string') {
        return `${where}.options[${at}].description is not text`;
      }
      parsedOptions.push(description === undefined || description === '' ? { label } : { label, description });
    }
    read.push({
      question,
      ...(typeof header === 'string' && header.trim() !== '' ? { header: header.trim() } : {}),
      options: parsedOptions,
      multiSelect: multiSelect === true,
    });
  }
  return read;
}

/** One question's pickable part as `ask_later` takes it: plain labels, the suggested one(s) as `recommended`. */
function itemInput(asked: AskedQuestion): Record<string, unknown> {
  const suggested = asked.options
    .filter((option) => RECOMMENDED_SUFFIX.test(option.label))
    .map((o) => plainLabel(o.label));
  // One suggestion on a single-select question: the first, as Claude Code's own dialog would show it.
  const recommended = asked.multiSelect ? suggested : suggested.slice(0, 1);
  return {
    question: asked.question,
    options: asked.options.map((option) => ({ ...option, label: plainLabel(option.label) })),
    ...(recommended.length === 0 ? {} : { recommended: asked.multiSelect ? recommended : recommended[0] }),
    multiSelect: asked.multiSelect,
    isBlocking: true,
  };
}

/**
 * `ask_later`'s arguments for what the model asked: one question, or a set (2 or more) with a topic per header.
 * Parsing them (`core/ask-input.ts`) applies every rule `ask_later` has.
 */
export function askInputFor(asked: readonly AskedQuestion[], context: string, impact: string): Record<string, unknown> {
  const [only] = asked;
  if (asked.length === 1 && only !== undefined) return { context, impact, ...itemInput(only) };
  return {
    context,
    impact,
    questions: asked.map((question, index) => ({
      topic: question.header ?? `Question ${index + 1}`,
      ...itemInput(question),
    })),
  };
}

/** What the question's card says of its impact: the agent's session is waiting on it. */
export const ASKED_IMPACT =
  'The agent asked this in Claude Code (AskUserQuestion) and goes on with work that does not depend on it; ' +
  'what depends on the answer waits for it.';

/** The labels the model wrote for the options the person picked (its own `(Recommended)` suffix included). */
function modelLabels(asked: AskedQuestion, item: QuestionItem, selection: Selection): string[] {
  return selection.choices.map((choice) => {
    const index = item.options.findIndex((option) => option.label === choice);
    const label = asked.options[index]?.label ?? choice;
    const notes = selection.choiceNotes?.find((note) => note.choice === choice)?.notes.trim();
    return notes ? `${label} (notes: ${notes})` : label;
  });
}

/**
 * The `answers` Claude Code's AskUserQuestion takes in `updatedInput`: each question's text → the labels picked
 * (joined with ", "), the person's own words for Other, and their notes after " — notes: ".
 */
export function toolAnswers(asked: readonly AskedQuestion[], question: Question): Record<string, string> {
  const answers: Record<string, string> = {};
  if (question.answer === undefined) return answers;
  const selections = selectionsOf(question.answer);
  const items = question.members ?? [question];
  asked.forEach((each, index) => {
    const item = items[index];
    const selection = selections[index];
    if (item === undefined || selection === undefined) return;
    const notes = selection.notes?.trim() ?? '';
    const picked = modelLabels(each, item, selection);
    // Other's text is the person's answer itself; notes beside picked options travel after them.
    if (selection.other) picked.push(notes === '' ? 'Other' : notes);
    const text = picked.join(', ');
    answers[each.question] = !selection.other && notes !== '' ? `${text} — notes: ${notes}` : text;
  });
  return answers;
}
