/** Named leases in the SQLite file (see `LeasesSection` in the port): the `leases` table, timed by the store's clock. */
import type { LeasesSection } from '../port.js';
import type { SqliteContext } from './context.js';

export class SqliteLeases implements LeasesSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const now = this.#x.now();
        // Taken when free, lapsed, or already this owner's; the upsert's WHERE leaves another live owner's alone.
        const taken = c
          .statement(
            `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
             WHERE leases.owner = excluded.owner OR leases.until <= ?`,
          )
          .run(name, owner, now + Math.max(1, ms), now);
        return Number(taken.changes) === 1;
      }),
    );
  }

  releaseLease(name: string, owner: string): Promise<void> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        c.statement('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, owner);
      }),
    );
  }

  seizeLease(name: string, owner: string, ms: number): Promise<void> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        c.statement(
          `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until`,
        ).run(name, owner, this.#x.now() + Math.max(1, ms));
      }),
    );
  }
}
