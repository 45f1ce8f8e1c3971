/**
 * A permission prompt as a question (BRIEF: "a permission prompt is a question too"). An agent about to run a tool
 * call that needs the person's permission parks an approval: an ordinary blocking question with the fixed options
 * below and an {@link Approval} attachment in its origin, which binds any answer to that exact request (agent, tool,
 * a canonical hash of the input, session). Stored, posted, rendered and delivered like every question; what runs is
 * rebuilt by the agent side from the call itself, never from what a surface sends (only labels travel). Pure.
 */
import { createHash } from 'node:crypto';
import { CONTEXT_MAX, OPTION_DESCRIPTION_MAX, QUESTION_MAX } from './limits.js';
import { type Question, type QuestionOption, selectionsOf } from './question.js';

/** The coding agents whose permission prompts ask-later takes. */
export const APPROVAL_AGENTS = ['claude-code', 'codex', 'opencode'] as const;
export type ApprovalAgent = (typeof APPROVAL_AGENTS)[number];

/** What an answer binds to: one tool call of one session, as its agent made it. */
export interface ApprovalBinding {
  readonly agent: ApprovalAgent;
  /** The tool's name as the agent calls it (`Bash`, `Edit`, `mcp__github__create_issue`). */
  readonly tool: string;
  /** {@link inputHash} of the tool's input. */
  readonly input: string;
  readonly session: string;
}

/** The approval attachment of a question: the binding, and the rule "Always allow" adds (as the agent suggests it). */
export interface Approval extends ApprovalBinding {
  /** The permission rule "Always allow" adds, as text (`Bash(npm publish)`); absent: the agent suggested none. */
  readonly rule?: string;
}

/** The fixed options, in this order; none is recommended. */
export const APPROVAL_CHOICES = {
  once: 'Allow once',
  session: 'Allow for this session',
  always: 'Always allow',
  deny: 'Deny',
} as const;
export type ApprovalChoice = keyof typeof APPROVAL_CHOICES;

/** The person's decision on an approval, read from its answer. */
export interface ApprovalDecision {
  readonly choice: ApprovalChoice;
  /** The person's notes ('' when none): for a Deny, what the model is told. */
  readonly notes: string;
}

/** JSON with object keys sorted at every depth: the same input always reads the same, whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash a tool input is bound by: sha256 of its canonical JSON, hex. */
export function inputHash(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

/** Whether `request` is exactly the call `approval` was asked for: same agent, tool, input and session. */
export function bindsTo(approval: ApprovalBinding, request: ApprovalBinding): boolean {
  return (
    approval.agent === request.agent &&
    approval.tool === request.tool &&
    approval.input === request.input &&
    approval.session === request.session
  );
}

/** The approval a question carries, if it is one. */
export function approvalOf(question: Pick<Question, 'origin'>): Approval | undefined {
  return question.origin?.tool === 'PermissionRequest' ? question.origin.approval : undefined;
}

/**
 * The person's decision on an answered approval; undefined while it has none, or when the answer is not one of the
 * fixed options (a record that does not read as an approval decides nothing).
 */
export function approvalDecision(question: Question): ApprovalDecision | undefined {
  if (approvalOf(question) === undefined || question.answer === undefined) return undefined;
  const [selection] = selectionsOf(question.answer);
  if (selection === undefined || selection.other || selection.choices.length !== 1) return undefined;
  const choice = (Object.keys(APPROVAL_CHOICES) as ApprovalChoice[]).find(
    (key) => APPROVAL_CHOICES[key] === selection.choices[0],
  );
  return choice === undefined ? undefined : { choice, notes: selection.notes?.trim() ?? '' };
}

/** What the card shows of the call, as the agent side reads it from the request. */
export interface ApprovalCall {
  readonly tool: string;
  readonly input: unknown;
  /** The agent's own words just before the call ('' when the transcript does not give them). */
  readonly said: string;
  readonly cwd: string;
  readonly session: string;
}

const FENCE = '```';

/** `text` cut to `max` characters, with the cut marked. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Text inside a fence cannot close it: runs of three backticks are broken up. */
function fenced(text: string): string {
  return `${FENCE}\n${text.replace(/```/g, '`\u200b``')}\n${FENCE}`;
}

function field(input: unknown, key: string): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The most of the card's budget a diff or a command takes, so the words, the rule and the place always fit too (the
 * context is cut at its end only as a last resort: a cut there could leave a fence open).
 */
const EXCERPT_MAX = 1400;
/** The most of the agent's words the card shows (the last ones: nearest the call). */
const SAID_MAX = 500;

/** The call as the card shows it: the command, the file and a bounded diff excerpt, or the tool and its arguments. */
function callLines(call: ApprovalCall): { title: string; body: string } {
  const command = field(call.input, 'command');
  if (command !== undefined) {
    return { title: `Run \`${cut(command.replace(/\s+/g, ' '), 120)}\``, body: fenced(cut(command, EXCERPT_MAX)) };
  }
  const file = field(call.input, 'file_path') ?? field(call.input, 'path');
  if (file !== undefined) {
    const removed = field(call.input, 'old_string');
    const added = field(call.input, 'new_string') ?? field(call.input, 'content') ?? '';
    const diff = [
      ...(removed === undefined ? [] : removed.split('\n').map((line) => `- ${line}`)),
      ...added.split('\n').map((line) => `+ ${line}`),
    ].join('\n');
    return {
      title: `${call.tool} ${cut(file, 150)}`,
      body: `File: \`${cut(file, 300)}\`\n${fenced(cut(diff, EXCERPT_MAX))}`,
    };
  }
  return {
    title: `Call ${cut(call.tool, 150)}`,
    body: `Tool: \`${cut(call.tool, 200)}\`\n${fenced(cut(JSON.stringify(call.input ?? {}, null, 2), EXCERPT_MAX))}`,
  };
}

/**
 * The question an approval is parked as: `ask_later`'s arguments (validated again by the caller like any other),
 * within every limit whatever the call holds. `rule` is "Always allow"'s rule as text, shown on its option.
 */
export function approvalQuestion(call: ApprovalCall, rule: string | undefined): Record<string, unknown> {
  const { title, body } = callLines(call);
  const said =
    call.said.trim() === ''
      ? ''
      : `\n\nThe agent said just before:\n> ${cut(call.said.trim().slice(-SAID_MAX), SAID_MAX).replace(/\n/g, '\n> ')}`;
  const place = `\n\nWorking directory: \`${cut(call.cwd, 200)}\` · session \`${cut(call.session, 80)}\``;
  const always = rule === undefined ? '' : `\n\nAlways allow adds the rule \`${cut(rule, 300)}\``;
  const context = cut(`${body}${said}${always}${place}`, CONTEXT_MAX);
  const options: QuestionOption[] = [
    { label: APPROVAL_CHOICES.once, description: 'Run this exact call once' },
    { label: APPROVAL_CHOICES.session, description: 'Run it, and calls like it until this session ends' },
    {
      label: APPROVAL_CHOICES.always,
      description: cut(
        rule === undefined ? 'Run it, and add a rule for calls like it' : `Adds the rule ${rule}`,
        OPTION_DESCRIPTION_MAX,
      ),
    },
    { label: APPROVAL_CHOICES.deny, description: 'Do not run it; your notes go to the agent' },
  ];
  return {
    question: cut(`Allow: ${title}?`, QUESTION_MAX),
    context,
    impact:
      'A permission prompt: the agent asked to make this call. Until someone decides, it carries on with what does ' +
      'not depend on it. Deny tells it why through your notes.',
    options,
    isBlocking: true,
  };
}
