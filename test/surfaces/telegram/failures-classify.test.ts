import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { telegramErrorFields } from '../../../src/surfaces/telegram/api.js';
import { classifyTelegramFailure } from '../../../src/surfaces/telegram/failures.js';

function refused(code: number, description: string): GrammyError {
  return new GrammyError(
    `Call to 'sendMessage' failed! (${code}: ${description})`,
    { ok: false, error_code: code, description },
    'sendMessage',
    { text: 'secret question' },
  );
}

describe("Telegram's failures", () => {
  it.each([
    [401, 'Unauthorized', 'platform'],
    [403, 'Forbidden: bot was kicked from the supergroup chat', 'channel'],
    [403, 'Forbidden: bot is not a member of the channel chat', 'channel'],
    [400, 'Bad Request: chat not found', 'channel'],
    [400, 'Bad Request: not enough rights to send text messages to the chat', 'channel'],
    [400, "Bad Request: can't parse entities: unsupported start tag", 'event'],
  ] as const)('GIVEN %i %s THEN permanent, reaching the %s, with a fix', (code, description, reach) => {
    const failure = classifyTelegramFailure(refused(code, description));
    expect(failure).toMatchObject({ kind: 'permanent', code: `telegram ${code}`, reach });
  });

  it.each([
    [refused(429, 'Too Many Requests: retry after 40'), 'telegram 429'],
    [refused(502, 'Bad Gateway'), 'telegram 502'],
    [new HttpError('Network request failed', Object.assign(new Error('x'), { code: 'ECONNRESET' })), 'HttpError'],
  ])('GIVEN %s THEN transient', (error, code) => {
    expect(classifyTelegramFailure(error)).toEqual({ kind: 'transient', code });
  });

  it('GIVEN a failure THEN its log fields carry the method and code, never the description or payload', () => {
    const fields = telegramErrorFields(refused(400, 'Bad Request: chat not found'));
    expect(fields).toEqual({ error: 'GrammyError', code: 400, method: 'sendMessage' });
    expect(JSON.stringify(fields)).not.toContain('secret question');
  });
});
