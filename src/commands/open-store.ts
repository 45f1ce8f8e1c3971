/**
 * The store for a command run by hand that needs the store itself (`decisions`, `token`): opened from the agent
 * side's settings, or one stderr line `ask-later <command>: …` saying why not (a setting's problem, a missing SQLite
 * engine, or an unreachable store: never a URL or a secret).
 */
import { type Env, loadStoreConfig } from '../config/agent.js';
import { ConfigError } from '../config/config-error.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/port.js';
import { SqliteEngineMissingError } from '../store/sqlite/engine-missing-error.js';

/** The open store, or undefined once the reason was written to `stderr`. */
export async function openCommandStore(
  command: string,
  env: Env,
  stderr: { write(text: string): unknown },
): Promise<Store | undefined> {
  try {
    return await openStore(loadStoreConfig(env).store);
  } catch (error) {
    const why =
      error instanceof ConfigError || error instanceof SqliteEngineMissingError
        ? error.message
        : 'the inbox (its store) is unreachable';
    stderr.write(`ask-later ${command}: ${why}\n`);
    return undefined;
  }
}
