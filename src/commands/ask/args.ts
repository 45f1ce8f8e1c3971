/**
 * `ask-later ask …` and `ask-later get …`: their flags, read with node's own `parseArgs`, into the `ask_later` tool's
 * input (validated by core's `parseAskInput` in run.ts, never here) or one line saying what was expected. Pure but
 * for `--context-file`, which run.ts reads.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

export const ASK_USAGE = [
  'Usage: ask-later ask --question TEXT --option A --option B [--recommended A] [--blocking]',
  '                     [--context TEXT | --context-file F] [--impact TEXT] [--ticket T] [--project P]',
  '                     [--wait SECONDS] [--json]',
  '       ask-later get ID [--wait SECONDS] [--project P] [--json]',
  '',
  'ask parks a question in the inbox, as the ask_later tool does (same rules, same refusals), and prints its id;',
  'with --wait it waits up to SECONDS and prints the answer when it comes in time. get collects an outcome later.',
  'Each outcome is collected once. Exit codes: 0 answered (the picked values printed, one a line); 1 refused or',
  'failed (one line on stderr); 2 wrong arguments; 3 still waiting (the id printed); 4 closed without an answer',
  '(dismissed, expired or withdrawn); 5 already collected.',
].join('\n');

/** The exit codes both commands document (ASK_USAGE, README "From a script"). */
export const EXIT = {
  answered: 0,
  failed: 1,
  usage: 2,
  pending: 3,
  unanswered: 4,
  collected: 5,
} as const;

export interface AskCommand {
  readonly kind: 'ask';
  /** The tool's input as the flags give it (validated later by core, as the tool's is). */
  readonly input: Record<string, unknown>;
  /** `--context-file`: read into `context` before validation. */
  readonly contextFile?: string;
  readonly project?: string;
  readonly waitSeconds?: number;
  readonly json: boolean;
}

export interface GetCommand {
  readonly kind: 'get';
  readonly id: number;
  readonly project?: string;
  readonly waitSeconds?: number;
  readonly json: boolean;
}

export type Parsed<T> = { readonly ok: true; readonly command: T | { kind: 'help' } } | { ok: false; error: string };

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** `--wait`: whole seconds; its upper bound is the tool's `waitSeconds` rule (checked by core). */
function seconds(raw: string | undefined): number | string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,6}$/.test(raw.trim())) return `--wait takes whole seconds (30), got ${shown(raw)}`;
  return Number(raw.trim());
}

function parse(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs's messages name the flag and what was wrong with it, in one line.
    return error instanceof Error ? (error.message.split('\n')[0] ?? 'wrong arguments') : 'wrong arguments';
  }
}

export function parseAskArgs(args: readonly string[]): Parsed<AskCommand> {
  if (args.includes('--help') || args.includes('-h')) return { ok: true, command: { kind: 'help' } };
  const parsed = parse(args, {
    question: { type: 'string' },
    option: { type: 'string', multiple: true },
    recommended: { type: 'string' },
    blocking: { type: 'boolean' },
    context: { type: 'string' },
    'context-file': { type: 'string' },
    impact: { type: 'string' },
    ticket: { type: 'string' },
    project: { type: 'string' },
    wait: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof parsed === 'string') return { ok: false, error: parsed };
  const { values, positionals } = parsed;
  const [first] = positionals;
  if (first !== undefined) return { ok: false, error: `ask takes only flags, got ${shown(first)} (see --help)` };
  const text = (name: string) => values[name] as string | undefined;
  if (text('context') !== undefined && text('context-file') !== undefined) {
    return { ok: false, error: 'give --context or --context-file, not both' };
  }
  const wait = seconds(text('wait'));
  if (typeof wait === 'string') return { ok: false, error: wait };
  const options = (values.option as string[] | undefined) ?? [];
  const recommended = text('recommended');
  const input: Record<string, unknown> = {
    ...(text('context') === undefined ? {} : { context: text('context') }),
    ...(text('question') === undefined ? {} : { question: text('question') }),
    ...(text('impact') === undefined ? {} : { impact: text('impact') }),
    isBlocking: values.blocking === true,
    options: options.map((label) => ({ label })),
    ...(recommended === undefined ? {} : { recommended }),
    ...(text('ticket') === undefined ? {} : { ticket: text('ticket') }),
    ...(wait === undefined ? {} : { waitSeconds: wait }),
  };
  const project = text('project');
  const contextFile = text('context-file');
  return {
    ok: true,
    command: {
      kind: 'ask',
      input,
      json: values.json === true,
      ...(contextFile === undefined ? {} : { contextFile }),
      ...(project === undefined ? {} : { project }),
      ...(wait === undefined ? {} : { waitSeconds: wait }),
    },
  };
}

export function parseGetArgs(args: readonly string[]): Parsed<GetCommand> {
  if (args.includes('--help') || args.includes('-h')) return { ok: true, command: { kind: 'help' } };
  const parsed = parse(args, {
    project: { type: 'string' },
    wait: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof parsed === 'string') return { ok: false, error: parsed };
  const { values, positionals } = parsed;
  const [raw, ...more] = positionals;
  const match = raw === undefined ? null : /^#?(\d{1,9})$/.exec(raw.trim());
  if (match === null || more.length > 0 || Number(match[1]) < 1) {
    return {
      ok: false,
      error: `get takes one question id (12 or #12), got ${raw === undefined ? 'none' : shown(positionals.join(' '))}`,
    };
  }
  const wait = seconds(values.wait as string | undefined);
  if (typeof wait === 'string') return { ok: false, error: wait };
  const project = values.project as string | undefined;
  return {
    ok: true,
    command: {
      kind: 'get',
      id: Number(match[1]),
      json: values.json === true,
      ...(project === undefined ? {} : { project }),
      ...(wait === undefined ? {} : { waitSeconds: wait }),
    },
  };
}
