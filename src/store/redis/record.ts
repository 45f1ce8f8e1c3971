/**
 * The stored shape of a question (one Redis hash) and its conversion to the domain. Records carry a schema version
 * `v`; every version ever written still reads. Values are validated when read back, by hand rather than with zod:
 * this runs in the per-prompt hook, where loading zod alone costs more than the hook may take. A record that does
 * not read raises `CorruptRecordError` naming the record and the field, never its text.
 *
 * Version history (`v` is the version that created the record and wrote its `spec`; `answer` is written later by
 * whichever version answered, so it is read by its shape):
 *   1  spec.options were plain strings; spec had no multiSelect; answer was {choice, notes?, platform, userId,
 *      userName, at} with choice null meaning Other.
 *   2  options are {label, description?}; multiSelect; answer is a Selection {choices, other, notes?} + by + at.
 */
import {
  type Answer,
  type Closure,
  DELIVERY_PATHS,
  type MessageRef,
  PLATFORMS,
  type Platform,
  QUESTION_STATUSES,
  type Question,
  type QuestionOption,
  type QuestionStatus,
  type Responder,
} from '../../core/question.js';
import { CorruptRecordError } from '../corrupt-record-error.js';

export const RECORD_VERSION = 2;

/** Hash fields that name a message copy: `msg:<platform>:<channel>` → message id. */
export const MESSAGE_FIELD_PREFIX = 'msg:';

export function messageField(platform: string, channel: string): string {
  return `${MESSAGE_FIELD_PREFIX}${platform}:${channel}`;
}

type Json = Record<string, unknown>;

/** Reads fields of one record, throwing `CorruptRecordError` that names the record and the path. */
class Reader {
  constructor(readonly record: string) {}

  fail(path: string, expected: string, got: unknown): never {
    throw new CorruptRecordError(this.record, `\`${path}\`: expected ${expected}, got ${describe(got)}`);
  }

  json(text: string, path: string): Json {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CorruptRecordError(this.record, `\`${path}\`: expected JSON`, { cause: error });
    }
    return this.object(value, path);
  }

  object(value: unknown, path: string): Json {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(path, 'an object', value);
    return value as Json;
  }

  string(object: Json, key: string, path: string): string {
    const value = object[key];
    if (typeof value !== 'string') this.fail(`${path}.${key}`, 'a string', value);
    return value;
  }

  optionalString(object: Json, key: string, path: string): string | undefined {
    return object[key] === undefined ? undefined : this.string(object, key, path);
  }

  boolean(object: Json, key: string, path: string): boolean {
    const value = object[key];
    if (typeof value !== 'boolean') this.fail(`${path}.${key}`, 'true or false', value);
    return value;
  }

  number(object: Json, key: string, path: string): number {
    const value = object[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(`${path}.${key}`, 'a number', value);
    return value;
  }

  optionalNumber(object: Json, key: string, path: string): number | undefined {
    return object[key] === undefined ? undefined : this.number(object, key, path);
  }

  strings(object: Json, key: string, path: string): string[] {
    const value = object[key];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      this.fail(`${path}.${key}`, 'a list of strings', value);
    }
    return value as string[];
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.fail(path, `one of ${allowed.join(', ')}`, value);
    }
    return value as T;
  }

  wholeNumber(hash: Readonly<Record<string, string>>, key: string): number {
    const value = hash[key];
    if (value === undefined || !/^\d+$/.test(value)) this.fail(key, 'a whole number', value);
    return Number(value);
  }

  responder(value: unknown, path: string): Responder {
    const object = this.object(value, path);
    return {
      platform: this.oneOf(object.platform, PLATFORMS, `${path}.platform`),
      userId: this.string(object, 'userId', path),
      displayName: this.string(object, 'displayName', path),
    };
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length <= 20 ? JSON.stringify(value) : `a string of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

interface Spec {
  context: string;
  question: string;
  impact: string;
  isBlocking: boolean;
  options: QuestionOption[];
  recommended?: string | undefined;
  multiSelect: boolean;
  ticket?: string | undefined;
  expiresInSeconds?: number | undefined;
}

function readSpec(read: Reader, text: string, version: '1' | '2'): Spec {
  const spec = read.json(text, 'spec');
  const rawOptions = spec.options;
  if (!Array.isArray(rawOptions) || rawOptions.length === 0) read.fail('spec.options', 'a non-empty list', rawOptions);
  const options = rawOptions.map((option, index): QuestionOption => {
    const path = `spec.options.${index}`;
    if (version === '1') {
      if (typeof option !== 'string') read.fail(path, 'a string', option);
      return { label: option };
    }
    const object = read.object(option, path);
    const label = read.string(object, 'label', path);
    const description = read.optionalString(object, 'description', path);
    return description === undefined ? { label } : { label, description };
  });
  return {
    context: read.string(spec, 'context', 'spec'),
    question: read.string(spec, 'question', 'spec'),
    impact: read.string(spec, 'impact', 'spec'),
    isBlocking: read.boolean(spec, 'isBlocking', 'spec'),
    options,
    recommended: read.optionalString(spec, 'recommended', 'spec'),
    multiSelect: version === '1' ? false : read.boolean(spec, 'multiSelect', 'spec'),
    ticket: read.optionalString(spec, 'ticket', 'spec'),
    expiresInSeconds: read.optionalNumber(spec, 'expiresInSeconds', 'spec'),
  };
}

function readAnswer(read: Reader, text: string): Answer {
  const answer = read.json(text, 'answer');
  const notes = read.optionalString(answer, 'notes', 'answer');
  if ('choices' in answer) {
    const choices = read.strings(answer, 'choices', 'answer');
    const other = read.boolean(answer, 'other', 'answer');
    const by = read.responder(answer.by, 'answer.by');
    const at = read.number(answer, 'at', 'answer');
    return notes === undefined ? { choices, other, by, at } : { choices, other, notes, by, at };
  }
  // Version 1: {choice, notes?, platform, userId, userName, at}, choice null meaning Other.
  const choice = answer.choice === null ? null : read.string(answer, 'choice', 'answer');
  const by: Responder = {
    platform: read.oneOf(answer.platform, PLATFORMS, 'answer.platform'),
    userId: read.string(answer, 'userId', 'answer'),
    displayName: read.string(answer, 'userName', 'answer'),
  };
  const at = read.number(answer, 'at', 'answer');
  const base = { choices: choice === null ? [] : [choice], other: choice === null, by, at };
  return notes === undefined ? base : { ...base, notes };
}

function readClosure(read: Reader, text: string): Closure {
  const closure = read.json(text, 'closure');
  const at = read.number(closure, 'at', 'closure');
  return closure.by === undefined ? { at } : { at, by: read.responder(closure.by, 'closure.by') };
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

/** Build the domain question from a record's fields (HGETALL). `where` names it until its own fields are read. */
export function questionFromHash(hash: Readonly<Record<string, string>>, where: string): Question {
  const early: Reader = new Reader(where);
  const version = early.oneOf(hash.v, ['1', '2'] as const, 'v');
  const project = hash.project;
  if (project === undefined) early.fail('project', 'a string', project);
  const id = early.wholeNumber(hash, 'id');
  const read: Reader = new Reader(`${project}#${id}`);
  const status: QuestionStatus = read.oneOf(hash.status, QUESTION_STATUSES, 'status');
  const createdAt = read.wholeNumber(hash, 'createdAt');
  const specText = hash.spec;
  if (specText === undefined) read.fail('spec', 'a string', specText);
  const spec = readSpec(read, specText, version);

  // Built field by field (no spreads): this runs for every question read, and optional fields stay absent.
  const question: Writable<Question> = {
    context: spec.context,
    question: spec.question,
    impact: spec.impact,
    isBlocking: spec.isBlocking,
    options: spec.options,
    multiSelect: spec.multiSelect,
    project,
    id,
    status,
    createdAt,
    messages: messagesFromHash(hash, read.record),
  };
  if (spec.recommended !== undefined) question.recommended = spec.recommended;
  if (spec.ticket !== undefined) question.ticket = spec.ticket;
  if (spec.expiresInSeconds !== undefined) question.expiresInSeconds = spec.expiresInSeconds;
  if (hash.expiresAt !== undefined) question.expiresAt = read.wholeNumber(hash, 'expiresAt');
  if (hash.answer !== undefined) question.answer = readAnswer(read, hash.answer);
  if (hash.closure !== undefined) question.closure = readClosure(read, hash.closure);
  if (hash.deliveredAt !== undefined) question.deliveredAt = read.wholeNumber(hash, 'deliveredAt');
  if (hash.deliveredVia !== undefined) {
    question.deliveredVia = read.oneOf(hash.deliveredVia, DELIVERY_PATHS, 'deliveredVia');
  }
  if (hash.reminders !== undefined) question.reminders = read.wholeNumber(hash, 'reminders');
  if (hash.remindedAt !== undefined) question.remindedAt = read.wholeNumber(hash, 'remindedAt');
  return question;
}

/** An HGETALL reply as an object: flat [field, value, …] from scripts, or already an object from the client. */
export function hashFromFlat(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return { ...(reply as Record<string, string>) };
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}
