/**
 * The capture in an interactive Claude Code (its terminal UI under tmux), where AskUserQuestion would open a dialog
 * in the terminal: with the plugin installed from this checkout's marketplace, the model's AskUserQuestion is parked,
 * the terminal shows the denial naming the parked id and no dialog, and the model reads that denial.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { messageTexts } from '../fakes/messages-api.js';
import { uniquePrefix } from '../support/store.js';
import { until } from './session.js';
import { CLAUDE_TIMEOUT_MS, type E2e, startE2e, textReply } from './support.js';

const prefix = uniquePrefix();
const API_KEY = 'sk-ant-e2e-interactive-0123456789abcdef';
let e2e: E2e;
let store: RedisStore;
let home: string;
const tmuxSessions: string[] = [];

beforeAll(async () => {
  e2e = await startE2e();
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
  home = e2e.tempDir('home');
  await e2e.pluginSetup(home, { settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix } });
}, 900_000);

afterAll(async () => {
  for (const name of tmuxSessions) {
    try {
      execFileSync('tmux', ['kill-session', '-t', name], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
  await store?.close();
  await e2e?.close();
});

/** What a person who already set Claude Code up has: onboarding done, the project trusted, the API key approved. */
function setUpPerson(project: string): void {
  const file = join(home, '.claude.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.hasCompletedOnboarding = true;
  config.theme = 'dark';
  config.customApiKeyResponses = { approved: [API_KEY.slice(-20)], rejected: [] };
  config.projects = {
    ...(config.projects as Record<string, unknown> | undefined),
    [project]: { hasTrustDialogAccepted: true, allowedTools: [] },
  };
  writeFileSync(file, JSON.stringify(config));
}

describe('the capture in an interactive Claude Code', () => {
  it(
    'GIVEN the plugin and Claude Code in a terminal WHEN the model asks with AskUserQuestion THEN no dialog opens: the terminal shows the denial naming the parked question, which waits in the inbox',
    async () => {
      const project = e2e.gitProject();
      setUpPerson(project);
      e2e.api.setScript((body) => {
        if ((body.tools?.length ?? 0) === 0) return textReply('OK.');
        if (JSON.stringify(body.messages).includes('"tool_use_id":"toolu_tui"')) return textReply('TUI-DONE');
        if (JSON.stringify(body.messages).includes('PROMPT-TUI')) {
          return {
            content: [
              { type: 'text', text: 'TUI-WORDS: the export needs a format.' },
              {
                type: 'tool_use',
                id: 'toolu_tui',
                name: 'AskUserQuestion',
                input: {
                  questions: [
                    {
                      question: 'Which format should the export use?',
                      header: 'Format',
                      options: [
                        { label: 'Parquet (Recommended)', description: 'Columnar' },
                        { label: 'CSV', description: 'Plain' },
                      ],
                      multiSelect: false,
                    },
                  ],
                },
              },
            ],
          };
        }
        return textReply('OK.');
      });
      const name = `ask-later-e2e-${process.pid}`;
      tmuxSessions.push(name);
      const env = { ...e2e.baseEnv(home), ANTHROPIC_API_KEY: API_KEY, TERM: 'xterm-256color' };
      const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value ?? ''}`]);
      execFileSync('tmux', [
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '160',
        '-y',
        '50',
        '-c',
        project,
        ...envArgs,
        e2e.claude,
      ]);
      const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-t', name]).toString();
      const shows = (text: string) =>
        until(`the terminal to show ${text}`, () => screen().includes(text), CLAUDE_TIMEOUT_MS).catch((error) => {
          throw new Error(`${String(error)}\n--- the terminal ---\n${screen()}`);
        });
      await shows('❯');
      execFileSync('tmux', ['send-keys', '-t', name, '-l', 'PROMPT-TUI: make the export faster.']);
      // The keys reach the prompt box once its editor is up: send Enter when the text shows there.
      await shows('PROMPT-TUI: make the export faster.');
      execFileSync('tmux', ['send-keys', '-t', name, 'Enter']);
      await shows('TUI-DONE');

      const shown = screen().replace(/\s+/g, ' ');
      expect(shown).toContain(
        'PreToolUse:AskUserQuestion hook error: ask-later parked this question as #1 for the person',
      );
      // Claude Code's own dialog would show the options to pick; none was shown.
      expect(shown).not.toMatch(/Parquet \(Recommended\)/);
      const [parked] = await store.list(project);
      expect(parked).toMatchObject({
        id: 1,
        status: 'pending',
        context: 'TUI-WORDS: the export needs a format.',
        origin: { tool: 'AskUserQuestion', header: 'Format' },
      });
      const told = e2e.api
        .messageRequests()
        .flatMap((body) => body.messages)
        .flatMap((message) => (Array.isArray(message.content) ? (message.content as { tool_use_id?: string }[]) : []))
        .find((block) => block.tool_use_id === 'toolu_tui');
      expect(messageTexts({ messages: [{ role: 'user', content: [told] }] }).join('')).toMatch(
        /^PreToolUse:AskUserQuestion hook error: ask-later parked this question as #1 /,
      );
    },
    3 * CLAUDE_TIMEOUT_MS,
  );
});
