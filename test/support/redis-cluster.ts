/**
 * A private Redis Cluster for tests: three masters (`redis-server --cluster-enabled yes`) on free ports in a
 * temporary directory, joined by `redis-cli --cluster create … --cluster-replicas 0`, ready once every node reports
 * `cluster_state:ok` and agrees on all 16384 slots. Never touches a user's server.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, type RedisClientType } from 'redis';
import { freePort } from './redis-server.js';

const run = promisify(execFile);

export interface TestRedisCluster {
  /** `redis://127.0.0.1:<port>` of the first master: what a user puts in REDIS_URL. */
  readonly url: string;
  /** Every node's URL, masters first (as `redis-cli --cluster create` assigns them). */
  readonly nodeUrls: readonly string[];
  /** Kill one node at once (SIGKILL), as a crash would. */
  kill(url: string): Promise<void>;
  stop(): Promise<void>;
}

/** Send one command to one node (a short-lived client): admin work in tests, never the code under test. */
export async function nodeCommand(url: string, args: readonly string[]): Promise<unknown> {
  // No reconnection: a node that is down fails the command at once.
  const client = createClient({ url, socket: { reconnectStrategy: false } }) as RedisClientType;
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.sendCommand([...args]);
  } finally {
    client.destroy();
  }
}

async function until(check: () => Promise<boolean>, what: string, attempts = 400): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis cluster: timed out waiting until ${what}`);
}

/** Every node says `cluster_state:ok` and knows all 16384 slots as assigned. */
export async function clusterReady(nodeUrls: readonly string[]): Promise<boolean> {
  for (const url of nodeUrls) {
    const info = String(await nodeCommand(url, ['CLUSTER', 'INFO']));
    if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_assigned:16384')) return false;
  }
  return true;
}

/**
 * Start `masters` masters, each with `replicas` replicas (`redis-cli --cluster create` makes the first `masters`
 * nodes the masters). A short node time-out (`nodeTimeoutMs`) lets a replica take over quickly when its master dies.
 */
export async function startTestRedisCluster(
  masters = 3,
  options: { readonly replicas?: number; readonly nodeTimeoutMs?: number } = {},
): Promise<TestRedisCluster> {
  const replicas = options.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) ports.push(await freePort());
  const children: ChildProcess[] = ports.map((port) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--dbfilename',
        `dump-${port}.rdb`,
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        String(options.nodeTimeoutMs ?? 5000),
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    child.once('error', () => undefined);
    return child;
  });
  const nodeUrls = ports.map((port) => `redis://127.0.0.1:${port}`);
  const killChild = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  const stop = async () => {
    await Promise.all(children.map(killChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => (await Promise.all(nodeUrls.map((url) => nodeCommand(url, ['PING'])))).every((r) => r === 'PONG'),
      'every node answers',
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    await until(() => clusterReady(nodeUrls), 'cluster_state:ok on every node');
    if (replicas > 0) {
      await until(async () => {
        const info = String(await nodeCommand(nodeUrls[0] ?? '', ['CLUSTER', 'NODES']));
        return (
          info.split('\n').filter((line) => line.includes(' slave ') && line.includes(' connected')).length ===
          masters * replicas
        );
      }, 'every replica is attached');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: nodeUrls[0] ?? '',
    nodeUrls,
    kill: async (url) => {
      const child = children[nodeUrls.indexOf(url)];
      if (child) await killChild(child);
    },
    stop,
  };
}
