import { afterEach, describe, expect, it } from 'vitest';
import { checkTelegram } from '../../../src/commands/doctor/telegram.js';
import { FakeTelegram } from '../../support/fake-telegram.js';

const open: FakeTelegram[] = [];
afterEach(async () => {
  for (const fake of open.splice(0)) await fake.stop();
});

async function fake(): Promise<FakeTelegram> {
  const telegram = await new FakeTelegram().start();
  open.push(telegram);
  telegram.addChat(-1001, [1]);
  telegram.addChat(-1002, [1]);
  telegram.removeBot(-1002);
  return telegram;
}

describe('doctor: Telegram', () => {
  it('GIVEN a good token THEN it names the bot, says it can post in a chat it is in, and what to fix for one it was removed from or one that does not exist', async () => {
    const telegram = await fake();
    const lines = await checkTelegram(
      { token: telegram.token, apiUrl: telegram.url, allowedUsers: [] },
      ['-1001', '-1002', '-1003'],
      2000,
    );
    expect(lines).toEqual([
      { status: 'ok', text: 'Telegram: signed in as @ask_later_bot (123456789)' },
      { status: 'ok', text: 'Telegram: the bot can post in supergroup -1001 (team)' },
      { status: 'fail', text: 'Telegram: the bot is not in chat -1002 (team) — add it to the chat again' },
      {
        status: 'fail',
        text: "Telegram: the bot cannot see chat -1003 (Bad Request: chat not found) — add the bot to the chat, and check the chat id (a group's starts with -100)",
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain(telegram.token);
  });

  it('GIVEN a token Telegram refuses THEN one line says so, without the token', async () => {
    const telegram = await fake();
    const token = '1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const lines = await checkTelegram({ token, apiUrl: telegram.url, allowedUsers: [] }, ['-1001'], 2000);
    expect(lines).toEqual([
      {
        status: 'fail',
        text: 'Telegram refused TELEGRAM_BOT_TOKEN — copy the token @BotFather gave (/token there shows it again)',
      },
    ]);
  });
});
