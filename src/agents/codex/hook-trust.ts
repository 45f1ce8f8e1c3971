/**
 * Codex's trust in a hook (0.169): a hook from the user's or a project's config runs only when the user's
 * `config.toml` holds `[hooks.state."<key>"] trusted_hash = "<hash>"` for it, where the key names the file, the
 * event, the group and the handler, and the hash is Codex's over the hook's normalised identity (the event, the
 * matcher when the event has one, the handler with its time-out). Codex asks a person to review an untrusted hook in
 * its terminal UI and writes the same entry; `codex exec` skips it silently. Pure.
 */
import { createHash } from 'node:crypto';

export type CodexHookEvent = 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse';

/** A command hook as Codex reads it (`type = "command"`). */
export interface CommandHook {
  readonly command: string;
  /** Seconds; Codex's default is 600. */
  readonly timeout?: number;
  readonly async?: boolean;
  readonly statusMessage?: string;
}

/** Codex's default time-out of a hook, in seconds. */
const DEFAULT_TIMEOUT = 600;

/** The event's name in keys and hashes (`user_prompt_submit`). */
export function eventLabel(event: string): string {
  return event.replace(/[A-Z]/g, (letter, at: number) => `${at === 0 ? '' : '_'}${letter.toLowerCase()}`);
}

/** Events whose groups' matcher Codex keeps (for the others it ignores it). */
const MATCHED_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse', 'PermissionRequest']);

/** The key of `[hooks.state."<key>"]`: the file the hook is in, the event, the group's and the handler's index. */
export function trustKey(file: string, event: string, group: number, handler: number): string {
  return `${file}:${eventLabel(event)}:${group}:${handler}`;
}

/** JSON with every object's keys in order, as Codex serialises the identity it hashes. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = canonical((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/** `sha256:<hex>` of the hook's identity: what `trusted_hash` must hold for Codex to run it. */
export function trustedHash(event: string, matcher: string | undefined, hook: CommandHook): string {
  const handler = {
    type: 'command',
    command: hook.command,
    timeout: Math.max(1, hook.timeout ?? DEFAULT_TIMEOUT),
    async: hook.async ?? false,
    ...(hook.statusMessage === undefined ? {} : { statusMessage: hook.statusMessage }),
  };
  const identity = {
    event_name: eventLabel(event),
    ...(matcher === undefined || !MATCHED_EVENTS.has(event) ? {} : { matcher }),
    hooks: [handler],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(identity)))
    .digest('hex')}`;
}
