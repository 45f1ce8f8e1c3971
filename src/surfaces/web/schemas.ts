/** The JSON actions' bodies (zod, checked at the edge); a body that does not parse is one 400 line. */
import { z } from 'zod';
import { NOTES_MAX, OPTIONS_MAX, SET_MEMBERS_MAX } from '../../core/limits.js';
import { RequestRefusedError } from './request-refused-error.js';

const optionIndex = z
  .number()
  .int()
  .min(0)
  .max(OPTIONS_MAX - 1);
export const pickSchema = z.object({ choices: z.array(optionIndex).max(OPTIONS_MAX), other: z.boolean() });
const refSchema = z.string().max(40);
const notesSchema = z.string().max(NOTES_MAX, `Notes can be at most ${NOTES_MAX} characters.`);
/** The member of a set (0 for `#12.1`). */
const memberSchema = z
  .number()
  .int()
  .min(0)
  .max(SET_MEMBERS_MAX - 1);
/** Notes per option: the option by its index. */
const choiceNoteSchema = z.object({ choice: optionIndex, notes: notesSchema });
export const draftSchema = z.object({
  ref: refSchema,
  member: memberSchema.optional(),
  pick: pickSchema.optional(),
  notes: notesSchema.optional(),
  choiceNotes: z.array(choiceNoteSchema).max(OPTIONS_MAX).optional(),
});
/** What a set's panels show picked, one per member (null: not reported). */
const picksSchema = z.array(pickSchema.nullable()).max(SET_MEMBERS_MAX);
export const sendSchema = z.object({ ref: refSchema, pick: pickSchema.optional(), picks: picksSchema.optional() });
export const reviewSchema = z.object({ ref: refSchema, picks: picksSchema.optional() });
export const sendReadySchema = z.object({ refs: z.array(refSchema).max(500) });
export const removeSchema = z.object({ ref: refSchema });

export type PickInput = z.infer<typeof pickSchema>;

/** `body` as `schema` says, else a 400 naming what was wrong (a note over the limit), or that it was not understood. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const custom = result.error.issues.find((issue) => issue.code === 'too_big' && issue.path.at(-1) === 'notes');
  throw new RequestRefusedError(
    400,
    custom?.message ?? 'That request is not one the inbox understands; reload the page.',
  );
}
