/**
 * A command the Cluster clients cannot send to one node: not listed in command-keys.ts, or its keys in different
 * hash slots. A programming error the tests catch, never a state of the cluster.
 */
export class UnroutableCommandError extends Error {
  override readonly name = 'UnroutableCommandError';

  constructor(command: string, got = 'a command the table does not list') {
    super(`Expected ${JSON.stringify(command)} with keys of one hash slot, listed in command-keys.ts, got ${got}`);
  }
}
