/**
 * A private Redis Cluster for the benchmark, like test/support/redis-cluster.ts: three masters on free ports in a
 * temporary directory (AOF on, as the one-server benchmark), joined by `redis-cli --cluster create`, ready once
 * every node says `cluster_state:ok`. Never touches a user's server.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { APPENDFSYNC, freePort, NO_AOF_REWRITE } from './redis.mjs';

const run = promisify(execFile);

/** One inline command to one node; resolves with its raw reply text. */
function inline(port, command) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (data) => {
      reply += data.toString();
      if (reply.endsWith('\r\n')) socket.destroy();
    });
    socket.once('error', () => resolve(''));
    socket.once('close', () => resolve(reply));
  });
}

async function until(check, what) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis cluster: timed out waiting until ${what}`);
}

/** Start the cluster; resolves with `{url, masters, stop}` (`url`: the first master, as REDIS_URL would name it). */
export async function startBenchCluster(masters = 3) {
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-bench-cluster-'));
  const ports = [];
  for (let i = 0; i < masters; i++) ports.push(await freePort());
  const children = ports.map((port) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
        ...['--dbfilename', `dump-${port}.rdb`, '--appendonly', 'yes', '--appendfsync', APPENDFSYNC, ...NO_AOF_REWRITE],
        ...['--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--daemonize', 'no'],
      ],
      { stdio: 'ignore' },
    ),
  );
  const killNow = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killNow);
  const stop = async () => {
    process.removeListener('exit', killNow);
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => (await Promise.all(ports.map((p) => inline(p, 'PING')))).every((r) => r.startsWith('+PONG')),
      'every node answers',
    );
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await until(
      async () =>
        (await Promise.all(ports.map((p) => inline(p, 'CLUSTER INFO')))).every((r) => r.includes('cluster_state:ok')),
      'cluster_state:ok on every node',
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${ports[0]}`, masters, stop };
}
