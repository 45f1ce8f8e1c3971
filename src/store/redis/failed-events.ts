/**
 * Failed events and surface faults on Redis (see `FailuresSection` in the port): the `{failed}`-tagged keys (one
 * slot; keys.ts), record-failure-2 and replay-failed-2 where several keys change together, single commands otherwise.
 * The records' shapes and hand validation: store/failed-events.ts and store/surface-faults.ts.
 */
import { failedRecord, newestFirst, readFailedRecord } from '../failed-events.js';
import type { FailedEvent, FailedEventsOfGroup, FailuresSection, StoreEvent, SurfaceFault } from '../port.js';
import { faultOrder, faultRecord, readFaultRecord } from '../surface-faults.js';
import type { RedisContext } from './context.js';
import { scripts } from './scripts.js';

export class RedisFailures implements FailuresSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      const record = JSON.stringify(failedRecord(event, failure, x.now()));
      await x.eval(
        scripts.recordFailure,
        [x.global.failed(group), x.global.failedGroups],
        [group, event.eventId, record],
      );
    });
  }

  failedEvents(options: { readonly sample?: number } = {}): Promise<FailedEventsOfGroup[]> {
    const x = this.#x;
    return x.run(async () => {
      const g = x.global;
      const groups = ((await x.client.sendCommand(['SMEMBERS', g.failedGroups])) as string[]).sort();
      const result: FailedEventsOfGroup[] = [];
      for (const group of groups) {
        const count = Number(await x.client.sendCommand(['HLEN', g.failed(group)]));
        if (count === 0) continue;
        if (options.sample === 0) {
          result.push({ group, count, sample: [] });
          continue;
        }
        // A look at a few (HSCAN's first batch), not the whole hash: doctor shows a sample.
        const [, flat] = (await x.client.sendCommand(['HSCAN', g.failed(group), '0', 'COUNT', '100'])) as [
          string,
          string[],
        ];
        const records: FailedEvent[] = [];
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const record = readFailedRecord(group, String(flat[i]), flat[i + 1]);
          if (record) records.push(record);
        }
        result.push({ group, count, sample: newestFirst(records, options.sample ?? 5) });
      }
      return result;
    });
  }

  replayFailedEvents(group?: string): Promise<number> {
    const x = this.#x;
    return x.run(async () => {
      const g = x.global;
      const groups =
        group !== undefined ? [group] : ((await x.client.sendCommand(['SMEMBERS', g.failedGroups])) as string[]);
      let moved = 0;
      for (const name of groups)
        moved += Number(await x.eval(scripts.replayFailed, [g.failed(name), g.replay(name)], []));
      return moved;
    });
  }

  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]> {
    const x = this.#x;
    return x.run(async () => {
      const reply = await x.client.sendCommand(['LPOP', x.global.replay(group), String(count)]);
      const taken: FailedEvent[] = [];
      for (const value of Array.isArray(reply) ? reply : []) {
        let eventId: unknown;
        try {
          eventId = (JSON.parse(String(value)) as { eventId?: unknown }).eventId;
        } catch {
          continue;
        }
        const record = typeof eventId === 'string' ? readFailedRecord(group, eventId, String(value)) : undefined;
        if (record) taken.push(record);
      }
      return taken;
    });
  }

  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      const record = faultRecord(fault, x.now());
      await x.client.sendCommand([
        'HSET',
        x.global.surfaceFaults,
        faultField(record.group, record.channel),
        JSON.stringify(record),
      ]);
    });
  }

  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      const fields = [faultField(group, undefined), ...channels.map((channel) => faultField(group, channel))];
      await x.client.sendCommand(['HDEL', x.global.surfaceFaults, ...fields]);
    });
  }

  surfaceFaults(): Promise<SurfaceFault[]> {
    const x = this.#x;
    return x.run(async () => {
      const reply = await x.client.sendCommand(['HGETALL', x.global.surfaceFaults]);
      const values = Array.isArray(reply)
        ? reply.filter((_, i) => i % 2 === 1)
        : Object.values((reply ?? {}) as Record<string, unknown>);
      return values
        .map((value) => readFaultRecord(String(value)))
        .filter((fault): fault is SurfaceFault => fault !== undefined)
        .sort(faultOrder);
    });
  }
}

/** A fault's field in the faults hash: the group and the channel (empty for the whole platform). */
function faultField(group: string, channel: string | undefined): string {
  return `${group}\n${channel ?? ''}`;
}
