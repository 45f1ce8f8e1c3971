/**
 * `ask-later inbox` in a terminal: the keyboard inbox, full screen (the terminal's alternate screen, so what was on
 * it comes back on exit), until `q` or Ctrl-C; the terminal is left as it was found (raw mode off, cursor shown, the
 * alternate screen left) however the app ends.
 */
import { render } from 'ink';
import React from 'react';
import { projectName } from '../../render/vocabulary.js';
import { InboxScreen, type Redraws } from './app.js';
import { InboxController } from './controller.js';
import type { InboxArgs } from './inbox-args.js';
import { projectFilter } from './list.js';
import type { TerminalInbox } from './session.js';

const ALTERNATE_SCREEN_ON = '\u001b[?1049h\u001b[H';
const ALTERNATE_SCREEN_OFF = '\u001b[?1049l';

export interface ScreenStreams {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

export async function runScreen(
  inbox: TerminalInbox,
  args: InboxArgs,
  streams: ScreenStreams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let project: { tag: string; name: string } | undefined;
  if (args.project !== undefined) {
    const found = await projectFilter(inbox, args.project);
    if (!found.ok) {
      streams.stderr.write(`ask-later inbox: ${found.text}\n`);
      return 1;
    }
    project = { tag: found.tag, name: projectName(args.project) };
  }
  const listeners = new Set<() => void>();
  const redraws: Redraws = {
    listen(redraw) {
      listeners.add(redraw);
      return () => listeners.delete(redraw);
    },
  };
  let quit: () => void = () => undefined;
  const controller = new InboxController(inbox, {
    filter: args.filter,
    ...(project === undefined ? {} : { project }),
    changed: () => {
      for (const redraw of listeners) redraw();
    },
    quit: () => quit(),
  });
  streams.stdout.write(ALTERNATE_SCREEN_ON);
  const stop = () => quit();
  try {
    const instance = render(React.createElement(InboxScreen, { controller, redraws }), {
      stdin: streams.stdin,
      stdout: streams.stdout,
      stderr: streams.stderr,
      exitOnCtrlC: true,
      patchConsole: false,
    });
    quit = () => instance.unmount();
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
    void controller.start();
    await instance.waitUntilExit();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
    controller.stop();
    await controller.settled();
    streams.stdout.write(ALTERNATE_SCREEN_OFF);
    // Ink paused its input; nothing else reads it, so it must not keep the process alive.
    streams.stdin.unref?.();
  }
  return 0;
}
