/**
 * Who the terminal inbox answers as, and where: the person running it (the OS user's name), as the local web inbox
 * does (`web`, user `local`: the same person, so a draft begun in the browser on this machine shows in the terminal
 * and the other way round), at a place every project is routed to. Its answers are recorded as given in the
 * terminal (or from the command line, `ask-later answer`), not in the web inbox. The first answer still wins everywhere: both go
 * through `InteractionService`.
 */
import { userInfo } from 'node:os';
import type { AnswerPlace } from '../../core/question.js';
import type { Actor, Place, Routing } from '../interactions.js';

/** The terminal inbox's one channel: {@link terminalRouting} routes every project there. */
export const TERMINAL_CHANNEL = 'terminal';

/** Where the terminal inbox acts: its one channel. */
export const TERMINAL_PLACE: Place = { channel: TERMINAL_CHANNEL };

/** Every project, on every platform, is shown in the terminal (whoever holds the store reads all of it). */
export const terminalRouting: Routing = () => [TERMINAL_CHANNEL];

/** The OS user's name, else `you`. */
export function osUserName(): string {
  try {
    const name = userInfo().username.trim();
    return name === '' ? 'you' : name;
  } catch {
    return 'you';
  }
}

/**
 * The person the terminal answers as: `name` (a token's name: over HTTP serve answers as the token's person whatever
 * this says, so drafts are that person's in the web inbox too), else the OS user.
 */
export function terminalActor(name: string = osUserName(), place: AnswerPlace = 'terminal'): Actor {
  return { platform: 'web', userId: 'local', displayName: name, place };
}
