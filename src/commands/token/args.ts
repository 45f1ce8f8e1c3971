/** `ask-later token …`'s arguments, understood, or the one line saying what was expected and what came. Pure. */
import { TOKEN_NAME_PATTERN } from '../../store/token-record.js';

export type TokenCommand =
  | {
      readonly kind: 'create';
      readonly name: string;
      readonly patterns: readonly string[];
      /** How long serve accepts it (`--expires 90d`); forever when absent. */
      readonly expiresInDays?: number;
      /** It also signs a person in to the web inbox (`--web`). */
      readonly web?: true;
    }
  | { readonly kind: 'list' }
  | { readonly kind: 'revoke'; readonly nameOrId: string }
  | { readonly kind: 'help' };

export const TOKEN_USAGE = [
  'Usage: ask-later token create --name NAME --projects PATTERN [--projects PATTERN …] [--expires DAYSd] [--web]',
  '       ask-later token list',
  '       ask-later token revoke NAME|ID',
  '',
  "Tokens let agents reach serve's agent API (ASK_LATER_URL + ASK_LATER_TOKEN) without the store's password.",
  '  --name NAME          who or what the token is for (alice, ci-runner): letters, digits and . _ @ -, at most 64',
  '  --projects PATTERN   the projects it reaches, as in the routing file (acme/*, /srv/repos/**); repeat for more',
  '  --expires DAYSd      serve refuses it after that many days (90d); default: until it is revoked',
  "  --web                it also signs its holder in to serve's web inbox, for those projects and under NAME",
  'create prints the token once, on stdout; the store keeps only its SHA-256.',
].join('\n');

/** The longest `--expires`: ten years. */
const MAX_DAYS = 3650;

/** The most patterns one token carries. */
const PATTERNS_MAX = 50;

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

export function parseTokenArgs(
  args: readonly string[],
): { readonly ok: true; readonly command: TokenCommand } | { readonly ok: false; readonly error: string } {
  const [verb, ...rest] = args;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    return { ok: true, command: { kind: 'help' } };
  }
  if (verb === 'list') {
    if (rest.length > 0) return { ok: false, error: `token list takes no arguments, got ${shown(rest[0] ?? '')}` };
    return { ok: true, command: { kind: 'list' } };
  }
  if (verb === 'revoke') {
    const [target, ...more] = rest;
    if (target === undefined || target.startsWith('-') || more.length > 0) {
      return { ok: false, error: 'token revoke takes one argument: the name or id of the token (see token list)' };
    }
    return { ok: true, command: { kind: 'revoke', nameOrId: target } };
  }
  if (verb !== 'create') {
    return { ok: false, error: `expected create, list or revoke, got ${shown(verb)}` };
  }
  let name: string | undefined;
  let expiresInDays: number | undefined;
  let web = false;
  const patterns: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg === '--web') {
      web = true;
      continue;
    }
    const flag = /^(--[a-z-]+)(?:=(.*))?$/s.exec(arg);
    const option = flag?.[1];
    if (option !== '--name' && option !== '--projects' && option !== '--expires') {
      return {
        ok: false,
        error: `unexpected ${shown(arg)}: expected --name NAME, --projects PATTERN and optionally --expires DAYSd, --web`,
      };
    }
    let value = flag?.[2];
    if (value === undefined) {
      value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) return { ok: false, error: `${option} needs a value` };
      i++;
    }
    if (option === '--expires') {
      if (expiresInDays !== undefined) return { ok: false, error: '--expires was given twice: give it once' };
      const days = /^(\d{1,4})d$/.exec(value.trim());
      const count = Number(days?.[1]);
      if (!days || count < 1 || count > MAX_DAYS) {
        return { ok: false, error: `--expires must be a number of days from 1d to ${MAX_DAYS}d, got ${shown(value)}` };
      }
      expiresInDays = count;
    } else if (option === '--name') {
      if (name !== undefined) return { ok: false, error: '--name was given twice: give it once' };
      if (!TOKEN_NAME_PATTERN.test(value)) {
        return {
          ok: false,
          error: `--name must be letters, digits and . _ @ - (at most 64, starting with a letter or digit), got ${shown(value)}`,
        };
      }
      name = value;
    } else {
      const pattern = value.trim();
      if (pattern === '' || pattern.length > 1024 || /[\p{Cc}]/u.test(pattern)) {
        return { ok: false, error: `--projects must be a project name or pattern such as acme/*, got ${shown(value)}` };
      }
      if (!patterns.includes(pattern)) patterns.push(pattern);
    }
  }
  if (name === undefined) return { ok: false, error: 'token create needs --name NAME: who or what the token is for' };
  if (patterns.length === 0) {
    return { ok: false, error: 'token create needs --projects PATTERN (acme/*, /srv/repos/**): what it reaches' };
  }
  if (patterns.length > PATTERNS_MAX) {
    return { ok: false, error: `a token takes at most ${PATTERNS_MAX} --projects, got ${patterns.length}` };
  }
  return {
    ok: true,
    command: {
      kind: 'create',
      name,
      patterns,
      ...(expiresInDays !== undefined ? { expiresInDays } : {}),
      ...(web ? { web: true as const } : {}),
    },
  };
}
