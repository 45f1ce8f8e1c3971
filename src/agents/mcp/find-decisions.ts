/**
 * `find_decisions`: this project's earlier decisions (answered questions, still kept), newest answer first, narrowed
 * by free text (every word must appear in the question, its context, the ticket, the answer or the notes), a page at
 * a time with the `after` cursor. For a model that suspects the team decided something before it asks again.
 */
import { z } from 'zod';
import { renderDeliveryEntry } from '../../core/delivery-note.js';
import { resultSchema, structuredQuestion, structuredResult } from './structured.js';
import { argsObject, errorResult, failureResult, type ToolDefinition, unknownKeys } from './tool.js';

/** Decisions one page shows unless the call asks for another number. */
export const FIND_DEFAULT = 5;
/** The most decisions one page shows (each carries its answer and notes). */
export const FIND_MAX = 20;

const inputSchema = z.strictObject({
  search: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Words that must all appear in the decision (its question, context, ticket, answer or notes), any case: "billing database". Default: every decision.',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(FIND_MAX)
    .optional()
    .describe(`How many decisions to show, 1–${FIND_MAX}. Default: ${FIND_DEFAULT}.`),
  after: z.string().max(200).optional().describe('The cursor the previous result ended with, to read older decisions.'),
});

const NOTE =
  "This project's earlier decisions, newest first: the question texts were an agent's, the answers and notes are " +
  "the person's words. If one of them decides what you were about to ask, go on with it instead of asking again.";

export const findDecisionsTool: ToolDefinition = {
  name: 'find_decisions',
  title: "Find this project's earlier decisions",
  description: `Search the decisions the person already took in this project (questions parked earlier and answered, with the answer, the notes, who answered and when), newest first, ${FIND_DEFAULT} at a time (\`limit\` up to ${FIND_MAX}). Call it before asking something the team may have decided before (which database, naming, a policy): if a decision answers it, go on with it. Every word of \`search\` must appear in the decision.`,
  inputSchema,
  outputSchema: resultSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, context) {
    const extra = unknownKeys(args, ['search', 'limit', 'after']);
    const parsed = argsObject(args) && extra.length === 0 ? inputSchema.safeParse(args ?? {}) : undefined;
    if (!parsed?.success) {
      return errorResult(
        `find_decisions takes \`search\` (words, up to 500 characters), \`limit\` (1–${FIND_MAX}) and \`after\` (a cursor from an earlier result), all optional${extra.length ? `; got also ${extra.join(', ')}` : ''}`,
      );
    }
    const { search, limit, after } = parsed.data;
    try {
      const store = await context.store();
      const page = await store.findDecisions(context.project, {
        limit: limit ?? FIND_DEFAULT,
        ...(search === undefined ? {} : { search }),
        ...(after === undefined ? {} : { after }),
      });
      if (page.decisions.length === 0) {
        const none =
          after !== undefined
            ? 'No older decisions match.'
            : search === undefined || search.trim() === ''
              ? 'No decisions yet in this project.'
              : 'No decision in this project matches every word of the search.';
        return structuredResult(none, { note: none, questions: [] });
      }
      const more =
        page.next === undefined ? [] : [`Older decisions match: call find_decisions again with after="${page.next}".`];
      return structuredResult([...page.decisions.map(renderDeliveryEntry), ...more].join('\n\n'), {
        note: page.next === undefined ? NOTE : `${NOTE} Older ones match: call again with after="${page.next}".`,
        questions: page.decisions.map(structuredQuestion),
        ...(page.next === undefined ? {} : { after: page.next }),
      });
    } catch (error) {
      return failureResult(error);
    }
  },
};
