/**
 * A fake Redis node on port 0 that answers scripted RESP replies: enough to drive the minimal client's cluster
 * routing (one-hop-cluster.ts) through MOVED, ASK, TRYAGAIN and a node going away without a real cluster. Each connection remembers whether its last
 * command was ASKING, as Redis does.
 */
import { createServer, type Socket } from 'node:net';

/** What a handler answers: a RESP reply, already encoded (see `resp`). */
export type FakeReply = string;

export interface FakeNode {
  readonly port: number;
  readonly address: string;
  /** Every command received, in order, with whether ASKING came just before it. */
  readonly received: { readonly args: readonly string[]; readonly asking: boolean }[];
  close(): Promise<void>;
}

/** RESP encoders for handlers. */
export const resp = {
  ok: '+OK\r\n',
  error: (message: string) => `-${message}\r\n`,
  integer: (n: number) => `:${n}\r\n`,
  bulk: (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`,
  array: (items: readonly unknown[]): string =>
    `*${items.length}\r\n${items
      .map((item) =>
        Array.isArray(item)
          ? resp.array(item)
          : typeof item === 'number'
            ? resp.integer(item)
            : resp.bulk(String(item)),
      )
      .join('')}`,
};

/** `INFO cluster` as a node with cluster support enabled (or not) answers it. */
export function clusterInfo(enabled: boolean): FakeReply {
  return resp.bulk(`# Cluster\r\ncluster_enabled:${enabled ? 1 : 0}\r\n`);
}

function parseCommands(buffer: Buffer): { commands: string[][]; rest: Buffer } {
  const commands: string[][] = [];
  let offset = 0;
  for (;;) {
    const start = offset;
    const header = buffer.indexOf('\r\n', offset);
    if (header < 0 || buffer[offset] !== 0x2a) break;
    const count = Number(buffer.toString('utf8', offset + 1, header));
    offset = header + 2;
    const args: string[] = [];
    let complete = true;
    for (let i = 0; i < count; i++) {
      const line = buffer.indexOf('\r\n', offset);
      if (line < 0) {
        complete = false;
        break;
      }
      const length = Number(buffer.toString('utf8', offset + 1, line));
      if (buffer.length < line + 2 + length + 2) {
        complete = false;
        break;
      }
      args.push(buffer.toString('utf8', line + 2, line + 2 + length));
      offset = line + 2 + length + 2;
    }
    if (!complete) {
      offset = start;
      break;
    }
    commands.push(args);
  }
  return { commands, rest: buffer.subarray(offset) };
}

/** Start a fake node; `answer` gets each command (upper-cased name first) and whether ASKING preceded it. */
export async function startFakeNode(
  answer: (args: readonly string[], asking: boolean) => FakeReply | undefined,
): Promise<FakeNode> {
  const received: { args: readonly string[]; asking: boolean }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer: Buffer = Buffer.alloc(0);
    let asking = false;
    socket.on('data', (chunk: Buffer) => {
      const parsed = parseCommands(Buffer.concat([buffer, chunk]));
      buffer = parsed.rest;
      for (const args of parsed.commands) {
        const command = [String(args[0]).toUpperCase(), ...args.slice(1)];
        if (command[0] === 'ASKING') {
          asking = true;
          socket.write(resp.ok);
          continue;
        }
        // node-redis's handshake: answered as a Redis 7 node would, and not recorded.
        if (command[0] === 'HELLO') {
          socket.write(resp.array(['server', 'redis', 'version', '7.0.0', 'proto', 2, 'id', 1, 'mode', 'cluster']));
          continue;
        }
        if (command[0] === 'CLIENT') {
          socket.write(resp.ok);
          continue;
        }
        received.push({ args: command, asking });
        const reply = answer(command, asking) ?? resp.error(`ERR unexpected ${command[0]}`);
        asking = false;
        socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    address: `127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
