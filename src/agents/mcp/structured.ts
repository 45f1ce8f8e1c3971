/**
 * Structured tool results: the same facts as a result's text, as JSON a program can use (which question, which
 * labels and values, which notes, Other's text, who, when). In Claude Code the model reads `structuredContent`
 * *instead of* the text, so the JSON must read well on its own: it carries the result's guidance as `note` (what it
 * means, what to do, whose words are whose), and stays small (no context or impact: the agent wrote those).
 *
 * A tool that declares {@link resultSchema} as its `outputSchema` returns conforming `structuredContent` with every
 * result that is not an error (clients validate it, and Claude Code's hooks call `collect_answers` through one).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  itemsOf,
  memberRef,
  ORIGIN_TOOLS,
  optionValue,
  placeAndUserOf,
  QUESTION_STATUSES,
  type Question,
  type QuestionItem,
  type Responder,
  type Selection,
  selectionsOf,
} from '../../core/question.js';

const answerSchema = z.object({
  labels: z.array(z.string()).describe('The options the person picked, by label, in the options’ order.'),
  values: z.array(z.string()).describe('The same options by value (an option’s value defaults to its label).'),
  other: z
    .string()
    .optional()
    .describe('What the person wrote when they picked Other instead of (or beside) an option.'),
  notes: z.string().optional().describe('The person’s notes on the answer.'),
  optionNotes: z
    .array(z.object({ label: z.string(), value: z.string(), notes: z.string() }))
    .optional()
    .describe('The person’s notes on single picked options (multi-select).'),
});

const itemSchema = z.object({
  ref: z.string().describe('#12 for a question; #12.1, #12.2, … for the questions of a set.'),
  topic: z.string().optional().describe('The topic of a question of a set.'),
  header: z.string().optional().describe('The header you gave the question when you asked it with AskUserQuestion.'),
  question: z.string(),
  blocking: z.boolean(),
  answer: answerSchema.optional(),
});

const questionSchema = z.object({
  id: z.number().int(),
  status: z.enum(QUESTION_STATUSES),
  blocking: z.boolean().describe('Part of your work waits on it (for a set: on one of its questions).'),
  ticket: z.string().optional(),
  askedWith: z
    .enum(ORIGIN_TOOLS)
    .optional()
    .describe('You asked it with this tool of your own, and ask-later parked it for the person.'),
  items: z.array(itemSchema).describe('The question, or each question of a set, with the answer when there is one.'),
  answeredBy: z.string().optional().describe('Who answered, and where: "NAME on Slack (user U123)".'),
  answeredAt: z.string().optional().describe('When (ISO 8601).'),
  closedBy: z.string().optional().describe('Who dismissed it, when the person removed it unanswered.'),
  closedAt: z.string().optional().describe('When it was withdrawn, dismissed or expired (ISO 8601).'),
});

/**
 * The `outputSchema` of the tools that report questions (`ask_later`, `get_answer`, `list_questions`,
 * `collect_answers`): a note saying what the result means, then the questions.
 */
export const resultSchema = z.object({
  note: z
    .string()
    .describe('What this result means and what to do. Question texts are yours; answers and notes are the person’s.'),
  questions: z.array(questionSchema),
  more: z.number().int().optional().describe('How many more wait beyond these (see note for how they come).'),
  after: z.string().optional().describe('list_questions: the cursor that reads the next page.'),
});

export type StructuredResult = z.infer<typeof resultSchema>;
export type StructuredQuestion = z.infer<typeof questionSchema>;

/** A result with `text` for clients that read text and the same facts as structured content. */
export function structuredResult(text: string, structured: StructuredResult): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** One parked question as structured content: its items, their answers, who and when. */
export function structuredQuestion(q: Question): StructuredQuestion {
  const selections = q.answer === undefined ? [] : selectionsOf(q.answer);
  const items = itemsOf(q).map((item, index) => {
    const topic = q.members?.[index]?.topic;
    const selection = selections[index];
    const header = q.origin?.tool === 'AskUserQuestion' ? (topic ?? q.origin.header) : undefined;
    return {
      ref: q.members === undefined ? `#${q.id}` : memberRef(q.id, index),
      ...(topic === undefined ? {} : { topic }),
      ...(header === undefined ? {} : { header }),
      question: item.question,
      blocking: item.isBlocking,
      ...(selection === undefined ? {} : { answer: structuredAnswer(item, selection) }),
    };
  });
  return {
    id: q.id,
    status: q.status,
    blocking: q.isBlocking,
    ...(q.ticket === undefined ? {} : { ticket: q.ticket }),
    ...(q.origin === undefined ? {} : { askedWith: q.origin.tool }),
    items,
    ...(q.answer === undefined ? {} : { answeredBy: who(q.answer.by), answeredAt: iso(q.answer.at) }),
    ...(q.closure?.by === undefined ? {} : { closedBy: who(q.closure.by) }),
    ...(q.closure === undefined ? {} : { closedAt: iso(q.closure.at) }),
  };
}

function structuredAnswer(item: QuestionItem, selection: Selection): z.infer<typeof answerSchema> {
  const valueFor = (label: string): string => {
    const option = item.options.find((candidate) => candidate.label === label);
    return option === undefined ? label : optionValue(option);
  };
  const notes = selection.notes?.trim() ?? '';
  // Other says nothing without its notes: they are the person's answer, so they are given as `other`.
  return {
    labels: [...selection.choices],
    values: selection.choices.map(valueFor),
    ...(selection.other ? { other: notes } : notes === '' ? {} : { notes }),
    ...(selection.choiceNotes === undefined || selection.choiceNotes.length === 0
      ? {}
      : {
          optionNotes: selection.choiceNotes.map(({ choice, notes: text }) => ({
            label: choice,
            value: valueFor(choice),
            notes: text,
          })),
        }),
  };
}

function who(by: Responder): string {
  const name = by.displayName.trim();
  const where = placeAndUserOf(by);
  return name === '' ? where : `${name} ${where}`;
}

function iso(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
