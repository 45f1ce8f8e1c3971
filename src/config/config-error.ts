/** A setting is missing or wrong. The message is one line naming the variable, what it needs and what came. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
