/**
 * Every request body of the agent API, as zod schemas (serve's side only: the client is on the hook's path). Strict
 * objects: a field the API does not know is refused, like a typo in a tool call. Question specs are checked by the
 * `ask_later` rules themselves (`core/ask-input.ts`) in operations.ts.
 */
import { z } from 'zod';
import { projectNameProblem } from '../../core/project.js';
import { DELIVERY_PATHS, ORIGIN_TOOLS, PLATFORMS, QUESTION_STATUSES } from '../../core/question.js';
import type { AgentOperationName, PersonOperationName } from '../../store/http/protocol.js';

/** The agent side's operations (the person side's bodies are in person-schemas.ts). */
export type AgentSideOperationName = Exclude<AgentOperationName, PersonOperationName>;

// Refused here as on every entry: a project name is printed in people's terminals (core/project.ts).
const project = z
  .string()
  .min(1)
  .max(1024)
  .refine((name) => projectNameProblem(name) === undefined, 'a project name may not hold control characters');
const id = z.number().int().min(1).max(999_999_999);
const ids = z.array(id).max(10_000);
const via = z.enum(DELIVERY_PATHS);
const leaseName = z.string().regex(/^[A-Za-z0-9:_.@-]{1,200}$/, 'letters, digits and : _ . @ -, at most 200');
const leaseOwner = z.string().regex(/^[\x21-\x7e]{1,200}$/, 'printable characters without spaces, at most 200');
const leaseMs = z
  .number()
  .int()
  .min(1)
  .max(24 * 60 * 60 * 1000);
const timeoutMs = z
  .number()
  .int()
  .min(0)
  .max(24 * 60 * 60 * 1000);
const claim = z.strictObject({ claimId: z.string().min(1).max(100), via, ids });

export const REQUEST_SCHEMAS = {
  park: z.strictObject({
    project,
    spec: z.unknown(),
    retryKey: z.string().min(1).max(200).optional(),
    origin: z
      .strictObject({
        tool: z.enum(ORIGIN_TOOLS),
        header: z.string().max(200).optional(),
        plan: z.string().max(200).optional(),
      })
      .optional(),
    askedBefore: z
      .array(
        z.strictObject({
          id,
          member: z.number().int().min(0).max(10).optional(),
          question: z.string().max(1000),
          answer: z.string().max(2000),
          by: z.strictObject({
            platform: z.enum(PLATFORMS),
            userId: z.string().max(200),
            displayName: z.string().max(200),
          }),
          at: z.number().int().min(0),
        }),
      )
      .max(3)
      .optional(),
  }),
  get: z.strictObject({ project, id }),
  list: z.strictObject({
    project,
    filter: z
      .strictObject({ status: z.array(z.enum(QUESTION_STATUSES)).max(10).optional(), blocking: z.boolean().optional() })
      .optional(),
  }),
  'list-page': z.strictObject({
    project,
    query: z.strictObject({
      status: z.array(z.enum(QUESTION_STATUSES)).max(10).optional(),
      blocking: z.boolean().optional(),
      limit: z.number().int().min(1).max(500),
      after: z.string().max(200).optional(),
    }),
  }),
  decisions: z.strictObject({
    project,
    query: z.strictObject({
      search: z.string().max(500).optional(),
      since: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(100),
      after: z.string().max(200).optional(),
    }),
  }),
  similar: z.strictObject({
    project,
    items: z
      .array(
        z.strictObject({
          question: z.string().max(1000),
          options: z.array(z.strictObject({ label: z.string().max(200) })).max(10),
          topic: z.string().max(100).optional(),
        }),
      )
      .min(1)
      .max(10),
    options: z.strictObject({
      threshold: z.number().min(0).max(2).optional(),
      max: z.number().int().min(1).max(10).optional(),
    }),
  }),
  cancel: z.strictObject({ project, id }),
  claim: z.strictObject({
    project,
    options: z.strictObject({
      budget: z.number().int().min(1).max(1_000_000),
      leaseMs: z
        .number()
        .int()
        .min(1)
        .max(10 * 60 * 1000),
      blockingOnly: z.boolean().optional(),
      via: via.optional(),
      questionId: id.optional(),
    }),
  }),
  confirm: z.strictObject({ project, claim, only: ids.optional() }),
  release: z.strictObject({ project, claim, only: ids.optional() }),
  waiting: z.strictObject({ project, blockingOnly: z.boolean().optional() }),
  'mark-delivered': z.strictObject({ project, id, via: via.optional() }),
  count: z.strictObject({ project }),
  'lease-acquire': z.strictObject({ name: leaseName, owner: leaseOwner, ms: leaseMs }),
  'lease-release': z.strictObject({ name: leaseName, owner: leaseOwner }),
  'lease-seize': z.strictObject({ name: leaseName, owner: leaseOwner, ms: leaseMs }),
  watch: z.strictObject({ project }),
  changed: z.strictObject({ project, mark: z.string().max(4000), timeoutMs }),
  wait: z.strictObject({ project, id, timeoutMs }),
  ping: z.strictObject({}),
  whoami: z.strictObject({}),
} as const satisfies Record<AgentSideOperationName, z.ZodType>;

/** One line for a refused body: the first problem's path and what was wrong, never the value. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the body breaks the schema';
  const path = issue.path.length > 0 ? issue.path.join('.') : 'the body';
  return `${path}: ${issue.message}`;
}
