/**
 * Where `ask-later inbox` and `answer` find the inbox, and who they answer as: the store itself (REDIS_URL, else the
 * embedded file) as the OS user, or serve over HTTP (`ASK_LATER_URL` + a person's token, `token create --web`) as
 * the token's name, which serve alone decides. Either way the changes are followed: the store's own tail, or a long
 * poll on serve. A problem is one stderr line `ask-later <command>: …` (never a URL's secret or a token).
 */
import { type Env, loadAgentStoreConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { backoff } from '../../core/backoff.js';
import { AgentApiError } from '../../store/http/agent-api-error.js';
import { AgentsOnlyTokenError } from '../../store/http/agents-only-token-error.js';
import type { HttpInboxStore } from '../../store/http/inbox-store.js';
import { AGENTS_ONLY_TEXT } from '../../store/http/protocol.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import { openStore } from '../../store/open.js';
import type { PersonStore, ProjectWatch, Store } from '../../store/port.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { waitToRetry } from '../../store/wait-to-retry.js';
import type { Actor } from '../../surfaces/interactions.js';
import { followStoreChanges, type StoreChanges } from '../../surfaces/store-changes.js';
import { terminalActor } from '../../surfaces/terminal/actor.js';

/** The inbox opened for one command. */
export interface OpenedInbox {
  readonly store: PersonStore;
  /** Who answers: the OS user, or the token's name. */
  readonly actor: Actor;
  /** Follow the inbox's changes, telling `notify` (with the question's ref when it is known). */
  follow(notify: (ref?: string) => void): StoreChanges;
}

/** The one line for a failure the commands report instead of throwing; undefined for any other. */
export function failureText(error: unknown): string | undefined {
  if (error instanceof ConfigError || error instanceof SqliteEngineMissingError) return error.message;
  if (error instanceof StoreUnavailableError) return 'the inbox (its store) is unreachable';
  if (error instanceof AgentsOnlyTokenError) return AGENTS_ONLY_TEXT;
  if (error instanceof TokenRefusedError) return `serve refused the token: ${error.message}`;
  if (error instanceof AgentApiError) return `serve refused: ${error.message}`;
  return undefined;
}

/** The inbox the environment names, or the reason it cannot be opened (one line). */
export async function openInbox(env: Env): Promise<{ ok: true; inbox: OpenedInbox } | { ok: false; text: string }> {
  let closeOnFailure: (() => Promise<void>) | undefined;
  try {
    const location = loadAgentStoreConfig(env).store;
    if (location.kind !== 'http') {
      const store = await openStore(location);
      return { ok: true, inbox: { store, actor: terminalActor(), follow: (notify) => followTail(store, notify) } };
    }
    const { openHttpInboxStore } = await import('../../store/http/inbox-store.js');
    const store = await openHttpInboxStore({ url: location.url, token: location.token });
    closeOnFailure = () => store.close();
    const holder = await store.holder();
    if (!holder.person) {
      await store.close();
      return { ok: false, text: AGENTS_ONLY_TEXT };
    }
    const inbox: OpenedInbox = {
      store,
      actor: terminalActor(holder.name),
      follow: (notify) => followWatch(store, notify),
    };
    return { ok: true, inbox };
  } catch (error) {
    await closeOnFailure?.().catch(() => undefined);
    const text = failureText(error);
    if (text === undefined) return { ok: false, text: 'the inbox (its store) is unreachable' };
    return { ok: false, text };
  }
}

function followTail(store: Store, notify: (ref?: string) => void): StoreChanges {
  return followStoreChanges({ store, surface: { notify: (ref) => notify(ref) } });
}

/** Serve's long poll, asked again for as long as the inbox is open; after a failure, a refresh once it answers. */
function followWatch(store: HttpInboxStore, notify: (ref?: string) => void): StoreChanges {
  const stopping = new AbortController();
  const signal = stopping.signal;
  let began: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    began = resolve;
  });
  const loop = (async () => {
    let failures = 0;
    let watch: ProjectWatch | undefined;
    while (!signal.aborted) {
      try {
        if (watch === undefined) {
          watch = await store.watchInbox();
          if (failures > 0) notify(); // what changed while serve was away
          failures = 0;
        }
        began();
        if (await watch.changed({ timeoutMs: 60_000, signal })) notify();
      } catch {
        began();
        if (signal.aborted) break;
        await watch?.close().catch(() => undefined);
        watch = undefined;
        await waitToRetry(store, backoff(failures++, 200, 10_000), signal);
      }
    }
    began();
    await watch?.close().catch(() => undefined);
  })();
  return {
    started,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
