/**
 * A Redis Cluster behind the RedisConnection port: each command goes to the master serving its keys' hash slot,
 * over per-node connections a connector makes (the reconnecting client for long-running processes, the minimal one for
 * the hook and the status line), so one router serves both.
 *
 * - Detection: `connectRedis` asks the node REDIS_URL names for `CLUSTER SLOTS` once. Any refusal ("cluster support
 *   disabled", a user without the permission, a proxy without the command) means a standalone server, used as before.
 * - Routing: the keys of a command come from command-keys.ts; keyless commands go to any master. All keys of one
 *   command must share a slot (the store's hash tags see to it).
 * - MOVED: the slot's owner changed; the map is read again from the cluster and the command sent to the new owner.
 *   ASK: the slot is migrating and the key already left; `ASKING` and the command go to the target on the same
 *   connection, the map unchanged. TRYAGAIN (some keys of a multi-key command moved, some not), CLUSTERDOWN and a
 *   script stopped at a key that already left (the store's scripts read everything before their first write, so
 *   such a stop wrote nothing): bounded retries with back-off, then `SlotMovingError` (also after more
 *   redirections in a row than a settled cluster gives).
 * - A node that cannot be reached: the map is read again from the other masters, and the command goes to the new
 *   owner if the slot has one (a command that was sent and lost is not resent: it may have run).
 * AUTH, TLS and the rest of REDIS_URL apply to every node (only the host and port change); a cluster has only
 * database 0, so a URL naming another is refused.
 */
import { commandKeys } from './command-keys.js';
import { askThen, type RedisConnection, type Subscription, type SubscriptionListener } from './connection.js';
import { keySlot, SLOT_COUNT } from './slot.js';
import { SlotMovingError } from './slot-moving-error.js';
import { UnroutableCommandError } from './unroutable-command-error.js';

/** Opens a connection to one server, given its URL (REDIS_URL, with the node's host and port for a cluster node). */
export type NodeConnector = (url: string) => Promise<RedisConnection>;

/** How many "try again" answers one command may meet before the router gives up (about 2.8 s of back-off). */
const MAX_RETRIES = 16;

/** How many MOVED / ASK redirections in a row one command may follow (more means the nodes disagree for now). */
const MAX_REDIRECTS = 5;

/** Back-off before the next attempt after a "try again": 10 ms doubling to 250 ms. */
function backoffMs(attempt: number): number {
  return Math.min(10 * 2 ** (attempt - 1), 250);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Redirect =
  | { readonly kind: 'moved' | 'ask'; readonly slot: number; readonly address: string }
  | { readonly kind: 'retry'; readonly refresh: boolean };

/** What a cluster error reply asks of the client, or undefined for any other failure. */
function redirectOf(error: unknown): Redirect | undefined {
  if (!(error instanceof Error)) return undefined;
  const message = error.message;
  const redirect = /^(MOVED|ASK) (\d+) (\S+)/.exec(message);
  if (redirect) {
    const kind = redirect[1] === 'MOVED' ? 'moved' : 'ask';
    return { kind, slot: Number(redirect[2]), address: String(redirect[3]) };
  }
  if (message.startsWith('TRYAGAIN')) return { kind: 'retry', refresh: false };
  if (message.startsWith('CLUSTERDOWN')) return { kind: 'retry', refresh: true };
  // A script reached a key of its slot that this node no longer holds (the slot is migrating).
  if (message.includes('Script attempted to access a non local key')) return { kind: 'retry', refresh: false };
  return undefined;
}

/** `host:port` of a node; the host as the cluster gave it. */
function addressOf(host: string, port: number): string {
  return `${host}:${port}`;
}

/** The URL of one node: REDIS_URL with that node's host and port, everything else (credentials, TLS) kept. */
function nodeUrl(seedUrl: string, address: string): string {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  const url = new URL(seedUrl);
  url.hostname = host.includes(':') ? `[${host}]` : host;
  url.port = address.slice(colon + 1);
  return url.toString();
}

/** The cluster's slot → master map, shared by a router and its duplicates. */
class SlotMap {
  readonly #owner = new Array<string | undefined>(SLOT_COUNT);
  #masters: string[] = [];
  #refreshing: Promise<void> | undefined;

  constructor(readonly seedUrl: string) {}

  get masters(): readonly string[] {
    return this.#masters;
  }

  /** Read a `CLUSTER SLOTS` reply; `askedHost` stands in for a node that does not know its own address. */
  load(reply: unknown, askedHost: string): void {
    if (!Array.isArray(reply)) throw new Error(`Expected CLUSTER SLOTS to answer a list, got ${typeof reply}`);
    const owner = new Array<string | undefined>(SLOT_COUNT);
    const masters = new Set<string>();
    for (const range of reply as unknown[][]) {
      const [start, end, master] = range as [number, number, unknown[]];
      const host = String(master?.[0] ?? '');
      const address = addressOf(host === '' || host === '?' ? askedHost : host, Number(master?.[1]));
      masters.add(address);
      for (let slot = Number(start); slot <= Number(end); slot++) owner[slot] = address;
    }
    for (let slot = 0; slot < SLOT_COUNT; slot++) this.#owner[slot] = owner[slot];
    this.#masters = [...masters];
  }

  assign(slot: number, address: string): void {
    this.#owner[slot] = address;
    if (!this.#masters.includes(address)) this.#masters = [...this.#masters, address];
  }

  ownerOf(slot: number): string | undefined {
    return this.#owner[slot];
  }

  /** Some master, for keyless commands. */
  any(): string {
    const first = this.#masters[0];
    if (first === undefined) throw new Error('Expected a Redis Cluster with at least one master, got none');
    return first;
  }

  urlOf(address: string): string {
    return nodeUrl(this.seedUrl, address);
  }

  /**
   * Read the map again through `ask`, one node after another until one answers: `first` before the others (the
   * node that just said MOVED knows the news), never `skip` (the node that is away). Concurrent calls share one read.
   */
  refresh(ask: (address: string) => Promise<unknown>, options: { first?: string; skip?: string } = {}): Promise<void> {
    this.#refreshing ??= (async () => {
      const order = [...(options.first ? [options.first] : []), ...this.#masters.filter((a) => a !== options.first)];
      try {
        for (const address of order.filter((a) => a !== options.skip)) {
          try {
            this.load(await ask(address), address.slice(0, address.lastIndexOf(':')));
            return;
          } catch {
            // that node is away too: ask the next
          }
        }
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }
}

/** Connection errors after which the command was not written: sending it to another node cannot run it twice. */
function notSent(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // The reconnecting client's refusals while it reconnects and after it was closed (reconnecting-connection.ts).
  const names = ['ClientOfflineError', 'ClientClosedError'];
  return names.includes(error.name) || names.includes(error.constructor.name);
}

export class ClusterConnection implements RedisConnection {
  readonly isCluster = true;
  readonly #map: SlotMap;
  readonly #connect: NodeConnector;
  readonly #nodes = new Map<string, Promise<RedisConnection>>();
  /** The node connections opened so far, each with the way to stop listening to its reconnects. */
  readonly #live = new Map<RedisConnection, () => void>();
  readonly #readyListeners = new Set<() => void>();
  #open = true;

  constructor(
    map: SlotMap,
    connect: NodeConnector,
    seed?: { readonly address: string; readonly connection: RedisConnection },
  ) {
    this.#map = map;
    this.#connect = connect;
    if (seed) {
      if (map.masters.includes(seed.address)) {
        this.#nodes.set(seed.address, Promise.resolve(seed.connection));
        this.#follow(seed.connection);
      } else {
        seed.connection.close();
      }
    }
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Every node connection it holds takes commands (none held yet: nothing is lost). */
  get isReady(): boolean {
    if (!this.#open) return false;
    for (const connection of this.#live.keys()) if (connection.isOpen && !connection.isReady) return false;
    return true;
  }

  /** Called when any of its node connections is ready again. */
  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  /** Hear a node connection's reconnects (and forget it once it is dropped). */
  #follow(connection: RedisConnection): void {
    if (!this.#open || this.#live.has(connection)) return;
    this.#live.set(
      connection,
      connection.onReady(() => {
        for (const listener of [...this.#readyListeners]) listener();
      }),
    );
  }

  #forget(connection: RedisConnection): void {
    this.#live.get(connection)?.();
    this.#live.delete(connection);
  }

  /** This router's connection to one node, opened on first use (again after the minimal client lost it). */
  async #node(address: string): Promise<RedisConnection> {
    const known = this.#nodes.get(address);
    if (known) {
      const connection = await known.catch(() => undefined);
      if (connection?.isOpen) return connection;
      if (connection) this.#forget(connection);
      if (this.#nodes.get(address) === known) this.#nodes.delete(address);
    }
    if (!this.#open) throw new ClusterClosed();
    const opening = this.#connect(this.#map.urlOf(address));
    this.#nodes.set(address, opening);
    opening.then(
      (connection) => this.#follow(connection),
      () => {
        if (this.#nodes.get(address) === opening) this.#nodes.delete(address);
      },
    );
    return opening;
  }

  async #refresh(options: { first?: string; skip?: string } = {}): Promise<void> {
    await this.#map.refresh(async (address) => (await this.#node(address)).sendCommand(['CLUSTER', 'SLOTS']), options);
    for (const [address, connection] of this.#nodes) {
      if (this.#map.masters.includes(address)) continue;
      this.#nodes.delete(address);
      void connection
        .then((c) => {
          this.#forget(c);
          c.close();
        })
        .catch(() => undefined);
    }
  }

  #ownerOf(slot: number | undefined): string {
    return (slot === undefined ? undefined : this.#map.ownerOf(slot)) ?? this.#map.any();
  }

  async sendCommand(args: readonly string[]): Promise<unknown> {
    if (!this.#open) throw new ClusterClosed();
    const slot = slotOf(args);
    let address = this.#ownerOf(slot);
    let asking = false;
    let retries = 0;
    let redirects = 0;
    for (;;) {
      let node: RedisConnection;
      try {
        node = await this.#node(address);
      } catch (error) {
        // That node is away: ask the others who serves the slot now, and go there if it is someone else.
        const away = address;
        await this.#refresh({ skip: away });
        address = this.#ownerOf(slot);
        asking = false;
        if (address === away || ++redirects > MAX_REDIRECTS) throw error;
        continue;
      }
      try {
        if (!asking) return await node.sendCommand(args);
        // ASKING holds for the next command on this connection only: both are written back to back.
        return await (node.sendAsking ? node.sendAsking(args) : askThen(node, args));
      } catch (error) {
        const redirect = redirectOf(error);
        if (!redirect) {
          if (notSent(error) && ++redirects <= MAX_REDIRECTS) {
            await this.#refresh({ skip: address });
            if (this.#ownerOf(slot) !== address) {
              address = this.#ownerOf(slot);
              asking = false;
              continue;
            }
          }
          throw error;
        }
        if (redirect.kind === 'retry') {
          // The slot is moving (or the cluster is settling): wait, then start again from its owner.
          if (++retries >= MAX_RETRIES) throw new SlotMovingError(`slot ${slot ?? '-'}`, retries, { cause: error });
          redirects = 0;
          await sleep(backoffMs(retries));
          if (redirect.refresh) await this.#refresh().catch(() => undefined);
          address = this.#ownerOf(slot);
          asking = false;
          continue;
        }
        if (++redirects > MAX_REDIRECTS) {
          throw new SlotMovingError(`slot ${slot ?? '-'}`, redirects, { cause: error });
        }
        if (redirect.kind === 'moved') {
          this.#map.assign(redirect.slot, redirect.address);
          void this.#refresh({ first: redirect.address }).catch(() => undefined);
          address = redirect.address;
          asking = false;
        } else {
          address = redirect.address;
          asking = true;
        }
      }
    }
  }

  async duplicate(): Promise<RedisConnection> {
    return new ClusterConnection(this.#map, this.#connect);
  }

  /** On any master: a cluster hands every PUBLISH to every node. */
  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    return (await this.#node(this.#map.any())).subscribe(channel, listener);
  }

  close(): void {
    this.#open = false;
    for (const connection of this.#nodes.values()) void connection.then((c) => c.close()).catch(() => undefined);
    this.#nodes.clear();
    for (const stop of this.#live.values()) stop();
    this.#live.clear();
    this.#readyListeners.clear();
  }
}

/** The router was closed: like a closed client, it sends nothing more. */
class ClusterClosed extends Error {
  override readonly name = 'ClientClosedError';
  constructor() {
    super('The cluster connection is closed');
  }
}

/** The one hash slot of a command's keys; undefined for a keyless command. */
function slotOf(args: readonly string[]): number | undefined {
  const keys = commandKeys(args);
  const first = keys[0];
  if (first === undefined) return undefined;
  const slot = keySlot(first);
  for (const key of keys) {
    const other = keySlot(key);
    if (other !== slot) throw new UnroutableCommandError(String(args[0]), `keys in hash slots ${slot} and ${other}`);
  }
  return slot;
}

/**
 * Connect to REDIS_URL: a standalone server as it is, or a Redis Cluster (detected with one `CLUSTER SLOTS`)
 * through a router over `connect`'s per-node connections.
 */
export async function connectRedis(url: string, connect: NodeConnector): Promise<RedisConnection> {
  const seed = await connect(url);
  let reply: unknown;
  try {
    reply = await seed.sendCommand(['CLUSTER', 'SLOTS']);
  } catch (error) {
    // A refusal ("cluster support disabled", NOPERM for a user without the right, a server or proxy that does not
    // know the command) leaves the connection up: one server, used as it is. A lost connection is a failure.
    if (seed.isOpen) return seed;
    seed.close();
    throw error;
  }
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && db !== '0') {
    seed.close();
    throw new Error(`Expected REDIS_URL to name database 0 (a Redis Cluster has no other), got /${db}`);
  }
  const map = new SlotMap(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  map.load(reply, host);
  return new ClusterConnection(map, connect, {
    address: addressOf(host, Number(parsed.port || 6379)),
    connection: seed,
  });
}
