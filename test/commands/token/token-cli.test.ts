import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runToken } from '../../../src/commands/token/run.js';
import { hashToken } from '../../../src/core/token-format.js';
import { TOKEN_PATTERN } from '../../../src/core/token-shape.js';
import { openDatabase } from '../../../src/store/sqlite/driver.js';
import { sqliteTestDir, uniquePrefix } from '../../support/store.js';

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: {
        write: (text: string) => {
          out.stdout += text;
        },
      },
      stderr: {
        write: (text: string) => {
          out.stderr += text;
        },
      },
    },
  };
}

async function token(env: Record<string, string>, ...args: string[]) {
  const { out, io: streams } = io();
  const code = await runToken(env, args, streams, { now: () => Date.UTC(2027, 0, 8, 9, 30) });
  return { code, ...out };
}

const redis = createClient({ url: inject('redisUrl') });
afterAll(async () => {
  if (redis.isOpen) await redis.quit();
});

/** Everything the store holds about tokens, raw: Redis's tokens hash, or the SQLite table's rows. */
const stores = {
  Redis: () => {
    const prefix = uniquePrefix();
    return {
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
      raw: async () => {
        if (!redis.isOpen) await redis.connect();
        return JSON.stringify(await redis.hGetAll(`${prefix}:{tokens}`));
      },
    };
  },
  SQLite: () => {
    const path = join(sqliteTestDir(), 'inbox.db');
    return {
      env: { ASK_LATER_DB: path },
      raw: async () => {
        const db = openDatabase(path, { directory: undefined, busyTimeoutMs: 2000, readOnly: true });
        try {
          return JSON.stringify(db.prepare('SELECT * FROM tokens').all());
        } finally {
          db.close();
        }
      },
    };
  },
};

describe.each(Object.entries(stores))('ask-later token on %s', (_name, open) => {
  it('GIVEN create THEN the token is printed once on stdout; list never shows it; the store holds only its hash; revoke removes it', async () => {
    const { env, raw } = open();
    const created = await token(env, 'create', '--name', 'alice', '--projects', 'acme/*', '--projects=acme/tools/**');
    expect(created.code).toBe(0);
    const printed = created.stdout.trim();
    expect(created.stdout).toBe(`${printed}\n`);
    expect(printed).toMatch(TOKEN_PATTERN);
    const id = TOKEN_PATTERN.exec(printed)?.[1] ?? '';
    expect(created.stderr).toBe(
      `ask-later token: created alice (id ${id}), reaching acme/*, acme/tools/**. It is shown this once: give it to the agent as ASK_LATER_TOKEN (or the plugin's token setting), with ASK_LATER_URL set to serve's URL.\n`,
    );
    const secret = printed.slice(17);
    const stored = await raw();
    expect(stored).toContain(hashToken(printed));
    expect(stored).not.toContain(secret);

    const listed = await token(env, 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout.split('\n')).toEqual([
      'ID            NAME   CREATED            EXPIRES  LAST USED  WEB  PROJECTS',
      `${id}  alice  2027-01-08T09:30Z  never    never      no   acme/* acme/tools/**`,
      '',
    ]);

    const again = await token(env, 'create', '--name', 'alice', '--projects', 'other');
    expect([again.code, again.stdout]).toEqual([1, '']);
    expect(again.stderr).toContain('a token named alice exists');

    const revoked = await token(env, 'revoke', 'alice');
    expect(revoked).toEqual({
      code: 0,
      stdout: `Revoked alice (id ${id}): serve refuses it from now on.\n`,
      stderr: '',
    });
    expect(await raw()).not.toContain(hashToken(printed));
    expect((await token(env, 'list')).stdout).toBe(
      'No tokens. Create one with: ask-later token create --name NAME --projects PATTERN\n',
    );
    expect((await token(env, 'revoke', id)).code).toBe(1);
    // By id works as well as by name.
    const bob = (await token(env, 'create', '--name', 'bob', '--projects', '**')).stdout.trim();
    const bobId = TOKEN_PATTERN.exec(bob)?.[1] ?? '';
    expect((await token(env, 'revoke', bobId)).code).toBe(0);
  });

  it('GIVEN --expires 90d THEN the token carries its end, and list shows it', async () => {
    const { env } = open();
    const created = await token(env, 'create', '--name', 'ci', '--projects', '**', '--expires', '90d');
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('reaching **, until 2027-04-08T09:30Z.');
    const id = TOKEN_PATTERN.exec(created.stdout.trim())?.[1] ?? '';
    expect((await token(env, 'list')).stdout.split('\n')[1]).toBe(
      `${id}  ci    2027-01-08T09:30Z  2027-04-08T09:30Z  never      no   **`,
    );
  });

  it('GIVEN --web THEN the token is kept as one that signs a person in to the web inbox, and list says so', async () => {
    const { env, raw } = open();
    const created = await token(env, 'create', '--name', 'bea', '--web', '--projects', 'shop/*');
    expect(created.code).toBe(0);
    expect(created.stderr).toContain("It also signs bea in to serve's web inbox");
    const id = TOKEN_PATTERN.exec(created.stdout.trim())?.[1] ?? '';
    // Redis: `"web":true` in the record's JSON; SQLite: the `web` column, 1.
    expect(await raw()).toMatch(/web\\?":(?:true|1)[,}]/);
    expect((await token(env, 'list')).stdout.split('\n')[1]).toBe(
      `${id}  bea   2027-01-08T09:30Z  never    never      yes  shop/*`,
    );
  });
});

describe('ask-later token arguments', () => {
  it.each([
    [['create', '--projects', 'a'], 'token create needs --name NAME: who or what the token is for'],
    [['create', '--name', 'alice'], 'token create needs --projects PATTERN (acme/*, /srv/repos/**): what it reaches'],
    [
      ['create', '--name', 'a b', '--projects', 'x'],
      '--name must be letters, digits and . _ @ - (at most 64, starting with a letter or digit), got "a b"',
    ],
    [['create', '--name'], '--name needs a value'],
    [['rotate'], 'expected create, list or revoke, got "rotate"'],
    [['revoke'], 'token revoke takes one argument: the name or id of the token (see token list)'],
    [['list', 'x'], 'token list takes no arguments, got "x"'],
    [
      ['create', '--name', 'a', '--projects', 'x', '--expires', '3m'],
      '--expires must be a number of days from 1d to 3650d, got "3m"',
    ],
  ])('GIVEN %j THEN exit 2 with one line', async (args, line) => {
    const result = await token({ ASK_LATER_DB: '/nonexistent/never-opened.db' }, ...args);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `ask-later token: ${line}\n` });
  });

  it('GIVEN ASK_LATER_URL and no REDIS_URL THEN it refuses rather than keep the token in this machine’s file', async () => {
    const result = await token({ ASK_LATER_URL: 'https://ask-later.example' }, 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "ask-later token: this command works on the store itself: set REDIS_URL (ASK_LATER_URL reaches serve's agent API, which offers only what agents need)\n",
    );
  });
});
