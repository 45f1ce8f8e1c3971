/** `get_answer`: one question's status and answer, by id, in this project only. */
import { z } from 'zod';
import { questionState, stateNote } from './describe.js';
import { resultSchema, structuredQuestion, structuredResult } from './structured.js';
import {
  argsObject,
  errorResult,
  failureResult,
  parseQuestionId,
  questionIdSchema,
  type ToolDefinition,
  unknownKeys,
} from './tool.js';

export const getAnswerTool: ToolDefinition = {
  name: 'get_answer',
  title: 'Check a parked question',
  description:
    'The status of a question you parked with ask_later, and the answer and notes if the person answered. ' +
    'Answers also arrive on their own with the next prompt; an answer you read here is not delivered again.',
  inputSchema: z.strictObject({ id: questionIdSchema }),
  outputSchema: resultSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, context) {
    const object = argsObject(args);
    const extra = unknownKeys(args, ['id']);
    if (!object || extra.length > 0) {
      return errorResult(`get_answer takes one field, \`id\`${extra.length ? `; got also ${extra.join(', ')}` : ''}`);
    }
    const id = parseQuestionId(object.id);
    if (typeof id === 'string') return errorResult(id);
    try {
      const store = await context.store();
      const question = await store.get(context.project, id);
      if (!question) return errorResult(`There is no question #${id} in this project.`);
      if (question.status !== 'pending') await store.markDelivered(context.project, id);
      return structuredResult(questionState(question), {
        note: stateNote(question),
        questions: [structuredQuestion(question)],
      });
    } catch (error) {
      return failureResult(error);
    }
  },
};
