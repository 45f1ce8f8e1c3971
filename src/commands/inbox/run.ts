/**
 * `ask-later inbox` and `ask-later answer`: the terminal surface wired to the store (`surfaces/terminal/` never reaches
 * the store itself). The store is the one every command reads (REDIS_URL, else the embedded file), as the OS user;
 * or serve over HTTP with a person's token (ASK_LATER_URL + ASK_LATER_TOKEN made with `token create --web`), as the
 * token's name (open.ts). Either way through the same `InteractionService` as every surface, so the first answer
 * wins everywhere. The keyboard inbox also follows the changes (the store's tail, or serve's long poll) to stay live.
 *
 * Exit codes: 0 done; 1 refused, or the settings or the store failed (one stderr line); 2 wrong arguments.
 */

import { projectFromEnvironment } from '../../config/project.js';
import type { PersonStore } from '../../store/port.js';
import type { Actor } from '../../surfaces/interactions.js';
import { allowListPolicy, InteractionService } from '../../surfaces/interactions.js';
import { TERMINAL_PLACE, terminalActor, terminalRouting } from '../../surfaces/terminal/actor.js';
import { runAnswer } from '../../surfaces/terminal/answer.js';
import { ANSWER_USAGE, parseAnswerArgs } from '../../surfaces/terminal/answer-args.js';
import { INBOX_USAGE, parseInboxArgs } from '../../surfaces/terminal/inbox-args.js';
import { runList } from '../../surfaces/terminal/list.js';
import type { ChangeListener, TerminalInbox } from '../../surfaces/terminal/session.js';
import { failureText, type OpenedInbox, openInbox } from './open.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the commands read and write: the streams, and whether they are a terminal. */
export interface InboxIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown };
  readonly stdin?: { readonly isTTY?: boolean };
}

/** The terminal surface over `store` as `actor`, and how to tell it of a change (a question's ref, when known). */
export function terminalInbox(
  store: PersonStore,
  actor: Actor = terminalActor(),
): TerminalInbox & { notify(ref?: string): void } {
  const listeners = new Set<ChangeListener>();
  return {
    interactions: new InteractionService({ store, access: allowListPolicy({}), routing: terminalRouting }),
    actor,
    place: TERMINAL_PLACE,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(ref) {
      for (const listener of listeners) listener(ref);
    },
  };
}

/** Runs `work` on the open inbox, closing it after; a store or serve that stops answering is one line, exit 1. */
async function withInbox(
  command: string,
  env: Env,
  io: InboxIo,
  work: (opened: OpenedInbox) => Promise<number>,
): Promise<number> {
  const opened = await openInbox(env);
  if (!opened.ok) {
    io.stderr.write(`ask-later ${command}: ${opened.text}\n`);
    return 1;
  }
  try {
    return await work(opened.inbox);
  } catch (error) {
    const text = failureText(error);
    if (text === undefined) throw error;
    io.stderr.write(`ask-later ${command}: ${text}\n`);
    return 1;
  } finally {
    await opened.inbox.store.close().catch(() => undefined);
  }
}

/** Whether the keyboard inbox can run here: a terminal on both sides, and one that can draw. */
export function hasTerminal(env: Env, io: InboxIo): boolean {
  return io.stdout.isTTY === true && io.stdin?.isTTY === true && env.TERM !== 'dumb';
}

export async function runInboxCommand(env: Env, argv: readonly string[], io: InboxIo): Promise<number> {
  const parsed = parseInboxArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`ask-later inbox: ${parsed.error}\n${INBOX_USAGE.split('\n')[0]}\n`);
    return 2;
  }
  if (parsed.args.help) {
    io.stdout.write(`${INBOX_USAGE}\n`);
    return 0;
  }
  let args = parsed.args;
  if (args.mode === 'screen' && !hasTerminal(env, io)) {
    io.stderr.write(
      'ask-later inbox: no terminal here, so the list (ask-later inbox --list); answer with ask-later answer\n',
    );
    args = { ...args, mode: 'list' };
  }
  return withInbox('inbox', env, io, async (opened) => {
    const inbox = terminalInbox(opened.store, opened.actor);
    if (args.mode !== 'screen') return runList(inbox, args, io);
    const changes = opened.follow((ref) => inbox.notify(ref));
    try {
      await changes.started;
      const { runScreen } = await import('../../surfaces/terminal/screen-run.js');
      return await runScreen(inbox, args);
    } finally {
      await changes.stop();
    }
  });
}

export async function runAnswerCommand(
  env: Env,
  argv: readonly string[],
  io: InboxIo,
  cwd: string = process.cwd(),
): Promise<number> {
  const parsed = parseAnswerArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`ask-later answer: ${parsed.error}\n${ANSWER_USAGE.split('\n')[0]}\n`);
    return 2;
  }
  if (parsed.args.help) {
    io.stdout.write(`${ANSWER_USAGE}\n`);
    return 0;
  }
  const args = parsed.args;
  return withInbox('answer', env, io, (opened) =>
    runAnswer(
      terminalInbox(opened.store, { ...opened.actor, place: 'command-line' }),
      args,
      io,
      projectFromEnvironment(env as NodeJS.ProcessEnv, cwd),
    ),
  );
}
