/**
 * A private redis-server for tests: started on a free port in a temporary directory with AOF on (fsync always),
 * so tests never touch a user's server and can restart theirs to check durability.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stop the server (SHUTDOWN, so AOF is flushed) and start it again on the same port and directory. */
  restart(): Promise<void>;
  /** Kill the server without a clean shutdown. */
  kill(): Promise<void>;
  /**
   * Start it again after `kill`. `loadDelayUs`: each command of its AOF takes that much longer to load (Redis's
   * `key-load-delay`), so the server refuses commands (`-LOADING`) for a while after it accepts connections.
   */
  start(options?: { readonly loadDelayUs?: number }): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let answered = false;
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      answered = data.toString().startsWith('+PONG');
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(answered));
  });
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server: timed out waiting until ${what}`);
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-redis-'));
  let child: ChildProcess | undefined;

  const start = async (options: { readonly loadDelayUs?: number } = {}) => {
    const loading = options.loadDelayUs === undefined ? [] : ['--key-load-delay', String(options.loadDelayUs)];
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--daemonize',
        'no',
        ...loading,
      ],
      { stdio: 'ignore' },
    );
    const started = child;
    started.once('error', () => undefined);
    await waitFor(() => ping(port), `it answers on port ${port}`);
  };

  const exited = async (signal: NodeJS.Signals | 'shutdown') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    if (signal === 'shutdown') {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => socket.write('SHUTDOWN\r\n'));
      socket.once('error', () => undefined);
    } else {
      running.kill(signal);
    }
    await gone;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    restart: async () => {
      await exited('shutdown');
      await start();
    },
    kill: () => exited('SIGKILL'),
    start,
    stop: async () => {
      await exited('shutdown');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
