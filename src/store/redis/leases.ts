/** Named leases on Redis (see `LeasesSection` in the port): one key each, timed by Redis itself (PX). */
import type { LeasesSection } from '../port.js';
import type { RedisContext } from './context.js';
import { scripts } from './scripts.js';

export class RedisLeases implements LeasesSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    const x = this.#x;
    return x.run(
      async () => Number(await x.eval(scripts.lease, [x.global.lease(name)], [owner, Math.max(1, ms)])) === 1,
    );
  }

  releaseLease(name: string, owner: string): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      await x.eval(scripts.releaseLease, [x.global.lease(name)], [owner]);
    });
  }

  seizeLease(name: string, owner: string, ms: number): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      // One key, one command: no script needed to overwrite.
      await x.client.sendCommand(['SET', x.global.lease(name), owner, 'PX', String(Math.max(1, ms))]);
    });
  }
}
