/**
 * A loopback TCP proxy in front of a redis-server that counts the commands clients send through it (RESP arrays,
 * read as they stream, pipelined or not). The scale bench points one serve replica's store at it to print what a
 * view costs in Redis commands.
 */
import { createConnection, createServer } from 'node:net';

/** Counts the commands in a stream of RESP requests, chunk by chunk. */
class RespCommandCounter {
  count = 0;
  #buffer = Buffer.alloc(0);
  /** Bulk strings still to skip in the current command, and bytes still to skip of the current one. */
  #bulks = 0;
  #skip = 0;

  feed(chunk) {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let at = 0;
    for (;;) {
      if (this.#skip > 0) {
        const taken = Math.min(this.#skip, this.#buffer.length - at);
        this.#skip -= taken;
        at += taken;
        if (this.#skip > 0) break;
        continue;
      }
      const end = this.#buffer.indexOf('\r\n', at);
      if (end < 0) break;
      const line = this.#buffer.toString('latin1', at, end);
      at = end + 2;
      if (line.startsWith('*') && this.#bulks === 0) {
        this.count += 1;
        this.#bulks = Number(line.slice(1));
      } else if (line.startsWith('$')) {
        this.#bulks -= 1;
        this.#skip = Number(line.slice(1)) + 2;
      } else if (this.#bulks === 0 && line.trim() !== '') {
        this.count += 1; // an inline command (PING\r\n)
      }
    }
    this.#buffer = this.#buffer.subarray(at);
  }
}

/** Start a counting proxy to `port` on 127.0.0.1; `commands()` is the total sent through it so far. */
export async function startCommandCounter(port) {
  const counters = [];
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection({ port, host: '127.0.0.1' });
    const counter = new RespCommandCounter();
    counters.push(counter);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => counter.feed(chunk));
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${server.address().port}`,
    commands: () => counters.reduce((sum, counter) => sum + counter.count, 0),
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
