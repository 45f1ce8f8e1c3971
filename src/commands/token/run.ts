/**
 * `ask-later token create|list|revoke`: the agents' tokens, kept in the store serve uses (REDIS_URL, else the
 * embedded file), so every replica accepts them at once. `create` prints the token once, alone on stdout (so
 * `export ASK_LATER_TOKEN=$(ask-later token create …)` works); nothing else ever prints one: the store keeps only its
 * SHA-256. Exit 0 done, 2 with one line when the arguments are wrong, 1 with one line when the settings or the store
 * are, or nothing matched a revoke.
 */

import { hashToken, newToken } from '../../core/token-format.js';
import { CorruptTokenError } from '../../store/corrupt-token-error.js';
import type { TokenRecord } from '../../store/token-port.js';
import { openCommandStore } from '../open-store.js';
import { parseTokenArgs, TOKEN_USAGE } from './args.js';

type Env = Readonly<Record<string, string | undefined>>;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TokenIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export async function runToken(
  env: Env,
  argv: readonly string[],
  io: TokenIo,
  options: { readonly now?: () => number } = {},
): Promise<number> {
  const parsed = parseTokenArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`ask-later token: ${parsed.error}\n`);
    return 2;
  }
  const { command } = parsed;
  if (command.kind === 'help') {
    io.stdout.write(`${TOKEN_USAGE}\n`);
    return 0;
  }
  const store = await openCommandStore('token', env, io.stderr);
  if (!store) return 1;
  const now = options.now ?? Date.now;
  try {
    const tokens = store.tokens();
    if (command.kind === 'create') {
      const { token, id } = newToken();
      const record: TokenRecord = {
        id,
        name: command.name,
        hash: hashToken(token),
        patterns: command.patterns,
        createdAt: now(),
        ...(command.expiresInDays !== undefined ? { expiresAt: now() + command.expiresInDays * DAY_MS } : {}),
        ...(command.web === true ? { web: true as const } : {}),
      };
      if (!(await tokens.create(record))) {
        io.stderr.write(
          `ask-later token: a token named ${command.name} exists: revoke it first (ask-later token revoke ${command.name}) or pick another name\n`,
        );
        return 1;
      }
      io.stdout.write(`${token}\n`);
      const until = record.expiresAt === undefined ? '' : `, until ${isoMinute(record.expiresAt)}`;
      const web =
        record.web === true
          ? ` It also signs ${command.name} in to serve's web inbox (beyond loopback, beside ASK_LATER_WEB_TOKEN), for those projects.`
          : '';
      io.stderr.write(
        `ask-later token: created ${command.name} (id ${id}), reaching ${command.patterns.join(', ')}${until}. It is shown this once: give it to the agent as ASK_LATER_TOKEN (or the plugin's token setting), with ASK_LATER_URL set to serve's URL.${web}\n`,
      );
      return 0;
    }
    if (command.kind === 'list') {
      io.stdout.write(formatList(await tokens.list(), now()));
      return 0;
    }
    const revoked = await tokens.revoke(command.nameOrId);
    if (!revoked) {
      io.stderr.write(`ask-later token: no token is named ${command.nameOrId} or has that id (see token list)\n`);
      return 1;
    }
    io.stdout.write(`Revoked ${revoked.name} (id ${revoked.id}): serve refuses it from now on.\n`);
    return 0;
  } catch (error) {
    const why = error instanceof CorruptTokenError ? error.message : error instanceof Error ? error.name : 'an error';
    io.stderr.write(`ask-later token: cannot ${command.kind} tokens (${why})\n`);
    return 1;
  } finally {
    await store.close();
  }
}

/** The live tokens as a table: id, name, when created, expiring and last used, web sign-in, patterns. Never a token. */
export function formatList(records: readonly TokenRecord[], now: number): string {
  if (records.length === 0)
    return 'No tokens. Create one with: ask-later token create --name NAME --projects PATTERN\n';
  const rows = [
    ['ID', 'NAME', 'CREATED', 'EXPIRES', 'LAST USED', 'WEB', 'PROJECTS'],
    ...records.map((record) => [
      record.id,
      record.name,
      isoMinute(record.createdAt),
      record.expiresAt === undefined
        ? 'never'
        : `${isoMinute(record.expiresAt)}${record.expiresAt <= now ? ' (expired)' : ''}`,
      record.lastUsedAt === undefined ? 'never' : isoMinute(record.lastUsedAt),
      record.web === true ? 'yes' : 'no',
      record.patterns.join(' '),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return `${rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')).join('\n')}\n`;
}

function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}
