/**
 * A Redis user of a test's own on the shared test server. CLIENT LIST names each connection's user, so a test can
 * tell its own connections from every other test file's (they run at the same time): e.g. see that its waiting
 * `ask_later` is blocked in XREAD before it answers, and that it stopped when cancelled.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

export interface RedisUser {
  /** The server's URL with this user's credentials: connections opened with it are this user's. */
  readonly url: string;
  /** This user's connections blocked in XREAD right now (`cmd=xread`, flag `b`). */
  blockedReads(): Promise<number>;
  /** Delete the user (its connections are closed) and close the admin connection. */
  remove(): Promise<void>;
}

export async function createRedisUser(serverUrl: string): Promise<RedisUser> {
  const name = `test-${randomUUID().slice(0, 8)}`;
  const password = randomUUID();
  const admin = createClient({ url: serverUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.sendCommand(['ACL', 'SETUSER', name, 'on', `>${password}`, '~*', '&*', '+@all']);
  const url = new URL(serverUrl);
  url.username = name;
  url.password = password;
  return {
    url: url.toString(),
    async blockedReads() {
      const list = String(await admin.sendCommand(['CLIENT', 'LIST']));
      return list.split('\n').filter((line) => {
        const fields = new Map(line.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
        return fields.get('user') === name && fields.get('cmd') === 'xread' && fields.get('flags')?.includes('b');
      }).length;
    },
    async remove() {
      await admin.sendCommand(['ACL', 'DELUSER', name]);
      admin.destroy();
    },
  };
}
