/**
 * A Redis user of a test's own on the shared test server. CLIENT LIST names each connection's user, so a test can
 * tell its own connections from every other test file's (they run at the same time): e.g. see that its waiting
 * `ask_later` is blocked in XREAD before it answers, and that it stopped when cancelled. On a Redis Cluster the
 * user is made on every master (ACLs are per node) and its blocked reads are counted over all of them.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';

export interface RedisUser {
  /** The server's URL with this user's credentials: connections opened with it are this user's. */
  readonly url: string;
  /** This user's connections blocked in XREAD right now (`cmd=xread`, flag `b`). */
  blockedReads(): Promise<number>;
  /** Delete the user (its connections are closed) and close the admin connections. */
  remove(): Promise<void>;
}

async function connect(url: string): Promise<RedisClientType> {
  const client = createClient({ url }) as RedisClientType;
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Every master's URL when `serverUrl` names a cluster node, else just `serverUrl`. */
async function nodesOf(serverUrl: string, admin: RedisClientType): Promise<string[]> {
  let slots: unknown;
  try {
    slots = await admin.sendCommand(['CLUSTER', 'SLOTS']);
  } catch {
    return [serverUrl];
  }
  const urls = new Set<string>();
  for (const [, , [host, port]] of slots as [number, number, [string, number]][]) {
    const url = new URL(serverUrl);
    url.hostname = host;
    url.port = String(port);
    urls.add(url.toString());
  }
  return [...urls];
}

/** `deny`: ACL rules taken away from the user, e.g. `-xreadgroup` (its consumer groups then read nothing). */
export async function createRedisUser(serverUrl: string, deny: readonly string[] = []): Promise<RedisUser> {
  const name = `test-${randomUUID().slice(0, 8)}`;
  const password = randomUUID();
  const first = await connect(serverUrl);
  const nodes = await nodesOf(serverUrl, first);
  first.destroy();
  const admins = await Promise.all(nodes.map(connect));
  for (const admin of admins) {
    await admin.sendCommand(['ACL', 'SETUSER', name, 'on', `>${password}`, '~*', '&*', '+@all', ...deny]);
  }
  const url = new URL(serverUrl);
  url.username = name;
  url.password = password;
  return {
    url: url.toString(),
    async blockedReads() {
      let blocked = 0;
      for (const admin of admins) {
        const list = String(await admin.sendCommand(['CLIENT', 'LIST']));
        blocked += list.split('\n').filter((line) => {
          const fields = new Map(line.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
          return fields.get('user') === name && fields.get('cmd') === 'xread' && fields.get('flags')?.includes('b');
        }).length;
      }
      return blocked;
    },
    async remove() {
      for (const admin of admins) {
        await admin.sendCommand(['ACL', 'DELUSER', name]);
        admin.destroy();
      }
    },
  };
}
