/**
 * The embedded store's tables, and the migrations that bring any older file up to date. The file's schema version
 * is SQLite's `PRAGMA user_version`; migration N takes a file from version N to N + 1, in one `BEGIN IMMEDIATE`
 * transaction, so processes opening the same file at once migrate it once. (The schema version is the layout of
 * the tables; a question's *record* version, `questions.v`, is the shape of its spec and answer: see record.ts.)
 *
 *   projects        project (name), tag (projectTag: question references, unique), seq (last id given out)
 *   questions       one row per question: the record (v, spec, answer, closure as JSON; status; times; blocking and
 *                   closed_at computed from them, v5) plus
 *                   delivery state: ready_at (waiting for the agent since; NULL when not waiting), claim and
 *                   claim_until (a delivery claim's lease), delivered_at, done_at (retention clock: delivered,
 *                   reported or cancelled), size (characters its delivery entry takes)
 *   messages        where copies of a question were posted: (project, question_id, platform, channel) → message_id
 *   drafts          one person's unsent selection: (project, question_id, person "<platform>:<userId>") → JSON
 *   events          every transition: autoincrement id (the order), type, project, question_id, at; never text
 *   event_groups    consumer groups: name → last_id, the newest event handed to any of its consumers
 *   event_pending   events handed out and not acknowledged: (group_name, event_id) → consumer, delivered_at,
 *                   deliveries; `reclaim` moves idle ones to another consumer
 *   leases          named leases (serve's sweep): name → owner, until (the store's clock; one machine, one clock)
 *   failed_events   events a consumer group gave up on: (group_name, event_id) → type, project, question_id, at,
 *                   attempts, error, failed_at, replay (1: handed back to the group, waiting to be taken)
 *   tokens          agents' tokens (v6): id → name (unique), hash (SHA-256 of the token, never the token),
 *                   patterns (JSON array), created_at, expires_at, last_used_at; web (v10: 1 when it also signs a
 *                   person in to the web inbox)
 *   surface_faults  surfaces refusing for good (v7): (group_name, channel; '' for the whole platform) → error,
 *                   fix, since; dropped when a post there succeeds again
 *   decided_docs, decided_terms, decided_built   the index of decisions (v8, sqlite/decisions.ts): a row per decided
 *                   question (or set member, `member` ≥ 0; -1 for a question) with its terms, one per term of it,
 *                   and the projects indexed once
 *   decided_totals  per project: how many documents the index holds and their total length (v9, kept with them)
 *   decided_df      per project and term: how many documents hold the term (v11, kept with them)
 *   park_retries    per project and content digest: the id the last park of it gave, and when (v12: a retried
 *                   park within the window returns that question while it is pending)
 */
import type { SqliteDatabase } from './driver.js';
import { NewerSchemaError } from './newer-schema-error.js';

/** The newest schema version this code writes and reads. */
export const SCHEMA_VERSION = 12;

const MIGRATIONS: readonly string[] = [
  // 0 → 1: the first layout.
  `
  CREATE TABLE projects (
    project TEXT PRIMARY KEY,
    tag     TEXT NOT NULL UNIQUE,
    seq     INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE questions (
    project      TEXT NOT NULL,
    id           INTEGER NOT NULL,
    v            INTEGER NOT NULL,
    status       TEXT NOT NULL,
    spec         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    answer       TEXT,
    closure      TEXT,
    size         INTEGER,
    ready_at     INTEGER,
    claim        TEXT,
    claim_until  INTEGER,
    delivered_at INTEGER,
    done_at      INTEGER,
    PRIMARY KEY (project, id)
  ) STRICT;
  CREATE INDEX questions_by_status ON questions (project, status);
  CREATE INDEX questions_outbox ON questions (project, ready_at, id) WHERE ready_at IS NOT NULL;
  CREATE INDEX questions_expiry ON questions (expires_at) WHERE status = 'pending' AND expires_at IS NOT NULL;
  CREATE INDEX questions_done ON questions (done_at) WHERE done_at IS NOT NULL;

  CREATE TABLE messages (
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    platform    TEXT NOT NULL,
    channel     TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    PRIMARY KEY (project, question_id, platform, channel)
  ) STRICT;

  CREATE TABLE drafts (
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    person      TEXT NOT NULL,
    draft       TEXT NOT NULL,
    PRIMARY KEY (project, question_id, person)
  ) STRICT;

  CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    type        TEXT NOT NULL,
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    at          INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX events_by_time ON events (at);

  CREATE TABLE event_groups (
    name    TEXT PRIMARY KEY,
    last_id INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE event_pending (
    group_name   TEXT NOT NULL,
    event_id     INTEGER NOT NULL,
    consumer     TEXT NOT NULL,
    delivered_at INTEGER NOT NULL,
    deliveries   INTEGER NOT NULL,
    PRIMARY KEY (group_name, event_id)
  ) STRICT;
  CREATE INDEX event_pending_by_age ON event_pending (group_name, delivered_at);
  `,
  // 1 → 2: named leases.
  `
  CREATE TABLE leases (
    name  TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL
  ) STRICT;
  `,
  // 2 → 3: events a consumer group gave up on.
  `
  CREATE TABLE failed_events (
    group_name  TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    error       TEXT NOT NULL,
    failed_at   INTEGER NOT NULL,
    replay      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (group_name, event_id)
  ) STRICT;
  `,
  // 3 → 4: how an outcome reached the agent; reminders sent while pending.
  `
  ALTER TABLE questions ADD COLUMN delivered_via TEXT;
  ALTER TABLE questions ADD COLUMN reminders INTEGER;
  ALTER TABLE questions ADD COLUMN reminded_at INTEGER;
  `,
  // 4 → 5: the views read a page at a time (store/paging.ts): blocking and closing time as columns computed from
  // the record (so every write path keeps them true, and rows written before need nothing; a field that is not
  // JSON computes as not blocking / the creation time rather than failing the write), each view's order an index.
  `
  ALTER TABLE questions ADD COLUMN blocking INTEGER GENERATED ALWAYS AS
    (CASE WHEN json_valid(spec) AND json_extract(spec, '$.isBlocking') = 1 THEN 1 ELSE 0 END) VIRTUAL;
  ALTER TABLE questions ADD COLUMN closed_at INTEGER GENERATED ALWAYS AS
    (CASE WHEN status = 'pending' THEN NULL ELSE CAST(coalesce(
      CASE WHEN json_valid(answer) THEN json_extract(answer, '$.at') END,
      CASE WHEN json_valid(closure) THEN json_extract(closure, '$.at') END,
      delivered_at, created_at) AS INTEGER) END) VIRTUAL;
  CREATE INDEX questions_pending_view ON questions (blocking DESC, created_at, id) WHERE status = 'pending';
  CREATE INDEX questions_closed_view ON questions (closed_at DESC, id DESC) WHERE status <> 'pending';
  `,
  // 5 → 6: the agents' tokens.
  `
  CREATE TABLE IF NOT EXISTS tokens (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    hash         TEXT NOT NULL,
    patterns     TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    last_used_at INTEGER
  ) STRICT;
  `,
  // 6 → 7: surfaces the bridge found refusing for good.
  `
  CREATE TABLE IF NOT EXISTS surface_faults (
    group_name TEXT NOT NULL,
    channel    TEXT NOT NULL,
    error      TEXT NOT NULL,
    fix        TEXT NOT NULL,
    since      INTEGER NOT NULL,
    PRIMARY KEY (group_name, channel)
  ) STRICT;
  `,
  // 7 → 8: the index of decisions (sqlite/decisions.ts), built per project on its first check.
  `
  CREATE TABLE IF NOT EXISTS decided_docs (
    project TEXT NOT NULL,
    id      INTEGER NOT NULL,
    member  INTEGER NOT NULL,
    length  INTEGER NOT NULL,
    terms   TEXT NOT NULL,
    PRIMARY KEY (project, id, member)
  ) STRICT;
  CREATE TABLE IF NOT EXISTS decided_terms (
    project TEXT NOT NULL,
    term    TEXT NOT NULL,
    id      INTEGER NOT NULL,
    member  INTEGER NOT NULL,
    PRIMARY KEY (project, term, id, member)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS decided_terms_by_question ON decided_terms (project, id, member);
  CREATE TABLE IF NOT EXISTS decided_built (project TEXT PRIMARY KEY) STRICT;
  `,
  // 8 → 9: the index's totals kept with it (a check read every document to count them).
  `
  CREATE TABLE IF NOT EXISTS decided_totals (
    project   TEXT PRIMARY KEY,
    documents INTEGER NOT NULL,
    length    INTEGER NOT NULL
  ) STRICT;
  INSERT OR REPLACE INTO decided_totals (project, documents, length)
    SELECT project, COUNT(*), SUM(length) FROM decided_docs GROUP BY project;
  `,
  // 9 → 10: tokens that also sign a person in to the web inbox (`token create --web`).
  `
  ALTER TABLE tokens ADD COLUMN web INTEGER NOT NULL DEFAULT 0;
  `,
  // 10 → 11: each term's document count kept with the index (a check counted the term's rows, every time).
  `
  CREATE TABLE IF NOT EXISTS decided_df (
    project   TEXT NOT NULL,
    term      TEXT NOT NULL,
    documents INTEGER NOT NULL,
    PRIMARY KEY (project, term)
  ) STRICT, WITHOUT ROWID;
  INSERT OR REPLACE INTO decided_df (project, term, documents)
    SELECT project, term, COUNT(*) FROM decided_terms GROUP BY project, term;
  `,
  // 11 → 12: the last park of each content digest, so a retried park returns the question it stored.
  `
  CREATE TABLE IF NOT EXISTS park_retries (
    project   TEXT NOT NULL,
    digest    TEXT NOT NULL,
    id        INTEGER NOT NULL,
    parked_at INTEGER NOT NULL,
    PRIMARY KEY (project, digest)
  ) STRICT, WITHOUT ROWID;
  `,
];

function userVersion(db: SqliteDatabase): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number | bigint }).user_version);
}

/** Bring the file to {@link SCHEMA_VERSION}. A no-op read when it is there already (every open after the first). */
export function migrate(db: SqliteDatabase): void {
  if (userVersion(db) === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const found = userVersion(db); // again, under the write lock: another process may have migrated meanwhile
    if (found > SCHEMA_VERSION) throw new NewerSchemaError(found, SCHEMA_VERSION);
    for (let version = found; version < SCHEMA_VERSION; version++) db.exec(MIGRATIONS[version] ?? '');
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
