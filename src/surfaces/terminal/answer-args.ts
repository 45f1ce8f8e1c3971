/**
 * `ask-later answer <id> --pick <label>… [--other TEXT] [--notes TEXT] [--project NAME]`, understood: the question
 * (`12`, `#12`, or a set's member `12.2`), the labels to pick, Other's text, the notes. Pure; every mistake is one
 * line saying what was expected and what came.
 */
import { OTHER_LABEL, type QuestionItem } from '../../core/question.js';

export interface AnswerArgs {
  readonly id: number;
  /** A set's member (0 for `12.1`); absent: the question itself (or a whole set, sent as drafted). */
  readonly member?: number;
  readonly picks: readonly string[];
  /** Other's text: picks Other, the text its notes. */
  readonly other?: string;
  readonly notes?: string;
  /** A project's path or its last segment, when the id is in several. */
  readonly project?: string;
  readonly help: boolean;
}

export const ANSWER_USAGE = [
  'Usage: ask-later answer <id> --pick <label>… [--other TEXT] [--notes TEXT] [--project NAME]',
  '',
  'Answers one waiting question (see ask-later inbox --list) as you, the first answer winning on every surface.',
  '  <id>            the question: 12 (or #12); a set member: 12.2, then the whole set: 12 with no --pick',
  '  --pick LABEL…   the option(s) to pick, by label (or number); several for a multi-select',
  `  --other TEXT    picks ${OTHER_LABEL}, with TEXT as its answer`,
  '  --notes TEXT    notes sent with the answer',
  '  --project NAME  the project (its path, or its last segment) when the id waits in several',
].join('\n');

const EXPECTED = 'expected <id> --pick LABEL… [--other TEXT] [--notes TEXT] [--project NAME]';

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

export type Parsed<T> = { readonly ok: true; readonly args: T } | { readonly ok: false; readonly error: string };

/** The arguments, or the one line saying what was expected. */
export function parseAnswerArgs(args: readonly string[]): Parsed<AnswerArgs> {
  let id: number | undefined;
  let member: number | undefined;
  const picks: string[] = [];
  let other: string | undefined;
  let notes: string | undefined;
  let project: string | undefined;
  let help = false;
  const once = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--pick') {
      const start = i;
      while (args[i + 1] !== undefined && !(args[i + 1] ?? '').startsWith('--')) picks.push(args[++i] ?? '');
      if (i === start) return { ok: false, error: '--pick needs a label: --pick LABEL (several for a multi-select)' };
      continue;
    }
    if (arg === '--other' || arg === '--notes' || arg === '--project') {
      if (once.has(arg)) return { ok: false, error: `${arg} was given twice: give it once` };
      once.add(arg);
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) {
        return {
          ok: false,
          error: `${arg} needs a value: ${arg === '--project' ? 'a project path or name' : 'a text'}`,
        };
      }
      i++;
      if (arg === '--other') other = value;
      else if (arg === '--notes') notes = value;
      else project = value;
      continue;
    }
    if (arg.startsWith('-')) return { ok: false, error: `unknown option ${shown(arg)}: ${EXPECTED}` };
    if (id !== undefined) return { ok: false, error: `unexpected argument ${shown(arg)}: ${EXPECTED}` };
    const match = /^#?([1-9]\d{0,8})(?:\.([1-9]))?$/.exec(arg);
    if (!match) return { ok: false, error: `${shown(arg)} is not a question id: expected 12, #12 or a member 12.2` };
    id = Number(match[1]);
    if (match[2] !== undefined) member = Number(match[2]) - 1;
  }
  if (help) return { ok: true, args: { id: id ?? 0, picks, help } };
  if (id === undefined) return { ok: false, error: `which question? ${EXPECTED}` };
  if (other !== undefined && other.trim() === '') {
    return { ok: false, error: `--other needs a text: ${OTHER_LABEL} without one says nothing` };
  }
  return {
    ok: true,
    args: {
      id,
      ...(member === undefined ? {} : { member }),
      picks,
      ...(other === undefined ? {} : { other }),
      ...(notes === undefined ? {} : { notes }),
      ...(project === undefined ? {} : { project }),
      help,
    },
  };
}

/**
 * The labels `picks` name among the item's options: each by its label (exact, else the one label equal ignoring
 * case) or its number (1 for the first); undefined with the first that names none.
 */
export function resolvePicks(
  item: Pick<QuestionItem, 'options'>,
  picks: readonly string[],
): { readonly ok: true; readonly labels: string[] } | { readonly ok: false; readonly unknown: string } {
  const labels: string[] = [];
  for (const pick of picks) {
    const exact = item.options.find((option) => option.label === pick);
    const folded = item.options.filter((option) => option.label.toLowerCase() === pick.trim().toLowerCase());
    const numbered = /^\d+$/.test(pick) ? item.options[Number(pick) - 1] : undefined;
    const option = exact ?? (folded.length === 1 ? folded[0] : undefined) ?? numbered;
    if (option === undefined) return { ok: false, unknown: pick };
    if (!labels.includes(option.label)) labels.push(option.label);
  }
  return { ok: true, labels };
}

/** Why a pick was refused: the option that does not exist, and those that do. */
export function unknownPickText(ref: string, pick: string, item: Pick<QuestionItem, 'options'>): string {
  const labels = item.options.map((option) => option.label).join(', ');
  return `${ref} has no option ${shown(pick)}: pick one of ${labels} (or --other TEXT).`;
}
