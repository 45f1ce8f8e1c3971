/**
 * Drafts in the SQLite file (see `DraftsSection` in the port): the `drafts` table, a row per person (and member of
 * a set); a change is read and merged (store/drafts.ts's `mergeDraft`) inside the write transaction, so changes
 * arriving together, from other processes too, all land.
 */
import type { Draft } from '../../core/question.js';
import { checkDraftChange, draftItem, mergeDraft, parseDraft, personKey } from '../drafts.js';
import type { DraftChange, DraftResult, DraftsSection, PersonRef } from '../port.js';
import type { SqliteContext } from './context.js';

const SELECT_DRAFT = 'SELECT draft FROM drafts WHERE project = ? AND question_id = ? AND person = ?';

export class SqliteDrafts implements DraftsSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write((): DraftResult => {
        const question = this.#x.get(project, id);
        if (!question) return { kind: 'unknown' };
        const checked = checkDraftChange(question, change);
        if (question.status !== 'pending') return { kind: 'not-pending', question };
        const key = personKey(person, checked.member);
        const row = c.statement(SELECT_DRAFT).get(project, id, key) as { draft: string } | undefined;
        const stored = row && parseDraft(row.draft, `${project}#${id}`);
        const draft = mergeDraft(draftItem(question, checked.member), stored, checked, this.#x.now());
        c.statement('INSERT OR REPLACE INTO drafts (project, question_id, person, draft) VALUES (?, ?, ?, ?)').run(
          project,
          id,
          key,
          JSON.stringify(draft),
        );
        return { kind: 'saved', draft };
      }),
    );
  }

  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined> {
    return this.#x.run(() => {
      const row = this.#x.c.statement(SELECT_DRAFT).get(project, id, personKey(person, member)) as
        | { draft: string }
        | undefined;
      return row && parseDraft(row.draft, `${project}#${id}`);
    });
  }
}
