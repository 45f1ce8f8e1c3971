/**
 * Vitest global setup: one private three-master Redis Cluster per tier that runs (or REDIS_CLUSTER_URL when set),
 * given to tests as `inject('redisClusterUrl')` (the first master, as a user would write REDIS_URL) and
 * `inject('redisClusterNodes')` (every master, for tests that act on nodes: ACL users, slot migrations). In the
 * `cluster` tier it is also `inject('redisUrl')`, so the files that tier runs use the cluster unchanged.
 */
import type { TestProject } from 'vitest/node';
import { nodeCommand, startTestRedisCluster } from './redis-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisClusterUrl: string;
    redisClusterNodes: string[];
  }
}

/** Every master of the cluster `url` belongs to, from CLUSTER SLOTS. */
async function mastersOf(url: string): Promise<string[]> {
  const reply = (await nodeCommand(url, ['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
  const base = new URL(url);
  const masters = new Set<string>();
  for (const [, , [host, port]] of reply) {
    const node = new URL(base);
    node.hostname = host;
    node.port = String(port);
    masters.add(node.toString().replace(/\/$/, ''));
  }
  return [...masters];
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = process.env.REDIS_CLUSTER_URL;
  const cluster = fromEnv ? undefined : await startTestRedisCluster();
  const url = fromEnv ?? cluster?.url ?? '';
  project.provide('redisClusterUrl', url);
  project.provide('redisClusterNodes', cluster ? [...cluster.nodeUrls] : await mastersOf(url));
  if (project.name === 'cluster') project.provide('redisUrl', url);
  return async () => cluster?.stop();
}
