/**
 * Where the embedded store's file lives when `REDIS_URL` is not set. Pure (no fs, no `process.env`), so config can
 * call it without loading the store; the directories are created when the store is first opened.
 */
import { isAbsolute, join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `$ASK_LATER_DB` (as given; a relative path is the caller's to resolve), else
 * `$XDG_STATE_HOME/ask-later/inbox.db`, else `<homedir>/.local/state/ask-later/inbox.db`. Blank values count as
 * unset, and so does a relative `XDG_STATE_HOME` (the XDG spec says to ignore it).
 */
export function defaultDatabasePath(env: Env, homedir: string): string {
  const explicit = env.ASK_LATER_DB?.trim();
  if (explicit) return explicit;
  const state = env.XDG_STATE_HOME?.trim();
  if (state && isAbsolute(state)) return join(state, 'ask-later', 'inbox.db');
  return join(homedir, '.local', 'state', 'ask-later', 'inbox.db');
}
