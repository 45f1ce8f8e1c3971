/**
 * `ask-later decisions [--project PATTERN] [--since 7d] [--format md|json|csv]`: the answered questions, newest
 * answer first, as a decision log (Markdown, the default), JSON or CSV on stdout. Reads the store the agent side
 * uses (REDIS_URL, else the embedded file), so it runs anywhere the team's inbox is reachable, with or without
 * serve. Exit 0 with the listing (an empty one says so), 2 with one line on stderr when the arguments are wrong,
 * 1 with one line when the settings or the store are.
 */

import { listDecisions } from '../../store/decision-query.js';
import { openCommandStore } from '../open-store.js';
import { DECISION_FORMATS, type DecisionFormat, formatDecisions } from './format.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface DecisionsIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export interface DecisionsOptions {
  /** The clock `--since 7d` counts back from (tests). */
  readonly now?: () => number;
}

/** The arguments, understood. */
export interface DecisionArgs {
  readonly project?: string;
  /** Answers at or after this time (ms since the epoch). */
  readonly since?: number;
  readonly format: DecisionFormat;
  readonly help: boolean;
}

export const DECISIONS_USAGE = [
  'Usage: ask-later decisions [--project PATTERN] [--since DURATION|DATE] [--format md|json|csv]',
  '',
  'Prints the answered questions, newest answer first.',
  '  --project PATTERN  a project name or a pattern as in the routing file (/srv/repos/*, /srv/repos/**, **/billing)',
  '  --since WHEN       answered within 30m, 12h, 7d or 2w, or since an ISO date (2027-01-08, 2027-01-08T09:30Z);',
  '                     default: every answer the inbox still keeps (ASK_LATER_RETENTION_DAYS)',
  '  --format FORMAT    md (a decision log, the default), json (an array of objects) or csv (RFC 4180, with a header)',
].join('\n');

const EXPECTED = 'expected --project PATTERN, --since DURATION|DATE, --format md|json|csv';
const SINCE_EXPECTED = 'a duration such as 30m, 12h, 7d or 2w, or an ISO date such as 2027-01-08 or 2027-01-08T09:30Z';

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A value as an error line quotes it: short and on one line. */
function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/**
 * `--since`'s value as a time: a duration back from `now` (`30m`, `12h`, `7d`, `2w`), or an ISO date (UTC) or
 * date-time (local time unless it names a zone). Undefined when it is neither.
 */
export function parseSince(value: string, now: number): number | undefined {
  const duration = /^(\d{1,9})([mhdw])$/.exec(value.trim());
  if (duration) {
    const amount = Number(duration[1]);
    if (amount < 1) return undefined;
    return Math.max(0, now - amount * (UNIT_MS[duration[2] ?? ''] ?? 0));
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
    value.trim(),
  );
  if (!date) return undefined;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  // Date.parse rolls 2027-02-31 over into March: a day the month does not have is refused instead.
  if (month < 1 || month > 12 || day < 1 || new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) {
    return undefined;
  }
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

/** The command's arguments, or the one line saying what was expected and what came. */
export function parseDecisionArgs(
  args: readonly string[],
  now: number,
): { readonly ok: true; readonly args: DecisionArgs } | { readonly ok: false; readonly error: string } {
  const seen = new Set<string>();
  let project: string | undefined;
  let since: number | undefined;
  let format: DecisionFormat = 'md';
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const flag = /^(--[a-z-]+)(?:=(.*))?$/s.exec(arg);
    const name = flag?.[1];
    if (name !== '--project' && name !== '--since' && name !== '--format') {
      return {
        ok: false,
        error: arg.startsWith('-')
          ? `unknown option ${shown(arg.replace(/=.*$/s, ''))}: ${EXPECTED}`
          : `unexpected argument ${shown(arg)}: ${EXPECTED}`,
      };
    }
    if (seen.has(name)) return { ok: false, error: `${name} was given twice: give it once` };
    seen.add(name);
    let value = flag?.[2];
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) {
        const what =
          name === '--project'
            ? 'a project name or pattern such as /srv/repos/api or /srv/repos/**'
            : name === '--since'
              ? SINCE_EXPECTED
              : `one of ${DECISION_FORMATS.join(', ')}`;
        return { ok: false, error: `${name} needs a value: ${what}` };
      }
      value = next;
      i++;
    }
    if (name === '--project') {
      if (value.trim() === '') {
        return { ok: false, error: '--project must be a project name or pattern such as /srv/repos/api, got nothing' };
      }
      project = value.trim();
    } else if (name === '--since') {
      since = parseSince(value, now);
      if (since === undefined) return { ok: false, error: `--since must be ${SINCE_EXPECTED}, got ${shown(value)}` };
    } else {
      const wanted = value.trim().toLowerCase();
      if (!(DECISION_FORMATS as readonly string[]).includes(wanted)) {
        return { ok: false, error: `--format must be md, json or csv, got ${shown(value)}` };
      }
      format = wanted as DecisionFormat;
    }
  }
  return {
    ok: true,
    args: { format, help, ...(project !== undefined ? { project } : {}), ...(since !== undefined ? { since } : {}) },
  };
}

export async function runDecisions(
  env: Env,
  argv: readonly string[],
  io: DecisionsIo,
  options: DecisionsOptions = {},
): Promise<number> {
  const parsed = parseDecisionArgs(argv, (options.now ?? Date.now)());
  if (!parsed.ok) {
    io.stderr.write(`ask-later decisions: ${parsed.error}\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    io.stdout.write(`${DECISIONS_USAGE}\n`);
    return 0;
  }
  const store = await openCommandStore('decisions', env, io.stderr);
  if (!store) return 1;
  try {
    const scope = {
      ...(args.project !== undefined ? { project: args.project } : {}),
      ...(args.since !== undefined ? { since: args.since } : {}),
    };
    const decisions = await listDecisions(store, scope);
    io.stdout.write(formatDecisions(decisions, args.format, scope));
    return 0;
  } catch (error) {
    const name = error instanceof Error ? error.name : 'an error';
    io.stderr.write(`ask-later decisions: cannot read the answered questions (${name})\n`);
    return 1;
  } finally {
    await store.close();
  }
}
