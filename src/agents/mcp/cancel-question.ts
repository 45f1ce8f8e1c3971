/** `cancel_question`: withdraw a pending question of this project; fails (atomically) if it was answered. */
import { z } from 'zod';
import { questionState } from './describe.js';
import {
  argsObject,
  errorResult,
  failureResult,
  parseQuestionId,
  questionIdSchema,
  type ToolDefinition,
  textResult,
  unknownKeys,
} from './tool.js';

export const cancelQuestionTool: ToolDefinition = {
  name: 'cancel_question',
  title: 'Withdraw a parked question',
  description:
    'Withdraw a question you parked that is still pending (you found the answer yourself, or it no longer matters). ' +
    'The chat message then shows it as withdrawn. If the person already answered, nothing is withdrawn and you get their answer.',
  inputSchema: z.strictObject({ id: questionIdSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run(args, context) {
    const object = argsObject(args);
    const extra = unknownKeys(args, ['id']);
    if (!object || extra.length > 0) {
      return errorResult(
        `cancel_question takes one field, \`id\`${extra.length ? `; got also ${extra.join(', ')}` : ''}`,
      );
    }
    const id = parseQuestionId(object.id);
    if (typeof id === 'string') return errorResult(id);
    try {
      const store = await context.store();
      const result = await store.cancel(context.project, id);
      switch (result.kind) {
        case 'done':
          return textResult(`Withdrew #${id}. Nobody will answer it; the chat message shows it as withdrawn.`);
        case 'unknown':
          return errorResult(`There is no question #${id} in this project.`);
        case 'already-answered':
          await store.markDelivered(context.project, id);
          return errorResult(
            `#${id} was already answered, so it was not withdrawn.\n\n${questionState(result.question)}`,
          );
        case 'not-pending':
          if (result.question.status !== 'cancelled') await store.markDelivered(context.project, id);
          return errorResult(
            `#${id} is no longer pending, so it was not withdrawn.\n\n${questionState(result.question)}`,
          );
      }
    } catch (error) {
      return failureResult(error);
    }
  },
};
