/**
 * What every section of the SQLite adapter works with: the connection (connection.ts: statements, write
 * transactions, the change watch) and its error mapping, the store's options and clock, and the few steps several
 * sections take inside a transaction (append an event, drop drafts, read one question).
 */
import type { Question } from '../../core/question.js';
import type { EventType } from '../port.js';
import { ParsedSpecs } from '../redis/record.js';
import { readEach } from '../shared.js';
import { type SqliteConnection, toStoreError } from './connection.js';
import type { SqliteStoreOptions } from './options.js';
import { QUESTION_COLUMNS, type QuestionRow, questionFromRow } from './record.js';

/** A question row with its delivery state. */
export interface Row extends QuestionRow {
  readonly size?: number | null;
  readonly claim?: string | null;
  readonly claim_until?: number | null;
}

const SELECT_ONE = `SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.project = ? AND q.id = ?`;

export class SqliteContext {
  readonly c: SqliteConnection;
  readonly options: SqliteStoreOptions;
  readonly now: () => number;
  /** Specs as parsed from rows, so reading the same row again skips parsing its spec. */
  readonly #parsed = new ParsedSpecs(10_000);

  constructor(connection: SqliteConnection, options: SqliteStoreOptions) {
    this.c = connection;
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /** Run a call's work (a read, or a write transaction) as the port's promise, failures to reach the file as `StoreUnavailableError`. */
  async run<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Append a transition's event (inside its transaction). */
  event(type: EventType, project: string, id: number, at: number): void {
    this.c
      .statement('INSERT INTO events (type, project, question_id, at) VALUES (?, ?, ?, ?)')
      .run(type, project, id, at);
  }

  /** Drop every draft of a question that is no longer pending (inside its transaction). */
  dropDrafts(project: string, id: number): void {
    this.c.statement('DELETE FROM drafts WHERE project = ? AND question_id = ?').run(project, id);
  }

  /** One question as stored now (inside or outside a transaction). Throws `CorruptRecordError`. */
  get(project: string, id: number): Question | undefined {
    const row = this.c.statement(SELECT_ONE).get(project, id) as Row | undefined;
    return row && this.fromRow(row);
  }

  /** A row as a question. Throws `CorruptRecordError`. */
  fromRow(row: QuestionRow): Question {
    return questionFromRow(row, this.#parsed);
  }

  /** Rows as questions; a row that does not read is reported and skipped (listings never fail whole). */
  readMany(rows: readonly Row[]): Question[] {
    return readEach(rows, (row) => this.fromRow(row), this.options.onCorruptRecord);
  }
}
