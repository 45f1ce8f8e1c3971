/**
 * A minimal RESP2 client over one socket: enough for the store's commands, nothing else loaded, so the hook, which
 * runs on every prompt, starts in a millisecond. No reconnection here: a lost connection fails every pending and
 * later command (the caller reports the store unreachable); long-running processes use node-redis
 * (node-redis-connection.ts). Commands given in one tick are written as one chunk; replies are read in one pass.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';

export interface RespOptions {
  readonly connectTimeoutMs: number;
  /** Called once when the connection's socket closes, whoever closed it. */
  readonly onClose?: () => void;
}

/** A reply Redis sent as an error (`-ERR …`, `-NOSCRIPT …`). */
export class RedisErrorReply extends Error {
  override readonly name = 'RedisErrorReply';
}

/** The socket closed (or failed) while commands were pending, or a command was given after. */
class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
}

/** The server did not accept the connection in time. */
class ConnectTimeout extends Error {
  override readonly name = 'ConnectTimeout';
}

/** Errors of this client that mean the server is not reachable or not taking commands yet. */
export function respUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionLost || error instanceof ConnectTimeout) return true;
  // Still loading its data after a restart, or a replica cut off from its primary.
  if (error instanceof RedisErrorReply) return /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) /.test(error.message);
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code)
  );
}

type Reply = string | number | null | RedisErrorReply | Reply[];

/** An array whose items are still arriving: the items so far and how many are missing. */
interface OpenArray {
  readonly items: Reply[];
  missing: number;
}

/**
 * Replies from a stream of chunks. What a chunk completes is handed on at once; an element cut by the chunk's end
 * waits for the next chunk, and only that element is read again, so a large reply costs one pass however it is
 * split. Arrays being filled are kept on a stack, nested ones above their parents.
 */
class ReplyParser {
  #buffer: Buffer = Buffer.alloc(0);
  #offset = 0;
  readonly #open: OpenArray[] = [];

  constructor(readonly onReply: (reply: Reply) => void) {}

  /** Read what `chunk` completes; throws on bytes that are not RESP2 (the connection is then unusable). */
  push(chunk: Buffer): void {
    const left = this.#buffer.length - this.#offset;
    this.#buffer = left === 0 ? chunk : Buffer.concat([this.#buffer.subarray(this.#offset), chunk]);
    this.#offset = 0;
    const buffer = this.#buffer;
    for (;;) {
      const start = this.#offset;
      const lineEnd = buffer.indexOf(13, start);
      if (lineEnd < 0 || lineEnd + 1 >= buffer.length) break;
      const type = buffer[start];
      const next = lineEnd + 2;
      let value: Reply;
      if (type === 36) {
        // $: a bulk string, cut or whole
        const length = wholeNumber(buffer, start + 1, lineEnd);
        if (length < 0) value = null;
        else if (buffer.length < next + length + 2) break;
        else {
          value = buffer.toString('utf8', next, next + length);
          this.#offset = next + length + 2;
          this.#add(value);
          continue;
        }
      } else if (type === 42) {
        // *: an array; its items follow
        const count = wholeNumber(buffer, start + 1, lineEnd);
        this.#offset = next;
        if (count > 0) this.#open.push({ items: [] as Reply[], missing: count });
        else this.#add(count < 0 ? null : []);
        continue;
      } else if (type === 58) value = wholeNumber(buffer, start + 1, lineEnd);
      else if (type === 43) value = buffer.toString('utf8', start + 1, lineEnd);
      else if (type === 45) value = new RedisErrorReply(buffer.toString('utf8', start + 1, lineEnd));
      else throw new ConnectionLost(`unexpected RESP type byte ${String(type)}`);
      this.#offset = next;
      this.#add(value);
    }
  }

  /** One element read: into the array being filled (closing those it completes), else a whole reply. */
  #add(value: Reply): void {
    let done = value;
    for (;;) {
      const open = this.#open.at(-1);
      if (open === undefined) {
        this.onReply(done);
        return;
      }
      open.items.push(done);
      if (--open.missing > 0) return;
      this.#open.pop();
      done = open.items;
    }
  }
}

/** The integer written in `buffer[from, to)` (a RESP length or integer reply, possibly negative). */
function wholeNumber(buffer: Buffer, from: number, to: number): number {
  let at = from;
  const negative = buffer[at] === 45;
  if (negative) at++;
  let value = 0;
  for (; at < to; at++) {
    const digit = (buffer[at] ?? 0) - 48;
    if (digit < 0 || digit > 9) throw new ConnectionLost('expected a number in a RESP reply');
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/** One command as RESP2 text: a single string, so a command of any length is one write. */
function encode(args: readonly string[]): string {
  let text = `*${args.length}\r\n`;
  for (const arg of args) text += `$${Buffer.byteLength(arg, 'utf8')}\r\n${arg}\r\n`;
  return text;
}

/** The minimal client. */
export interface RespClient extends RedisConnection {
  /** Make this connection a subscriber of `channel` (it then takes no other command). */
  subscribeOnly(channel: string, onMessage: (message: string) => void): Promise<void>;
}

class RespConnection implements RespClient {
  readonly isCluster = false;
  readonly #parser = new ReplyParser((reply) => this.#reply(reply));
  /** Set once the connection subscribed: `message` pushes go here, not to a pending command. */
  #onPush: ((message: string) => void) | undefined;
  /** Commands sent and not yet answered, oldest at `#head`. */
  #pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  #head = 0;
  /** Commands given since the last write: written together once the current tick's work is done. */
  #unwritten: string[] = [];
  #open = true;

  constructor(
    readonly socket: Socket,
    readonly url: string,
    readonly options: RespOptions,
  ) {
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => {
      this.#fail(new ConnectionLost('connection closed'));
      options.onClose?.();
    });
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Ready while open: it never reconnects (a lost connection stays closed). */
  get isReady(): boolean {
    return this.#open;
  }

  onReady(_listener: () => void): () => void {
    return () => undefined;
  }

  unavailable(error: unknown): boolean {
    return respUnavailable(error);
  }

  #receive(chunk: Buffer): void {
    try {
      this.#parser.push(chunk);
    } catch (error) {
      this.#fail(error as Error);
      this.socket.destroy();
    }
  }

  #reply(reply: Reply): void {
    if (this.#onPush && Array.isArray(reply) && reply[0] === 'message') {
      this.#onPush(String(reply[2]));
      return;
    }
    const waiter = this.#pending[this.#head];
    if (waiter === undefined) return;
    this.#pending[this.#head++] = undefined as never;
    if (this.#head === this.#pending.length) {
      this.#pending = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#pending.length) {
      // Under steady load the queue never empties: drop the answered front now and then.
      this.#pending = this.#pending.slice(this.#head);
      this.#head = 0;
    }
    if (reply instanceof RedisErrorReply) waiter.reject(reply);
    else waiter.resolve(reply);
  }

  #fail(error: Error): void {
    this.#open = false;
    const pending = this.#pending.slice(this.#head);
    this.#pending = [];
    this.#head = 0;
    this.#unwritten = [];
    for (const waiter of pending) waiter.reject(error);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    if (!this.#open) return Promise.reject(new ConnectionLost('connection closed'));
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      if (this.#unwritten.push(encode(args)) === 1) process.nextTick(() => this.#flush());
    });
  }

  /** Write what was given meanwhile as one chunk: one system call for all the commands of a tick. */
  #flush(): void {
    const unwritten = this.#unwritten;
    this.#unwritten = [];
    if (unwritten.length > 0 && this.#open) this.socket.write(unwritten.join(''));
  }

  duplicate(): Promise<RedisConnection> {
    return connectResp(this.url, { connectTimeoutMs: this.options.connectTimeoutMs });
  }

  async subscribeOnly(channel: string, onMessage: (message: string) => void): Promise<void> {
    this.#onPush = onMessage;
    await this.sendCommand(['SUBSCRIBE', channel]);
  }

  /** No reconnection here either: the subscription reports `isOpen` false once its connection is gone. */
  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const connection = await connectResp(this.url, { connectTimeoutMs: this.options.connectTimeoutMs });
    try {
      await connection.subscribeOnly(channel, (message) => listener.onMessage(message));
    } catch (error) {
      connection.close();
      throw error;
    }
    listener.onReady?.();
    return {
      get isOpen() {
        return connection.isOpen;
      },
      close: () => connection.close(),
    };
  }

  close(): void {
    this.#open = false;
    this.socket.destroy();
  }
}

/**
 * Connect, authenticate and select the database the URL names. Rejects within `connectTimeoutMs`, handshake
 * included: a server that accepts and never answers is as unreachable as one that refuses.
 */
export async function connectResp(url: string, options: RespOptions): Promise<RespClient> {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number(parsed.port || 6379);
  // TLS is loaded only for rediss:// (it costs the hook a millisecond or two otherwise). SNI takes host names only:
  // a cluster may announce its nodes by IP.
  const socket = tls
    ? (await import('node:tls')).connect({ host, port, ...(isIP(host) ? {} : { servername: host }) })
    : connectTcp({ host, port });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      socket.destroy();
      reject(new ConnectTimeout(`no connection within ${options.connectTimeoutMs} ms`));
    }, options.connectTimeoutMs);
  });
  const handshake = async (): Promise<RespClient> => {
    await new Promise<void>((resolve, reject) => {
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        socket.removeAllListeners('error');
        resolve();
      });
      socket.once('error', reject);
    });
    socket.setNoDelay(true);
    const connection = new RespConnection(socket, url, options);
    const password = decodeURIComponent(parsed.password);
    const username = decodeURIComponent(parsed.username);
    if (password) await connection.sendCommand(username ? ['AUTH', username, password] : ['AUTH', password]);
    const db = parsed.pathname.replace(/^\//, '');
    if (db && db !== '0') await connection.sendCommand(['SELECT', db]);
    return connection;
  };
  try {
    return await Promise.race([handshake(), timeout]);
  } catch (error) {
    socket.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
