/**
 * A private redis-server for the benchmark, like test/support/redis-server.ts: a free port on 127.0.0.1, a
 * temporary directory, no RDB snapshots, AOF on but never rewritten (see {@link NO_AOF_REWRITE}). The benchmark
 * never touches a user's server on 6379.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The AOF fsync policy of the private server, printed with the results. */
export const APPENDFSYNC = 'everysec';

/**
 * No automatic AOF rewrite. A rewrite forks, and until it ends the server pays a copy-on-write fault on every page it
 * writes: a phase that overlaps one ran up to 4× slower on Redis (measured here: confirm 21 → 87 µs of Redis CPU
 * each), while redis-benchmark's few megabytes of SETs never start one. The store phases write so much AOF so fast
 * (five rewrites in the first 36 s of one run) that the figures said when a rewrite happened, not what an operation
 * costs. Every write still goes to the AOF, fsynced every second.
 */
export const NO_AOF_REWRITE = ['--auto-aof-rewrite-percentage', '0'];

export function freePort() {
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

function ping(port) {
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

/**
 * Start redis-server; resolves with `{url, host, port, appendfsync, stop}`. `stop` (idempotent) shuts it down and
 * removes its directory; it is also run when the process exits, so a crash does not leave a server behind.
 */
export async function startBenchRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-bench-redis-'));
  const child = spawn(
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
      APPENDFSYNC,
      ...NO_AOF_REWRITE,
      '--daemonize',
      'no',
    ],
    { stdio: 'ignore' },
  );
  let spawnError;
  child.once('error', (error) => {
    spawnError = error;
  });

  let stopped = false;
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killNow);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killNow);
    if (child.exitCode === null && child.signalCode === null && !spawnError) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => socket.write('SHUTDOWN NOSAVE\r\n'));
      socket.once('error', () => undefined);
      const timeout = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timeout);
      socket.destroy();
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (let attempt = 0; ; attempt++) {
      if (spawnError) throw new Error(`redis-server could not be started: ${spawnError.message}`);
      if (child.exitCode !== null) throw new Error(`redis-server exited at once (code ${child.exitCode})`);
      if (await ping(port)) break;
      if (attempt >= 200) throw new Error(`redis-server: timed out waiting until it answers on port ${port}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, host: '127.0.0.1', port, appendfsync: APPENDFSYNC, stop };
}
