/** `list_questions`: this project's questions, filterable by status and blocking. */
import { z } from 'zod';
import { QUESTION_STATUSES, type QuestionStatus } from '../core/question.js';
import { questionLine } from './describe.js';
import { argsObject, errorResult, failureResult, type ToolDefinition, textResult, unknownKeys } from './tool.js';

/** The most questions one listing shows; the rest are counted. */
const LIST_MAX = 50;

const inputSchema = z.strictObject({
  status: z
    .union([z.enum(QUESTION_STATUSES), z.array(z.enum(QUESTION_STATUSES))])
    .optional()
    .describe(`Only questions in this status (or any of these): ${QUESTION_STATUSES.join(', ')}. Default: all.`),
  blocking: z.boolean().optional().describe('true: only blocking questions; false: only non-blocking. Default: both.'),
});

export const listQuestionsTool: ToolDefinition = {
  name: 'list_questions',
  title: "List this project's questions",
  description:
    "The questions parked in this project with their status (pending, answered, delivered, cancelled, dismissed, expired), blocking first. Use get_answer for one question's answer and notes.",
  inputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, context) {
    const extra = unknownKeys(args, ['status', 'blocking']);
    const parsed = argsObject(args) && extra.length === 0 ? inputSchema.safeParse(args ?? {}) : undefined;
    if (!parsed?.success) {
      return errorResult(
        `list_questions takes \`status\` (one of ${QUESTION_STATUSES.join(', ')}, or a list of them) and \`blocking\` (true or false), both optional${extra.length ? `; got also ${extra.join(', ')}` : ''}`,
      );
    }
    const { status, blocking } = parsed.data;
    const statuses: QuestionStatus[] | undefined = status === undefined ? undefined : [status].flat();
    try {
      const store = await context.store();
      const questions = await store.list(context.project, {
        ...(statuses ? { status: statuses } : {}),
        ...(blocking === undefined ? {} : { blocking }),
      });
      if (questions.length === 0) return textResult('No questions match in this project.');
      const shown = questions.slice(0, LIST_MAX).map(questionLine);
      const more = questions.length - shown.length;
      return textResult(
        [...shown, ...(more > 0 ? [`…and ${more} more (narrow with status or blocking).`] : [])].join('\n'),
      );
    } catch (error) {
      return failureResult(error);
    }
  },
};
