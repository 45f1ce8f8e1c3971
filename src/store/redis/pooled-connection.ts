/**
 * A few connections to one server used as one, for long-running processes that have many calls in flight (serve,
 * the bridge). On one socket Node and Redis take turns: the client writes a batch of commands, waits while Redis runs
 * them, then works through their replies while Redis waits. With two sockets Redis runs one batch while Node reads the
 * other's replies, so both cores work. Commands go round the members in turn, skipping one that is reconnecting.
 *
 * Only a cluster's `ASKING` needs the next command on the same socket (`sendAsking`); nothing else the store sends
 * does: each call awaits its commands one after another (or sends independent reads together), every multi-key
 * change is one script, and blocking reads and subscriptions take connections of their own.
 */
import { askThen, type RedisConnection, type Subscription, type SubscriptionListener } from './connection.js';

/** How many connections a long-running process keeps to each server (measured with `BENCH_ONLY=store`). */
export const POOL_SIZE = 2;

class PooledConnection implements RedisConnection {
  readonly isCluster = false;
  readonly #members: readonly RedisConnection[];
  #turn = 0;

  constructor(members: readonly RedisConnection[]) {
    this.#members = members;
  }

  get isOpen(): boolean {
    return this.#members.some((member) => member.isOpen);
  }

  /** Ready when every open member is: one reconnecting means the server was lost, and readiness waits for it. */
  get isReady(): boolean {
    const open = this.#members.filter((member) => member.isOpen);
    return open.length > 0 && open.every((member) => member.isReady);
  }

  onReady(listener: () => void): () => void {
    const stops = this.#members.map((member) => member.onReady(listener));
    return () => {
      for (const stop of stops) stop();
    };
  }

  /** The next member in turn that takes commands; if none does, the one whose turn it is (it fails them). */
  #member(): RedisConnection {
    const count = this.#members.length;
    const first = this.#turn;
    this.#turn = (first + 1) % count;
    for (let i = 0; i < count; i++) {
      const member = this.#members[(first + i) % count] as RedisConnection;
      if (member.isReady) return member;
    }
    return this.#members[first] as RedisConnection;
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    return this.#member().sendCommand(args);
  }

  sendAsking(args: readonly string[]): Promise<unknown> {
    return askThen(this.#member(), args);
  }

  duplicate(): Promise<RedisConnection> {
    return (this.#members[0] as RedisConnection).duplicate();
  }

  subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    return (this.#members[0] as RedisConnection).subscribe(channel, listener);
  }

  close(): void {
    for (const member of this.#members) member.close();
  }
}

/** Open `size` connections with `open` and use them as one; if any cannot be opened, none is kept. */
export async function connectPool(size: number, open: () => Promise<RedisConnection>): Promise<RedisConnection> {
  if (size <= 1) return open();
  const opened = await Promise.allSettled(Array.from({ length: size }, open));
  const members = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) {
    for (const member of members) member.close();
    throw failed.reason;
  }
  return new PooledConnection(members);
}
