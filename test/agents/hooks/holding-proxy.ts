/**
 * A TCP proxy between hooks and Redis. On each client connection it forwards every command until one matches
 * `hold`, then holds that command and every later one of that connection back (the client's connection stays open,
 * the server never sees them) until `release`. Replies flow back unchanged. Used without any seam in production
 * code to stop a hook between its claim and its confirm, and to line several hooks' claims up so that they reach
 * Redis together.
 *
 * Client-to-server bytes are parsed as RESP command arrays (`*N`, then N bulk strings), so a command is matched
 * whole, whichever way the client's writes split or batch it.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface HoldingProxy {
  readonly url: string;
  /** Resolves when the first command matching `hold` arrived (and was held back). */
  readonly held: Promise<void>;
  /** Open connections holding a command back right now. */
  readonly holding: number;
  /** Commands seen, by name (`EVALSHA`, `HELLO`, …), forwarded or held. */
  readonly commands: string[];
  /** Forward everything held, each connection's commands in order, and hold nothing more. */
  release(): void;
  close(): Promise<void>;
}

/** One complete RESP command at the start of `buffer`: its arguments and length in bytes, or undefined. */
function parseCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  const readLine = (from: number): { line: string; next: number } | undefined => {
    const end = buffer.indexOf('\r\n', from);
    return end < 0 ? undefined : { line: buffer.toString('latin1', from, end), next: end + 2 };
  };
  const header = readLine(0);
  if (!header) return undefined;
  if (!header.line.startsWith('*')) throw new Error(`holding proxy: expected a RESP array, got "${header.line}"`);
  const count = Number(header.line.slice(1));
  const args: string[] = [];
  let at = header.next;
  for (let i = 0; i < count; i++) {
    const size = readLine(at);
    if (!size) return undefined;
    if (!size.line.startsWith('$')) throw new Error(`holding proxy: expected a bulk string, got "${size.line}"`);
    const length = Number(size.line.slice(1));
    if (buffer.length < size.next + length + 2) return undefined;
    args.push(buffer.toString('utf8', size.next, size.next + length));
    at = size.next + length + 2;
  }
  return { args, length: at };
}

export async function startHoldingProxy(target: string, hold: (args: readonly string[]) => boolean) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const commands: string[] = [];
  /** The connections holding back, with the bytes to forward upstream on release. */
  const heldBack = new Map<Socket, { readonly upstream: Socket; readonly queue: Buffer[] }>();
  let released = false;
  let markHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    markHeld = resolve;
  });

  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(client);
    sockets.add(upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        heldBack.delete(client);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let command = parseCommand(pending); command; command = parseCommand(pending)) {
        const bytes = pending.subarray(0, command.length);
        pending = pending.subarray(command.length);
        commands.push((command.args[0] ?? '').toUpperCase());
        const holding = heldBack.get(client);
        if (holding) holding.queue.push(bytes);
        else if (!released && hold(command.args)) {
          heldBack.set(client, { upstream, queue: [bytes] });
          markHeld();
        } else upstream.write(bytes);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;

  const proxy: HoldingProxy = {
    url: `redis://127.0.0.1:${proxyPort}`,
    held,
    get holding() {
      return heldBack.size;
    },
    commands,
    release: () => {
      released = true;
      for (const { upstream, queue } of heldBack.values()) for (const bytes of queue) upstream.write(bytes);
      heldBack.clear();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
