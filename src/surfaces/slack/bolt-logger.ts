/**
 * Bolt's and web-api's logs, routed into ours. They log free-form arguments (sometimes an error, sometimes a request
 * description), so only what cannot carry a person's text goes through: the first string argument, on one line and
 * cut short, and errors reduced to name and code. Debug output (request bodies) is dropped entirely.
 */
import type { LogLevel, Logger as SlackLogger } from '@slack/bolt';
import { errorFields, type Logger } from '../../core/logger.js';

const MESSAGE_MAX = 160;

function describe(args: unknown[]): { fields: Record<string, unknown>; message: string } {
  const text = args.find((arg): arg is string => typeof arg === 'string');
  const error = args.find((arg) => arg instanceof Error);
  const message = text === undefined ? 'slack' : text.replace(/\s+/g, ' ').slice(0, MESSAGE_MAX);
  return { fields: { source: 'slack-sdk', ...(error ? errorFields(error) : {}) }, message };
}

export function slackLogger(logger: Logger): SlackLogger {
  let level = 'info' as LogLevel;
  return {
    debug: () => undefined,
    info: (...args: unknown[]) => {
      const { fields, message } = describe(args);
      logger.info(fields, message);
    },
    warn: (...args: unknown[]) => {
      const { fields, message } = describe(args);
      logger.warn(fields, message);
    },
    error: (...args: unknown[]) => {
      const { fields, message } = describe(args);
      logger.error(fields, message);
    },
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
