/**
 * A fake Socket Mode endpoint (FACTS recipe 2), small enough to read: one local HTTP server that
 * - answers `POST /api/apps.connections.open` with `{ok: true, url: 'ws://127.0.0.1:PORT/'}`,
 * - passes every other `/api/…` call on to the fake Web API (so its recording still holds every call),
 * - accepts the WebSocket upgrade (RFC 6455, text frames, no extensions), sends `{"type":"hello"}`, lets the test
 *   push envelopes and read the acks, and answers pings and close frames.
 * No `ws` package is installed, and Node 20 has a WebSocket client but no server, hence the few lines of framing.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(length)]);
  return Buffer.concat([header, payload]);
}

function bigLength(length: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(length));
  return b;
}

export class FakeSocketMode {
  /** Every text frame the app sent (acks), parsed. */
  readonly received: Record<string, unknown>[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #listeners: ((message: Record<string, unknown>) => void)[] = [];
  #server: Server | undefined;
  #connected: (() => void) | undefined;
  readonly connected = new Promise<void>((resolve) => {
    this.#connected = resolve;
  });
  url = '';

  constructor(readonly webApiUrl: string) {}

  async start(): Promise<this> {
    this.#server = createServer(async (request, response) => {
      const method = (request.url ?? '').replace(/^\/api\//, '');
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (method.startsWith('apps.connections.open')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, url: `ws://127.0.0.1:${this.#port()}/` }));
        return;
      }
      const forwarded = await fetch(`${this.webApiUrl}${method}`, {
        method: 'POST',
        headers: {
          'content-type': request.headers['content-type'] ?? 'application/x-www-form-urlencoded',
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        },
        body: Buffer.concat(chunks),
      });
      response.writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'text/plain' });
      response.end(Buffer.from(await forwarded.arrayBuffer()));
    });
    this.#server.on('upgrade', (request, socket: Socket) => {
      const key = request.headers['sec-websocket-key'];
      const accept = createHash('sha1').update(`${key}${GUID}`).digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      let buffered: Buffer = Buffer.alloc(0);
      socket.on('data', (data: Buffer) => {
        buffered = Buffer.concat([buffered, data]);
        buffered = this.#readFrames(socket, buffered);
      });
      this.sendTo(socket, { type: 'hello', num_connections: 1, connection_info: { app_id: 'A1' } });
      this.#connected?.();
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.#port()}/api/`;
    return this;
  }

  #port(): number {
    const address = this.#server?.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Parses complete client frames (always masked) off `buffer`; returns what is left. */
  #readFrames(socket: Socket, buffer: Buffer): Buffer {
    let rest = buffer;
    for (;;) {
      if (rest.length < 2) return rest;
      const opcode = (rest[0] ?? 0) & 0x0f;
      let length = (rest[1] ?? 0) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (rest.length < 4) return rest;
        length = rest.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (rest.length < 10) return rest;
        length = Number(rest.readBigUInt64BE(2));
        offset = 10;
      }
      if (rest.length < offset + 4 + length) return rest;
      const mask = rest.subarray(offset, offset + 4);
      const payload = Buffer.from(rest.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
      rest = rest.subarray(offset + 4 + length);
      if (opcode === 0x1) {
        const message = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
        this.received.push(message);
        for (const listener of this.#listeners) listener(message);
      } else if (opcode === 0x9) {
        socket.write(frame(0xa, payload));
      } else if (opcode === 0x8) {
        socket.end(frame(0x8, payload));
      }
    }
  }

  sendTo(socket: Socket, message: unknown): void {
    socket.write(frame(0x1, Buffer.from(JSON.stringify(message), 'utf8')));
  }

  /** Push an envelope to every connected app; resolves with its ack. */
  push(envelope: { envelope_id: string; type: string; payload: unknown }, timeoutMs = 5000) {
    const acked = new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = this.received.find((m) => m.envelope_id === envelope.envelope_id);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error('fake Socket Mode: no ack')), timeoutMs);
      this.#listeners.push((message) => {
        if (message.envelope_id === envelope.envelope_id) {
          clearTimeout(timer);
          resolve(message);
        }
      });
    });
    for (const socket of this.#sockets) this.sendTo(socket, { accepts_response_payload: false, ...envelope });
    return acked;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}
