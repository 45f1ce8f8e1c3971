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
 *   3  options may carry a `value`; `recommended` is a list of labels; a set keeps `members` (each a question with
 *      its topic and optional context and impact) beside the shared context, impact and the derived isBlocking.
 *      A v3 answer to a set is {members: Selection[], by, at}; a Selection may carry `choiceNotes` (answers to any
 *      version's questions may, since notes per option are read by shape).
 *   4  spec may carry `origin` {tool, header?, plan?}: a question the agent asked with a tool of its own (Claude Code's
     AskUserQuestion, ExitPlanMode) that ask-later's hook parked; and `askedBefore` [{id, member?, question, answer,
     by, at}]: the earlier decisions like it, when the agent asked again anyway.
  A question is written with the oldest version that holds it ({@link specRecord}).
 */
import {
  ANSWER_PLACES,
  type Answer,
  type ChoiceNote,
  type Closure,
  DELIVERY_PATHS,
  type EarlierDecision,
  type MessageRef,
  ORIGIN_TOOLS,
  PLATFORMS,
  type Platform,
  QUESTION_STATUSES,
  type Question,
  type QuestionItem,
  type QuestionOption,
  type QuestionOrigin,
  type QuestionSpec,
  type QuestionStatus,
  type Responder,
  type Selection,
  type SetMember,
  type SetSpec,
} from '../../core/question.js';
import { CorruptRecordError } from '../corrupt-record-error.js';
import { BoundedCache } from './bounded-cache.js';

/** The newest record version: what this code writes for what older versions cannot hold (see {@link specRecord}). */
export const RECORD_VERSION = 4;

type RecordVersion = '1' | '2' | '3' | '4';

/** Hash fields that name a message copy: `msg:<platform>:<channel>` → message id. */
export const MESSAGE_FIELD_PREFIX = 'msg:';

export function messageField(platform: string, channel: string): string {
  return `${MESSAGE_FIELD_PREFIX}${platform}:${channel}`;
}

type Json = Record<string, unknown>;

/** Reads fields of one record, throwing `CorruptRecordError` that names the record and the path. */
export class Reader {
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
      ...(object.place === undefined ? {} : { place: this.oneOf(object.place, ANSWER_PLACES, `${path}.place`) }),
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

/** One question's pickable part as stored (a single question's spec, or a member of a set). */
function readItem(read: Reader, item: Json, path: string, version: RecordVersion): QuestionItem {
  const rawOptions = item.options;
  if (!Array.isArray(rawOptions) || rawOptions.length === 0)
    read.fail(`${path}.options`, 'a non-empty list', rawOptions);
  const options = rawOptions.map((option, index): QuestionOption => {
    const at = `${path}.options.${index}`;
    if (version === '1') {
      if (typeof option !== 'string') read.fail(at, 'a string', option);
      return { label: option };
    }
    const object = read.object(option, at);
    const label = read.string(object, 'label', at);
    const value = version >= '3' ? read.optionalString(object, 'value', at) : undefined;
    const description = read.optionalString(object, 'description', at);
    const parsed: Writable<QuestionOption> = { label };
    if (value !== undefined) parsed.value = value;
    if (description !== undefined) parsed.description = description;
    return parsed;
  });
  const result: Writable<QuestionItem> = {
    question: read.string(item, 'question', path),
    options,
    multiSelect: version === '1' ? false : read.boolean(item, 'multiSelect', path),
    isBlocking: read.boolean(item, 'isBlocking', path),
  };
  // v1 and v2 kept one recommended label as a string; v3 keeps a list.
  if (item.recommended !== undefined) {
    result.recommended =
      version >= '3' ? read.strings(item, 'recommended', path) : [read.string(item, 'recommended', path)];
  }
  return result;
}

function readSpec(read: Reader, text: string, version: RecordVersion): QuestionSpec {
  const spec = read.json(text, 'spec');
  const common: Writable<Omit<SetSpec, 'members'>> = {
    context: read.string(spec, 'context', 'spec'),
    impact: read.string(spec, 'impact', 'spec'),
    isBlocking: read.boolean(spec, 'isBlocking', 'spec'),
  };
  const ticket = read.optionalString(spec, 'ticket', 'spec');
  if (ticket !== undefined) common.ticket = ticket;
  const expiresInSeconds = read.optionalNumber(spec, 'expiresInSeconds', 'spec');
  if (expiresInSeconds !== undefined) common.expiresInSeconds = expiresInSeconds;
  if (version >= '4' && spec.origin !== undefined) common.origin = readOrigin(read, spec.origin);
  if (version >= '4' && spec.askedBefore !== undefined) common.askedBefore = readAskedBefore(read, spec.askedBefore);
  // Object.assign, not object spread, on the read path: Node 20 builds `{ ...a, b }` many times slower.
  if (version < '3' || spec.members === undefined) return Object.assign(common, readItem(read, spec, 'spec', version));

  const rawMembers = spec.members;
  if (!Array.isArray(rawMembers) || rawMembers.length === 0) read.fail('spec.members', 'a non-empty list', rawMembers);
  const members = rawMembers.map((raw, index): SetMember => {
    const path = `spec.members.${index}`;
    const object = read.object(raw, path);
    const member: Writable<SetMember> = {
      topic: read.string(object, 'topic', path),
      ...readItem(read, object, path, version),
    };
    const context = read.optionalString(object, 'context', path);
    if (context !== undefined) member.context = context;
    const impact = read.optionalString(object, 'impact', path);
    if (impact !== undefined) member.impact = impact;
    return member;
  });
  return Object.assign(common, { members });
}

function readOrigin(read: Reader, value: unknown): QuestionOrigin {
  const object = read.object(value, 'spec.origin');
  const origin: Writable<QuestionOrigin> = { tool: read.oneOf(object.tool, ORIGIN_TOOLS, 'spec.origin.tool') };
  const header = read.optionalString(object, 'header', 'spec.origin');
  if (header !== undefined) origin.header = header;
  const plan = read.optionalString(object, 'plan', 'spec.origin');
  if (plan !== undefined) origin.plan = plan;
  return origin;
}

function readAskedBefore(read: Reader, value: unknown): EarlierDecision[] {
  if (!Array.isArray(value)) read.fail('spec.askedBefore', 'a list', value);
  return value.map((entry, index) => {
    const path = `spec.askedBefore.${index}`;
    const object = read.object(entry, path);
    const member = read.optionalNumber(object, 'member', path);
    return {
      id: read.number(object, 'id', path),
      ...(member === undefined ? {} : { member }),
      question: read.string(object, 'question', path),
      answer: read.string(object, 'answer', path),
      by: read.responder(object.by, `${path}.by`),
      at: read.number(object, 'at', path),
    };
  });
}

/**
 * The `v` and `spec` to write for a question: the oldest version that holds it (2 for a single question without
 * option values and with at most one recommended label, which it keeps as a string; 3 for sets, values and
 * several recommended labels; 4 for an origin), so an ask-later one version behind, sharing the store during an
 * upgrade, still reads every question it could have parked itself.
 */
export function specRecord(spec: QuestionSpec): { readonly version: number; readonly json: string } {
  if (spec.origin !== undefined || spec.askedBefore !== undefined) return { version: 4, json: JSON.stringify(spec) };
  // A set, option values and several recommended labels are version 3's.
  if (spec.members !== undefined || (spec.recommended ?? []).length > 1 || spec.options.some((o) => o.value)) {
    return { version: 3, json: JSON.stringify(spec) };
  }
  // v2 keeps one recommended label as a string, last (built key by key: Node 20 spreads slowly).
  const v2: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) if (key !== 'recommended') v2[key] = value;
  if (spec.recommended?.[0] !== undefined) v2.recommended = spec.recommended[0];
  return { version: 2, json: JSON.stringify(v2) };
}

function readSelection(read: Reader, selection: Json, path: string): Selection {
  const choices = read.strings(selection, 'choices', path);
  const other = read.boolean(selection, 'other', path);
  const notes = read.optionalString(selection, 'notes', path);
  const result: Writable<Selection> = { choices, other };
  if (notes !== undefined) result.notes = notes;
  if (selection.choiceNotes !== undefined)
    result.choiceNotes = readChoiceNotes(read, selection.choiceNotes, `${path}.choiceNotes`);
  return result;
}

/** Notes per option: a list of {choice, notes}. */
export function readChoiceNotes(read: Reader, value: unknown, path: string): ChoiceNote[] {
  if (!Array.isArray(value)) read.fail(path, 'a list of {choice, notes}', value);
  return value.map((entry, index) => {
    const object = read.object(entry, `${path}.${index}`);
    return {
      choice: read.string(object, 'choice', `${path}.${index}`),
      notes: read.string(object, 'notes', `${path}.${index}`),
    };
  });
}

function readAnswer(read: Reader, text: string): Answer {
  const answer = read.json(text, 'answer');
  if ('members' in answer) {
    const raw = answer.members;
    if (!Array.isArray(raw)) read.fail('answer.members', 'a list of selections', raw);
    const members = raw.map((member, index) =>
      readSelection(read, read.object(member, `answer.members.${index}`), `answer.members.${index}`),
    );
    return { members, by: read.responder(answer.by, 'answer.by'), at: read.number(answer, 'at', 'answer') };
  }
  if ('choices' in answer) {
    const selection = readSelection(read, answer, 'answer');
    return Object.assign(selection, {
      by: read.responder(answer.by, 'answer.by'),
      at: read.number(answer, 'at', 'answer'),
    });
  }
  // Version 1: {choice, notes?, platform, userId, userName, at}, choice null meaning Other.
  const notes = read.optionalString(answer, 'notes', 'answer');
  const choice = answer.choice === null ? null : read.string(answer, 'choice', 'answer');
  const by: Responder = {
    platform: read.oneOf(answer.platform, PLATFORMS, 'answer.platform'),
    userId: read.string(answer, 'userId', 'answer'),
    displayName: read.string(answer, 'userName', 'answer'),
  };
  const at = read.number(answer, 'at', 'answer');
  const base = { choices: choice === null ? [] : [choice], other: choice === null, by, at };
  return notes === undefined ? base : Object.assign(base, { notes });
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

/**
 * Specs already read, by record (`project#id`), each with the version and text it was read from: a record whose `v`
 * and `spec` are the same text again is not parsed and checked again (the hot paths read the same questions over and
 * over). Holds at most `max` specs, forgetting the older half at once (bounded-cache.ts).
 */
export class ParsedSpecs {
  readonly #entries: BoundedCache<string, { readonly v: string; readonly text: string; readonly spec: QuestionSpec }>;

  constructor(readonly max: number) {
    this.#entries = new BoundedCache(max);
  }

  get(record: string, v: string, text: string): QuestionSpec | undefined {
    const entry = this.#entries.get(record);
    return entry !== undefined && entry.v === v && entry.text === text ? entry.spec : undefined;
  }

  set(record: string, v: string, text: string, spec: QuestionSpec): void {
    this.#entries.set(record, { v, text, spec });
  }
}

/**
 * Build the domain question from a record's fields (HGETALL). `where` names it until its own fields are read. With
 * `specs`, a spec read before from the same text is taken from there.
 */
export function questionFromHash(hash: Readonly<Record<string, string>>, where: string, specs?: ParsedSpecs): Question {
  const early: Reader = new Reader(where);
  const version = early.oneOf(hash.v, ['1', '2', '3', '4'] as const, 'v');
  const project = hash.project;
  if (project === undefined) early.fail('project', 'a string', project);
  const id = early.wholeNumber(hash, 'id');
  const read: Reader = new Reader(`${project}#${id}`);
  const status: QuestionStatus = read.oneOf(hash.status, QUESTION_STATUSES, 'status');
  const createdAt = read.wholeNumber(hash, 'createdAt');
  const specText = hash.spec;
  if (specText === undefined) read.fail('spec', 'a string', specText);
  let spec = specs?.get(read.record, version, specText);
  if (spec === undefined) {
    spec = readSpec(read, specText, version);
    specs?.set(read.record, version, specText, spec);
  }

  // A copy of the spec (which may be kept for later reads); the state is added field by field, so optional fields
  // stay absent.
  const question = Object.assign({}, spec) as Writable<Question>;
  question.project = project;
  question.id = id;
  question.status = status;
  question.createdAt = createdAt;
  question.messages = messagesFromHash(hash, read.record);
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

/**
 * A record as a script sent it: its fields flat (HGETALL), or that list as one JSON text (`cjson.encode`: claim-1,
 * waiting-1, list-page-6), which a client reads far faster than a reply of many strings. `where` names the record in
 * the error when the text is not such a list.
 */
export function hashFromScript(reply: unknown, where: string): Record<string, string> {
  if (typeof reply !== 'string') return hashFromFlat(reply);
  let flat: unknown;
  try {
    flat = JSON.parse(reply);
  } catch {
    flat = undefined;
  }
  // cjson writes an empty table as an object: a record with no fields.
  if (flat !== null && typeof flat === 'object' && !Array.isArray(flat) && Object.keys(flat).length === 0) return {};
  if (!Array.isArray(flat) || flat.some((item) => typeof item !== 'string')) {
    throw new CorruptRecordError(where, 'expected the record as a JSON list of its fields and values');
  }
  return hashFromFlat(flat);
}

/** An HGETALL reply as an object: flat [field, value, …] from scripts, or already an object from the client. */
export function hashFromFlat(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return { ...(reply as Record<string, string>) };
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}
