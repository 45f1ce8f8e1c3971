/**
 * Every problem among a set of settings, not only the first: each parser is run on its own and each
 * {@link ConfigError} kept as its line. `doctor` lists these; the commands themselves still stop at the first.
 */
import { ConfigError } from './config-error.js';

/** The one-line message of every parser that refused its setting, in order, each once. */
export function settingProblems(parsers: readonly (() => unknown)[]): string[] {
  const problems: string[] = [];
  for (const parse of parsers) {
    try {
      parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      if (!problems.includes(error.message)) problems.push(error.message);
    }
  }
  return problems;
}
