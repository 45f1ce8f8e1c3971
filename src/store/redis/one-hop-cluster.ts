/**
 * The minimal client (resp-connection.ts) on REDIS_URL, for the one-shot processes (the prompt hook, the status
 * line), where start-up is what counts: one server as it is, or on a Redis Cluster one hop of MOVED or ASK.
 *
 * - Detection: `INFO cluster` on the first connection (`cluster_enabled:1`); a refusal means a plain server.
 * - Routing: a command goes to the node REDIS_URL names, or to the node a MOVED named for its slot earlier in this
 *   process. A MOVED or ASK answer is followed once, to the node it names (ASKING and the command written back to
 *   back); a second one is not followed but counted as the slot moving: the command starts again (from the node a
 *   MOVED named), within the bounded retries below. The process is short: the next one starts afresh.
 * - "Try again" answers (TRYAGAIN, CLUSTERDOWN, a script meeting a key that left) are waited out a bounded time
 *   (cluster-retry.ts). A node that cannot be reached fails the command as unavailable, and its slots go back to
 *   REDIS_URL's node.
 * Long-running processes use node-redis's cluster client instead (node-redis-connection.ts).
 */
import { retryWhileSlotMoves } from './cluster-retry.js';
import { commandKeys } from './command-keys.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { connectResp, type RespClient } from './resp-connection.js';
import { keySlot } from './slot.js';
import { SlotMovingError } from './slot-moving-error.js';
import { UnroutableCommandError } from './unroutable-command-error.js';

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

/** The URL of one node: REDIS_URL with that node's host and port, everything else (credentials, TLS) kept. */
function nodeUrl(seedUrl: string, address: string): string {
  const colon = address.lastIndexOf(':');
  const url = new URL(seedUrl);
  const host = address.slice(0, colon);
  if (host !== '') url.hostname = host.includes(':') ? `[${host}]` : host;
  url.port = address.slice(colon + 1);
  return url.toString();
}

class OneHopCluster implements RedisConnection {
  readonly isCluster = true;
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #seed: RespClient;
  /** Connections to the nodes redirections named, by `host:port`. */
  readonly #nodes = new Map<string, Promise<RespClient>>();
  /** Slots a MOVED placed on another node. */
  readonly #owners = new Map<number, string>();
  #open = true;

  constructor(seed: RespClient, url: string, timeoutMs: number) {
    this.#seed = seed;
    this.#url = url;
    this.#timeoutMs = timeoutMs;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  get isReady(): boolean {
    return this.#open && this.#seed.isOpen;
  }

  onReady(_listener: () => void): () => void {
    return () => undefined;
  }

  unavailable(error: unknown): boolean {
    return this.#seed.unavailable(error);
  }

  async #node(address: string): Promise<RespClient> {
    const known = this.#nodes.get(address);
    const connection = await known?.catch(() => undefined);
    if (connection?.isOpen) return connection;
    // Closed meanwhile (an aborted blocking read): the new connection is closed too, and fails the command.
    const opening = connectResp(nodeUrl(this.#url, address), { connectTimeoutMs: this.#timeoutMs }).then((c) => {
      if (!this.#open) c.close();
      return c;
    });
    this.#nodes.set(address, opening);
    opening.catch(() => {
      if (this.#nodes.get(address) === opening) this.#nodes.delete(address);
    });
    return opening;
  }

  async #send(args: readonly string[], slot: number | undefined): Promise<unknown> {
    const owner = slot === undefined ? undefined : this.#owners.get(slot);
    let first: RespClient = this.#seed;
    if (owner !== undefined) {
      try {
        first = await this.#node(owner);
      } catch (error) {
        if (slot !== undefined) this.#owners.delete(slot);
        throw error;
      }
    }
    try {
      return await first.sendCommand(args);
    } catch (error) {
      const redirect = error instanceof Error ? /^(MOVED|ASK) (\d+) (\S+)/.exec(error.message) : null;
      if (!redirect) {
        // The node a MOVED named is away: its slots go back to REDIS_URL's node, which knows the news first.
        if (owner !== undefined && slot !== undefined && first.unavailable(error)) this.#owners.delete(slot);
        throw error;
      }
      const address = String(redirect[3]);
      const target = await this.#node(address);
      if (redirect[1] === 'ASK') {
        // ASKING holds for the next command on this connection only: both are written back to back.
        target.sendCommand(['ASKING']).catch(() => undefined);
        return this.#hopped(target.sendCommand(args), slot);
      }
      this.#owners.set(Number(redirect[2]), address);
      return this.#hopped(target.sendCommand(args), slot);
    }
  }

  /**
   * The reply after the one hop. Another redirection is not followed now: a MOVED is remembered (the next attempt
   * starts there), and the command is reported as its slot moving, which `sendCommand` tries again from the start.
   */
  async #hopped(reply: Promise<unknown>, slot: number | undefined): Promise<unknown> {
    try {
      return await reply;
    } catch (error) {
      const again = error instanceof Error ? /^(MOVED|ASK) (\d+) (\S+)/.exec(error.message) : null;
      if (!again) throw error;
      if (again[1] === 'MOVED') this.#owners.set(Number(again[2]), String(again[3]));
      throw new SlotMovingError(`slot ${slot ?? '-'}`, 1, { cause: error });
    }
  }

  async sendCommand(args: readonly string[]): Promise<unknown> {
    if (!this.#open) return this.#seed.sendCommand(args);
    const slot = slotOf(args);
    return retryWhileSlotMoves(`slot ${slot ?? '-'}`, () => this.#send(args, slot));
  }

  duplicate(): Promise<RedisConnection> {
    return connectMinimal(this.#url, this.#timeoutMs);
  }

  /** On REDIS_URL's node: a cluster hands every PUBLISH to every node. */
  subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    return this.#seed.subscribe(channel, listener);
  }

  close(): void {
    this.#open = false;
    this.#seed.close();
    for (const node of this.#nodes.values()) void node.then((c) => c.close()).catch(() => undefined);
    this.#nodes.clear();
  }
}

/**
 * Connect to REDIS_URL with the minimal client: one server as it is, or a Redis Cluster (detected with
 * `INFO cluster`) with one hop of redirection. Rejects within `connectTimeoutMs` when the server cannot be reached.
 */
export async function connectMinimal(url: string, connectTimeoutMs: number): Promise<RedisConnection> {
  const seed = await connectResp(url, { connectTimeoutMs });
  let info: unknown;
  try {
    info = await seed.sendCommand(['INFO', 'cluster']);
  } catch (error) {
    // A refusal (a user without the right, a proxy without the command) leaves the connection up: one server.
    if (seed.isOpen && !seed.unavailable(error)) return seed;
    seed.close();
    throw error;
  }
  if (!/^cluster_enabled:1\s*$/m.test(String(info))) return seed;
  const db = new URL(url).pathname.replace(/^\//, '');
  if (db !== '' && db !== '0') {
    seed.close();
    throw new Error(`Expected REDIS_URL to name database 0 (a Redis Cluster has no other), got /${db}`);
  }
  return new OneHopCluster(seed, url, connectTimeoutMs);
}
