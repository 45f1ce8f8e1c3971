/**
 * Drafts on Redis (see `DraftsSection` in the port): one hash per question (`d:<id>`), a field per person (and
 * member of a set); draft-2 checks the question is pending and merges the change atomically, as store/drafts.ts's
 * `mergeDraft` does for SQLite.
 */
import type { Draft } from '../../core/question.js';
import { checkDraftChange, draftBase, draftItem, parseDraft, personKey, unreadableDraft } from '../drafts.js';
import type { DraftChange, DraftResult, DraftsSection, PersonRef } from '../port.js';
import type { RedisContext } from './context.js';
import { DraftCode, scripts } from './scripts.js';

export class RedisDrafts implements DraftsSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult> {
    const x = this.#x;
    return x.run(async () => {
      const question = await x.spec(project, id);
      if (!question) return { kind: 'unknown' };
      const checked = checkDraftChange(question, change);
      const item = draftItem(question, checked.member);
      const keys = x.keys(project);
      const reply = (await x.eval(
        scripts.draft,
        [keys.question(id), keys.drafts(id)],
        [
          personKey(person, checked.member),
          checked.pick === undefined ? '' : JSON.stringify(checked.pick),
          checked.notes === undefined ? '0' : '1',
          checked.notes ?? '',
          JSON.stringify(draftBase(item)),
          String(x.now()),
          checked.choiceNotes === undefined ? '' : JSON.stringify(checked.choiceNotes),
          JSON.stringify(item.options.map((option) => option.label)),
        ],
      )) as unknown[];
      const where = `${project}#${id}`;
      switch (Number(reply[0])) {
        case DraftCode.saved:
          return { kind: 'saved', draft: parseDraft(String(reply[1]), where) };
        case DraftCode.unknown:
          return { kind: 'unknown' };
        case DraftCode.notPending:
          return { kind: 'not-pending', question: x.read(reply[1], where) };
        default:
          throw unreadableDraft(where);
      }
    });
  }

  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined> {
    const x = this.#x;
    return x.run(async () => {
      const key = personKey(person, member);
      const text = (await x.client.sendCommand(['HGET', x.keys(project).drafts(id), key])) as string | null;
      return text === null ? undefined : parseDraft(text, `${project}#${id}`);
    });
  }
}
