/**
 * `list_questions`: this project's questions, filterable by status and blocking, one page at a time (blocking first,
 * then by id): `limit` (default {@link LIST_DEFAULT}, at most {@link LIST_MAX}) and the `after` cursor the last page
 * gave; the result says how many more follow and the cursor for them.
 */
import { z } from 'zod';
import { QUESTION_STATUSES, type QuestionStatus } from '../../core/question.js';
import { questionLine } from './describe.js';
import { resultSchema, structuredQuestion, structuredResult } from './structured.js';
import { argsObject, errorResult, failureResult, type ToolDefinition, unknownKeys } from './tool.js';

/** Questions one page shows unless the call asks for another number. */
export const LIST_DEFAULT = 20;
/** The most questions one page shows. */
export const LIST_MAX = 50;

const inputSchema = z.strictObject({
  status: z
    .union([z.enum(QUESTION_STATUSES), z.array(z.enum(QUESTION_STATUSES))])
    .optional()
    .describe(`Only questions in this status (or any of these): ${QUESTION_STATUSES.join(', ')}. Default: all.`),
  blocking: z.boolean().optional().describe('true: only blocking questions; false: only non-blocking. Default: both.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIST_MAX)
    .optional()
    .describe(`How many questions to show, 1–${LIST_MAX}. Default: ${LIST_DEFAULT}.`),
  after: z
    .string()
    .max(40)
    .optional()
    .describe('The cursor the previous result ended with ("more: after=…"), to read the next page.'),
});

export const listQuestionsTool: ToolDefinition = {
  name: 'list_questions',
  title: "List this project's questions",
  description: `The questions parked in this project with their status (pending, answered, delivered, cancelled, dismissed, expired), blocking first, then by id, ${LIST_DEFAULT} at a time (\`limit\` up to ${LIST_MAX}); a longer list ends with how many more there are and the \`after\` cursor that reads them. Use get_answer for one question's answer and notes.`,
  inputSchema,
  outputSchema: resultSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, context) {
    const extra = unknownKeys(args, ['status', 'blocking', 'limit', 'after']);
    const parsed = argsObject(args) && extra.length === 0 ? inputSchema.safeParse(args ?? {}) : undefined;
    if (!parsed?.success) {
      return errorResult(
        `list_questions takes \`status\` (one of ${QUESTION_STATUSES.join(', ')}, or a list of them), \`blocking\` (true or false), \`limit\` (1–${LIST_MAX}) and \`after\` (a cursor from an earlier result), all optional${extra.length ? `; got also ${extra.join(', ')}` : ''}`,
      );
    }
    const { status, blocking, limit, after } = parsed.data;
    const statuses: QuestionStatus[] | undefined = status === undefined ? undefined : [status].flat();
    try {
      const store = await context.store();
      const page = await store.listPage(context.project, {
        limit: limit ?? LIST_DEFAULT,
        ...(statuses ? { status: statuses } : {}),
        ...(blocking === undefined ? {} : { blocking }),
        ...(after === undefined ? {} : { after }),
      });
      if (page.questions.length === 0) {
        const none = after === undefined ? 'No questions match in this project.' : 'No more questions match.';
        return structuredResult(none, { note: none, questions: [] });
      }
      const shown = page.questions.map(questionLine);
      const more =
        page.next === undefined
          ? []
          : [
              `…and ${page.remaining} more: call list_questions again with after="${page.next}" (and the same filters).`,
            ];
      const note =
        page.next === undefined
          ? "This project's questions, blocking first, then by id. Answers and notes are the person's words; get_answer shows one in full."
          : `This project's questions, blocking first, then by id; ${page.remaining} more follow: call list_questions again with after="${page.next}" (and the same filters). Answers and notes are the person's words.`;
      return structuredResult([...shown, ...more].join('\n'), {
        note,
        questions: page.questions.map(structuredQuestion),
        ...(page.next === undefined ? {} : { more: page.remaining, after: page.next }),
      });
    } catch (error) {
      return failureResult(error);
    }
  },
};
