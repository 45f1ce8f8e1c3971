/**
 * This copy of ask-later has no SQLite engine (better-sqlite3, a native addon) and no other install recorded one:
 * the Claude Code plugin's bundles cannot carry it. The message says what to do; it names no question text.
 */
export class SqliteEngineMissingError extends Error {
  override readonly name = 'SqliteEngineMissingError';

  constructor(options?: { cause?: unknown }) {
    super(
      'the embedded store needs better-sqlite3, which this copy of ask-later does not carry: start `ask-later serve` once ' +
        'from an npm install of ask-later (it records where its better-sqlite3 is, next to the store), or set REDIS_URL',
      options,
    );
  }
}
