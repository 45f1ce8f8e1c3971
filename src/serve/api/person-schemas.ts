/**
 * The request bodies of the person side (`inbox-*`, protocol.ts), as strict zod schemas. They bound what travels;
 * whether a pick or notes fit the question is the store's rule (`InvalidAnswerError`, answered 422 with its reason).
 * No body names a person: serve answers as the token's.
 */
import { z } from 'zod';
import { projectNameProblem } from '../../core/project.js';
import type { PersonOperationName } from '../../store/http/protocol.js';

// Refused here as on every entry: a project name is printed in people's terminals (core/project.ts).
const project = z
  .string()
  .min(1)
  .max(1024)
  .refine((name) => projectNameProblem(name) === undefined, 'a project name may not hold control characters');
const projects = z.array(project).max(10_000);
const id = z.number().int().min(1).max(999_999_999);
const member = z.number().int().min(0).max(10);
const label = z.string().max(200);
const notes = z.string().max(20_000);
const choiceNotes = z.array(z.strictObject({ choice: label, notes })).max(10);
const selection = z.strictObject({
  choices: z.array(label).max(10),
  other: z.boolean(),
  notes: notes.optional(),
  choiceNotes: choiceNotes.optional(),
});

export const PERSON_SCHEMAS = {
  'inbox-projects': z.strictObject({}),
  'inbox-project': z.strictObject({ tag: z.string().regex(/^[A-Za-z0-9_-]{16}$/, '16 url-safe characters') }),
  'inbox-question': z.strictObject({ project, id }),
  'inbox-draft': z.strictObject({ project, id, member: member.optional() }),
  'inbox-save-draft': z.strictObject({
    project,
    id,
    change: z.strictObject({
      member: member.optional(),
      pick: z.strictObject({ choices: z.array(label).max(10), other: z.boolean() }).optional(),
      notes: notes.optional(),
      choiceNotes: choiceNotes.optional(),
    }),
  }),
  'inbox-answer': z.strictObject({
    project,
    id,
    reply: z.union([selection, z.strictObject({ members: z.array(selection).min(1).max(10) })]),
  }),
  'inbox-dismiss': z.strictObject({ project, id }),
  'inbox-page': z.strictObject({
    projects,
    query: z.strictObject({
      view: z.enum(['pending', 'closed', 'answered']),
      blocking: z.boolean().optional(),
      since: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(500),
      after: z.string().max(200).optional(),
    }),
  }),
  'inbox-counts': z.strictObject({ projects }),
  'inbox-watch': z.strictObject({}),
  'inbox-changed': z.strictObject({
    mark: z.string().max(200),
    timeoutMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 60 * 60 * 1000),
  }),
} as const satisfies Record<PersonOperationName, z.ZodType>;
