/** Park and read questions on Redis (see `QuestionsSection` in the port). */
import { type MessageRef, QUESTION_STATUSES, type Question, type QuestionSpec } from '../../core/question.js';
import { byBlockingThenAge, byBlockingThenId } from '../drafts.js';
import type { ListFilter, ParkOptions, QuestionsSection } from '../port.js';
import { expiryOf, PARK_RETRY_WINDOW_MS, parkDigest, parkedQuestion, readEach } from '../shared.js';
import { TagCollisionError } from '../tag-collision-error.js';
import type { RedisContext } from './context.js';
import { messageField, specRecord } from './record.js';
import { INDEX_VERSION, PARK_TAG_COLLISION, scripts } from './scripts.js';

export class RedisQuestions implements QuestionsSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  park(project: string, spec: QuestionSpec, options: ParkOptions = {}): Promise<Question> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      await x.registerProject(keys);
      const now = x.now();
      const expiresAt = expiryOf(spec, now);
      const record = specRecord(spec);
      const [rawId, again] = (await x.eval(
        scripts.park,
        [
          keys.meta,
          keys.status('pending'),
          keys.expiry,
          keys.events,
          keys.inboxIndex,
          // Without a retry key, a key no park holds (the script then always parks anew).
          options.retryKey === undefined
            ? `${keys.base}pk:`
            : keys.parkRetry(parkDigest(options.retryKey, record.json)),
        ],
        [
          keys.base,
          project,
          record.json,
          now,
          expiresAt ?? '',
          record.version,
          x.maxLen,
          spec.isBlocking ? '1' : '0',
          INDEX_VERSION,
          options.retryKey === undefined ? '' : PARK_RETRY_WINDOW_MS,
        ],
      )) as [number, number];
      const id = Number(rawId);
      if (id === PARK_TAG_COLLISION) throw new TagCollisionError(keys.tag);
      if (Number(again) === 1) {
        const stored = await x.get(project, id);
        if (stored !== undefined) return stored;
      }
      await x.hint(keys);
      return parkedQuestion(project, id, spec, now);
    });
  }

  get(project: string, id: number): Promise<Question | undefined> {
    return this.#x.run(() => this.#x.get(project, id));
  }

  /** One project's questions in the filter's states, in no particular order. */
  async #list(project: string, filter: ListFilter): Promise<Question[]> {
    const x = this.#x;
    const keys = x.keys(project);
    const statuses = filter.status ?? QUESTION_STATUSES;
    const idLists = await Promise.all(
      statuses.map((status) => x.client.sendCommand(['ZRANGE', keys.status(status), '0', '-1']) as Promise<string[]>),
    );
    const ids = idLists.flat();
    const hashes = await Promise.all(ids.map((id) => x.hash(keys.question(Number(id)))));
    const questions = readEach(
      hashes.keys(),
      (i) => {
        const hash = hashes[i];
        return hash && x.fromHash(hash, `${project}#${ids[i]}`);
      },
      x.options.onCorruptRecord,
    );
    return questions.filter((q) => filter.blocking === undefined || q.isBlocking === filter.blocking);
  }

  list(project: string, filter: ListFilter = {}): Promise<Question[]> {
    return this.#x.run(async () => (await this.#list(project, filter)).sort(byBlockingThenId));
  }

  listAcross(projects: readonly string[], filter: ListFilter = {}): Promise<Question[]> {
    return this.#x.run(async () => {
      const lists = await Promise.all([...new Set(projects)].map((project) => this.#list(project, filter)));
      return lists.flat().sort(byBlockingThenAge);
    });
  }

  knownProjects(): Promise<string[]> {
    return this.#x.run(async () => [...(await this.#x.projects()).values()]);
  }

  projectByTag(tag: string): Promise<string | undefined> {
    return this.#x.run(async () => {
      const reply = await this.#x.client.sendCommand(['HGET', this.#x.global.projects, tag]);
      return typeof reply === 'string' ? reply : undefined;
    });
  }

  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean> {
    return this.#x.run(async () => {
      const reply = await this.#x.eval(
        scripts.recordMessage,
        [this.#x.keys(project).question(id)],
        [messageField(ref.platform, ref.channel), ref.messageId],
      );
      return Number(reply) === 1;
    });
  }
}
