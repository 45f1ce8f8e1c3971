/**
 * A minimal RESP2 client over one socket: enough for the store's commands, nothing else loaded. The hook runs it
 * on every prompt, where loading node-redis alone would cost more than the whole hook may take. No reconnection:
 * a lost connection fails every pending and later command (the caller reports the store unreachable).
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';

export interface RespOptions {
  readonly connectTimeoutMs: number;
}

/** A reply Redis sent as an error (`-ERR …`, `-NOSCRIPT …`). */
export class RedisErrorReply extends Error {
  override readonly name = 'ErrorReply';
}

/** The socket closed (or failed) while commands were pending. */
class ConnectionLost extends Error {
  override readonly name = 'SocketClosedUnexpectedlyError';
}

/** The server did not accept the connection in time. */
class ConnectTimeout extends Error {
  override readonly name = 'ConnectionTimeoutError';
}

type Reply = string | number | null | RedisErrorReply | Reply[];

const INCOMPLETE = Symbol('incomplete');

/** Parse one reply at `offset`; INCOMPLETE when the buffer does not hold all of it yet. */
function parseReply(buffer: Buffer, offset: number): { value: Reply; next: number } | typeof INCOMPLETE {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd < 0) return INCOMPLETE;
  const type = String.fromCharCode(buffer[offset] ?? 0);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: line, next };
    case '-':
      return { value: new RedisErrorReply(line), next };
    case ':':
      return { value: Number(line), next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, next };
      if (buffer.length < next + length + 2) return INCOMPLETE;
      return { value: buffer.toString('utf8', next, next + length), next: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next };
      const items: Reply[] = [];
      let cursor = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, cursor);
        if (item === INCOMPLETE) return INCOMPLETE;
        items.push(item.value);
        cursor = item.next;
      }
      return { value: items, next: cursor };
    }
    default:
      throw new ConnectionLost(`unexpected RESP type byte ${JSON.stringify(type)}`);
  }
}

function encode(args: readonly string[]): Buffer {
  const parts: (string | Buffer)[] = [`*${args.length}\r\n`];
  for (const arg of args) {
    const bytes = Buffer.from(arg, 'utf8');
    parts.push(`$${bytes.length}\r\n`, bytes, '\r\n');
  }
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

class RespConnection implements RedisConnection {
  readonly isCluster = false;
  #buffer: Buffer = Buffer.alloc(0);
  /** Set once the connection subscribed: `message` pushes go here, not to a pending command. */
  #onPush: ((message: string) => void) | undefined;
  #pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  #open = true;

  constructor(
    readonly socket: Socket,
    readonly url: string,
    readonly options: RespOptions,
  ) {
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new ConnectionLost('connection closed')));
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

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let offset = 0;
    try {
      for (;;) {
        const parsed = parseReply(this.#buffer, offset);
        if (parsed === INCOMPLETE) break;
        offset = parsed.next;
        const value = parsed.value;
        if (this.#onPush && Array.isArray(value) && value[0] === 'message') {
          this.#onPush(String(value[2]));
          continue;
        }
        const waiter = this.#pending.shift();
        if (parsed.value instanceof RedisErrorReply) waiter?.reject(parsed.value);
        else waiter?.resolve(parsed.value);
      }
    } catch (error) {
      this.#fail(error as Error);
      this.socket.destroy();
      return;
    }
    this.#buffer = offset === this.#buffer.length ? Buffer.alloc(0) : this.#buffer.subarray(offset);
  }

  #fail(error: Error): void {
    this.#open = false;
    const pending = this.#pending;
    this.#pending = [];
    for (const waiter of pending) waiter.reject(error);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    if (!this.#open) return Promise.reject(new ConnectionLost('connection closed'));
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.socket.write(encode(args));
    });
  }

  duplicate(): Promise<RedisConnection> {
    return connectResp(this.url, this.options);
  }

  /** No reconnection here either: the subscription reports `isOpen` false once its connection is gone. */
  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const connection = (await connectResp(this.url, this.options)) as RespConnection;
    connection.#onPush = (message) => listener.onMessage(message);
    try {
      await connection.sendCommand(['SUBSCRIBE', channel]);
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
export async function connectResp(url: string, options: RespOptions): Promise<RedisConnection> {
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
  const handshake = async (): Promise<RedisConnection> => {
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
