/**
 * A short, stable reference to one question, for places with tight length limits (Slack block and action ids,
 * Discord custom ids, modal metadata): `<tag>.<id>`, where the tag is 16 url-safe characters of the project's
 * SHA-256. The store resolves a tag back to its project. Pure (hashing is not I/O).
 */
import { createHash } from 'node:crypto';

/** A project's tag: 16 url-safe characters of its SHA-256, so any project name makes a short, safe token. */
export function projectTag(project: string): string {
  return createHash('sha256').update(project).digest('base64url').slice(0, 16);
}

export interface QuestionRef {
  readonly tag: string;
  readonly id: number;
}

export function formatQuestionRef(project: string, id: number): string {
  return `${projectTag(project)}.${id}`;
}

/** The reference in `text`, or undefined when it is not one (bad input from a payload is not an error here). */
export function parseQuestionRef(text: unknown): QuestionRef | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([A-Za-z0-9_-]{16})\.([1-9]\d{0,8})$/.exec(text);
  return match?.[1] && match[2] ? { tag: match[1], id: Number(match[2]) } : undefined;
}
