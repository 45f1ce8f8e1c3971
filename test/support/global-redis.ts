/**
 * Vitest global setup: one private redis-server for the whole run, unless REDIS_URL names one. Tests use key
 * prefixes and project names of their own, so they never flush or read anyone else's data.
 */
import type { TestProject } from 'vitest/node';
import { startTestRedis } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) {
    project.provide('redisUrl', fromEnv);
    return async () => undefined;
  }
  const redis = await startTestRedis();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
