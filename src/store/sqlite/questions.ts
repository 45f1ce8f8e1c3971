/** Park and read questions in the SQLite file (see `QuestionsSection` in the port). */
import type { MessageRef, Question, QuestionSpec } from '../../core/question.js';
import { projectTag } from '../../core/question-ref.js';
import { byBlockingThenAge, byBlockingThenId } from '../drafts.js';
import type { ListFilter, ParkOptions, QuestionsSection } from '../port.js';
import { expiryOf, PARK_RETRY_WINDOW_MS, parkDigest, parkedQuestion } from '../shared.js';
import { TagCollisionError } from '../tag-collision-error.js';
import type { Row, SqliteContext } from './context.js';
import { QUESTION_COLUMNS, specRecord } from './record.js';

export class SqliteQuestions implements QuestionsSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  park(project: string, spec: QuestionSpec, options: ParkOptions = {}): Promise<Question> {
    const { c } = this.#x;
    // Everything that does not need the write lock is done before taking it.
    const record = specRecord(spec);
    const tag = projectTag(project);
    const digest = options.retryKey === undefined ? undefined : parkDigest(options.retryKey, record.json);
    return this.#x.run(() =>
      c.write(() => {
        const owner = c.statement('SELECT project FROM projects WHERE tag = ?').get(tag) as
          | { project: string }
          | undefined;
        if (owner && owner.project !== project) throw new TagCollisionError(tag);
        if (!owner) c.statement('INSERT INTO projects (project, tag, seq) VALUES (?, ?, 0)').run(project, tag);
        const now = this.#x.now();
        // The same content parked within the window and still pending: a retry, not a second question.
        const since = now - PARK_RETRY_WINDOW_MS;
        const retried =
          digest === undefined
            ? undefined
            : (c
                .statement(
                  `SELECT q.id FROM park_retries r JOIN questions q ON q.project = r.project AND q.id = r.id
             WHERE r.project = ? AND r.digest = ? AND r.parked_at >= ? AND q.status = 'pending'`,
                )
                .get(project, digest, since) as { id: number } | undefined);
        if (retried !== undefined) {
          const stored = this.#x.get(project, retried.id);
          if (stored !== undefined) return stored;
        }
        const { seq: id } = c
          .statement('UPDATE projects SET seq = seq + 1 WHERE project = ? RETURNING seq')
          .get(project) as { seq: number };
        c.statement(
          `INSERT INTO questions (project, id, v, status, spec, created_at, expires_at)
             VALUES (?, ?, ?, 'pending', ?, ?, ?)`,
        ).run(project, id, record.version, record.json, now, expiryOf(spec, now) ?? null);
        if (digest !== undefined) {
          c.statement('DELETE FROM park_retries WHERE project = ? AND parked_at < ?').run(project, since);
          c.statement('INSERT OR REPLACE INTO park_retries (project, digest, id, parked_at) VALUES (?, ?, ?, ?)').run(
            project,
            digest,
            id,
            now,
          );
        }
        this.#x.event('parked', project, id, now);
        return parkedQuestion(project, id, spec, now);
      }),
    );
  }

  get(project: string, id: number): Promise<Question | undefined> {
    return this.#x.run(() => this.#x.get(project, id));
  }

  #list(project: string, filter: ListFilter): Question[] {
    const statuses = filter.status === undefined ? null : JSON.stringify(filter.status);
    const rows = this.#x.c
      .statement(
        `SELECT ${QUESTION_COLUMNS} FROM questions q
         WHERE q.project = @project AND (@statuses IS NULL OR q.status IN (SELECT value FROM json_each(@statuses)))`,
      )
      .all({ project, statuses }) as Row[];
    return this.#x.readMany(rows).filter((q) => filter.blocking === undefined || q.isBlocking === filter.blocking);
  }

  list(project: string, filter: ListFilter = {}): Promise<Question[]> {
    return this.#x.run(() => this.#list(project, filter).sort(byBlockingThenId));
  }

  listAcross(projects: readonly string[], filter: ListFilter = {}): Promise<Question[]> {
    return this.#x.run(() =>
      [...new Set(projects)].flatMap((project) => this.#list(project, filter)).sort(byBlockingThenAge),
    );
  }

  knownProjects(): Promise<string[]> {
    return this.#x.run(() =>
      (this.#x.c.statement('SELECT project FROM projects ORDER BY rowid').all() as { project: string }[]).map(
        (row) => row.project,
      ),
    );
  }

  projectByTag(tag: string): Promise<string | undefined> {
    return this.#x.run(() => {
      const row = this.#x.c.statement('SELECT project FROM projects WHERE tag = ?').get(tag) as
        | { project: string }
        | undefined;
      return row?.project;
    });
  }

  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const exists = c.statement('SELECT 1 FROM questions WHERE project = ? AND id = ?').get(project, id);
        if (exists === undefined) return false;
        c.statement(
          `INSERT OR REPLACE INTO messages (project, question_id, platform, channel, message_id)
             VALUES (?, ?, ?, ?, ?)`,
        ).run(project, id, ref.platform, ref.channel, ref.messageId);
        return true;
      }),
    );
  }
}
