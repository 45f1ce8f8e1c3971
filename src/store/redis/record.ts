/**
 * The stored shape of a question (one Redis hash) and its conversion to and from the domain. Records carry a
 * schema version `v`; every version ever written still reads. Values are validated when read back: a record that
 * does not parse raises `CorruptRecordError` naming the record and the field, never its text.
 *
 * Version history (`v` is the version that created the record and wrote its `spec`; `answer` is written later by
 * whichever version answered, so it is read by its shape):
 *   1  spec.options were plain strings; spec had no multiSelect; answer was {choice, notes?, platform, userId,
 *      userName, at} with choice null meaning Other.
 *   2  options are {label, description?}; multiSelect; answer is a Selection {choices, other, notes?} + by + at.
 */
import { z } from 'zod';
import {
  type Answer,
  type Closure,
  type MessageRef,
  PLATFORMS,
  type Platform,
  QUESTION_STATUSES,
  type Question,
  type QuestionOption,
} from '../../core/question.js';
import { CorruptRecordError } from '../corrupt-record-error.js';

export const RECORD_VERSION = 2;

const responderSchema = z.object({
  platform: z.enum(PLATFORMS),
  userId: z.string(),
  displayName: z.string(),
});

const optionSchema = z.object({ label: z.string(), description: z.string().optional() });

const specSchemaV2 = z.object({
  context: z.string(),
  question: z.string(),
  impact: z.string(),
  isBlocking: z.boolean(),
  options: z.array(optionSchema).min(1),
  recommended: z.string().optional(),
  multiSelect: z.boolean(),
  ticket: z.string().optional(),
  expiresInSeconds: z.number().optional(),
});

const specSchemaV1 = z.object({
  context: z.string(),
  question: z.string(),
  impact: z.string(),
  isBlocking: z.boolean(),
  options: z.array(z.string()).min(1),
  recommended: z.string().optional(),
  ticket: z.string().optional(),
  expiresInSeconds: z.number().optional(),
});

const answerSchemaV2 = z.object({
  choices: z.array(z.string()),
  other: z.boolean(),
  notes: z.string().optional(),
  by: responderSchema,
  at: z.number(),
});

const answerSchemaV1 = z.object({
  choice: z.string().nullable(),
  notes: z.string().optional(),
  platform: z.enum(PLATFORMS),
  userId: z.string(),
  userName: z.string(),
  at: z.number(),
});

const closureSchema = z.object({ at: z.number(), by: responderSchema.optional() });

const intString = z.string().regex(/^\d+$/, 'expected a whole number').transform(Number);

const baseSchema = z.object({
  v: z.enum(['1', '2']),
  project: z.string(),
  id: intString,
  status: z.enum(QUESTION_STATUSES),
  createdAt: intString,
  expiresAt: intString.optional(),
  deliveredAt: intString.optional(),
  spec: z.string(),
  answer: z.string().optional(),
  closure: z.string().optional(),
});

/** Hash fields that name a message copy: `msg:<platform>:<channel>` → message id. */
export const MESSAGE_FIELD_PREFIX = 'msg:';

export function messageField(platform: string, channel: string): string {
  return `${MESSAGE_FIELD_PREFIX}${platform}:${channel}`;
}

function parseJson<T>(schema: z.ZodType<T>, text: string, field: string, record: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError(record, `\`${field}\`: expected JSON`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CorruptRecordError(record, describe(field, parsed.error), { cause: parsed.error });
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(field: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = [field, ...(issue?.path ?? [])].join('.');
  return `\`${path}\`: ${issue?.message ?? 'invalid'}`;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Build the domain question from a record's fields (HGETALL). */
export function questionFromHash(hash: Readonly<Record<string, string>>, where: string): Question {
  const parsed = baseSchema.safeParse(hash);
  if (!parsed.success) throw new CorruptRecordError(where, describe('record', parsed.error), { cause: parsed.error });
  const base = parsed.data;
  const record = `${base.project}#${base.id}`;

  const spec =
    base.v === '1'
      ? (() => {
          const old = parseJson(specSchemaV1, base.spec, 'spec', record);
          return { ...old, options: old.options.map((label): QuestionOption => ({ label })), multiSelect: false };
        })()
      : parseJson(specSchemaV2, base.spec, 'spec', record);

  // The answer is written after the record was created, by whichever version answered: read it by its shape.
  let answer: Answer | undefined;
  if (base.answer !== undefined) {
    const current = answerSchemaV2.safeParse(safeJson(base.answer));
    answer = current.success
      ? (withoutUndefined(current.data) as Answer)
      : (() => {
          const old = parseJson(answerSchemaV1, base.answer, 'answer', record);
          return withoutUndefined({
            choices: old.choice === null ? [] : [old.choice],
            other: old.choice === null,
            notes: old.notes,
            by: { platform: old.platform, userId: old.userId, displayName: old.userName },
            at: old.at,
          }) as Answer;
        })();
  }
  const closure: Closure | undefined =
    base.closure === undefined
      ? undefined
      : (withoutUndefined(parseJson(closureSchema, base.closure, 'closure', record)) as Closure);

  const messages = messagesFromHash(hash, record);

  // Built field by field (no spreads): this runs for every question read, and optional fields stay absent.
  const question: Writable<Question> = {
    context: spec.context,
    question: spec.question,
    impact: spec.impact,
    isBlocking: spec.isBlocking,
    options: spec.options.map((o) =>
      o.description === undefined ? { label: o.label } : { label: o.label, description: o.description },
    ),
    multiSelect: spec.multiSelect,
    project: base.project,
    id: base.id,
    status: base.status,
    createdAt: base.createdAt,
    messages,
  };
  if (spec.recommended !== undefined) question.recommended = spec.recommended;
  if (spec.ticket !== undefined) question.ticket = spec.ticket;
  if (spec.expiresInSeconds !== undefined) question.expiresInSeconds = spec.expiresInSeconds;
  if (base.expiresAt !== undefined) question.expiresAt = base.expiresAt;
  if (answer !== undefined) question.answer = answer;
  if (closure !== undefined) question.closure = closure;
  if (base.deliveredAt !== undefined) question.deliveredAt = base.deliveredAt;
  return question;
}

/** The message references of a record: its `msg:<platform>:<channel>` fields. */
export function messagesFromHash(hash: Readonly<Record<string, string>>, record: string): MessageRef[] {
  const messages: MessageRef[] = [];
  for (const field in hash) {
    if (!field.startsWith(MESSAGE_FIELD_PREFIX)) continue;
    const rest = field.slice(MESSAGE_FIELD_PREFIX.length);
    const colon = rest.indexOf(':');
    const platform = rest.slice(0, colon);
    if (colon < 0 || !isPlatform(platform)) {
      throw new CorruptRecordError(record, `\`${field}\`: expected msg:<platform>:<channel>`);
    }
    messages.push({ platform, channel: rest.slice(colon + 1), messageId: hash[field] ?? '' });
  }
  return messages;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

/** An HGETALL reply as an object: flat [field, value, …] from scripts, or already an object from the client. */
export function hashFromFlat(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return { ...(reply as Record<string, string>) };
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}
