/**
 * The keyboard inbox as an Ink component: the controller's screen as lines (each fits the width, so Ink only places
 * them), drawn again when the controller says so and when the terminal is resized (the drafts are in the store and
 * the notes being typed in the controller, so a redraw loses nothing); every key goes to the controller.
 */
import { Box, Text, useInput, useStdout } from 'ink';
import React from 'react';
import type { InboxController } from './controller.js';

/** Tells the component to draw again. */
export interface Redraws {
  listen(redraw: () => void): () => void;
}

export interface InboxScreenProps {
  readonly controller: InboxController;
  readonly redraws: Redraws;
}

function sizeOf(stdout: NodeJS.WriteStream): { width: number; height: number } {
  return { width: stdout.columns || 80, height: stdout.rows || 24 };
}

export function InboxScreen({ controller, redraws }: InboxScreenProps): React.ReactElement {
  const { stdout } = useStdout();
  const [, tick] = React.useReducer((count: number) => count + 1, 0);
  const [size, setSize] = React.useState(() => sizeOf(stdout));
  React.useEffect(() => redraws.listen(tick), [redraws]);
  React.useEffect(() => {
    const resized = () => setSize(sizeOf(stdout));
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
  }, [stdout]);
  useInput((input, key) => controller.key(input, key));
  // One line short of the terminal: a frame as tall as the screen would make Ink clear the screen on every draw.
  const lines = controller.lines(size.width, Math.max(1, size.height - 1));
  return React.createElement(
    Box,
    { flexDirection: 'column', width: size.width },
    ...lines.map((line, index) =>
      React.createElement(Text, { key: index, wrap: 'truncate-end' }, line === '' ? ' ' : line),
    ),
  );
}
