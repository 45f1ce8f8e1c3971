/**
 * `ask-later inbox [--list | --json] [--filter all|blocking|non-blocking] [--project NAME] [--limit N]`, understood.
 * Pure; every mistake is one line saying what was expected and what came.
 */
import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';
import type { Parsed } from './answer-args.js';

export interface InboxArgs {
  /** `list`: plain text, `json`: one JSON document, `screen`: the keyboard inbox (a terminal is needed). */
  readonly mode: 'screen' | 'list' | 'json';
  readonly filter: InboxFilter;
  /** A project's path or its last segment. */
  readonly project?: string;
  /** Questions listed (`--list`, `--json`), the first page. */
  readonly limit: number;
  readonly help: boolean;
}

/** The most questions one listing reads (the store reads a page, never the whole inbox). */
export const LIST_LIMIT_MAX = 500;
const LIST_LIMIT_DEFAULT = 50;

export const INBOX_USAGE = [
  'Usage: ask-later inbox [--list | --json] [--filter all|blocking|non-blocking] [--project NAME] [--limit N]',
  '',
  'The questions waiting for an answer. In a terminal: a keyboard inbox (press ? for its keys, q to quit).',
  '  --list            what waits as plain text (for a pipe or a script; also what runs without a terminal)',
  '  --json            what waits as one JSON document',
  '  --filter WHICH    all (the default), blocking or non-blocking',
  '  --project NAME    only this project (its path, or its last segment)',
  `  --limit N         questions listed, 1 to ${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})`,
  '',
  'Answer one from a script: ask-later answer <id> --pick <label>… [--other TEXT] [--notes TEXT]',
].join('\n');

const EXPECTED = 'expected --list, --json, --filter all|blocking|non-blocking, --project NAME, --limit N';

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** The arguments, or the one line saying what was expected. */
export function parseInboxArgs(args: readonly string[]): Parsed<InboxArgs> {
  let mode: InboxArgs['mode'] = 'screen';
  let filter: InboxFilter = 'all';
  let project: string | undefined;
  let limit = LIST_LIMIT_DEFAULT;
  let help = false;
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--list' || arg === '--json') {
      if (mode !== 'screen') return { ok: false, error: 'give --list or --json, not both' };
      mode = arg === '--list' ? 'list' : 'json';
      continue;
    }
    if (arg !== '--filter' && arg !== '--project' && arg !== '--limit') {
      return {
        ok: false,
        error: arg.startsWith('-')
          ? `unknown option ${shown(arg)}: ${EXPECTED}`
          : `unexpected argument ${shown(arg)}: ${EXPECTED}`,
      };
    }
    if (seen.has(arg)) return { ok: false, error: `${arg} was given twice: give it once` };
    seen.add(arg);
    const value = args[i + 1];
    const what =
      arg === '--filter' ? INBOX_FILTERS.join(', ') : arg === '--project' ? 'a project path or name' : 'a number';
    if (value === undefined || value.startsWith('--')) return { ok: false, error: `${arg} needs a value: ${what}` };
    i++;
    if (arg === '--filter') {
      const known = INBOX_FILTERS.find((each) => each === value);
      if (known === undefined) return { ok: false, error: `--filter ${shown(value)} is not one of ${what}` };
      filter = known;
    } else if (arg === '--project') {
      project = value;
    } else {
      const count = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
      if (!(count >= 1 && count <= LIST_LIMIT_MAX)) {
        return { ok: false, error: `--limit ${shown(value)} is not a number from 1 to ${LIST_LIMIT_MAX}` };
      }
      limit = count;
    }
  }
  return { ok: true, args: { mode, filter, ...(project === undefined ? {} : { project }), limit, help } };
}
