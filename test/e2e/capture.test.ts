/**
 * Claude Code's own AskUserQuestion parked instead of blocking the terminal (issue 23), end to end: the real binary
 * with the plugin installed from this checkout's marketplace, on the SDK's path where the tool is offered in `-p`
 * mode (`--permission-prompt-tool stdio`: a dialog nobody hooked reaches this host as a `can_use_tool` request, which
 * the session records and denies), the tests' private Redis, `serve` in process with the fake Slack Web API and the
 * web inbox, and Chromium on that inbox.
 *
 * - park (default): the model asks two questions; its tool result is the denial naming the parked set; the set
 *   shows on Slack and in the web inbox with its topics and the recommended options preselected; answered in the
 *   web inbox, the idle session wakes, and the model reads both answers once, matched to its questions.
 * - wait:<seconds>: answered in time, the model's tool result carries the labels and nothing comes again; not in
 *   time, the denial, and the answer later once.
 * - terminal, and a question ask-later refuses: Claude Code's dialog as before (the host gets the request).
 * - plan mode: the plan is parked for approval; once approved, the model's next ExitPlanMode goes through.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StructuredResult } from '../../src/agents/mcp/structured.js';
import { silentLogger } from '../../src/core/logger.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { type ServeHandle, startServe } from '../../src/serve/run.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { uniquePrefix } from '../support/store.js';
import { TEST_RETRY } from '../surfaces/slack/harness.js';
import { CHROMIUM, hasChromium, launchChromium } from '../surfaces/web/support.js';
import { count, isWake, Model, type ModelRequest, Session, until } from './session.js';
import { CLAUDE_TIMEOUT_MS, type E2e, killTree, PLUGIN_TOOL_PREFIX, startE2e, textReply } from './support.js';

const prefix = uniquePrefix();
const COLLECT = `${PLUGIN_TOOL_PREFIX}collect_answers`;
const ALLOWED_TOOLS = [COLLECT, 'ToolSearch', 'Write'];
const SDK_PATH = ['--permission-prompt-tool', 'stdio'];
const SLACK_CHANNEL = 'C0CAPTURE';

let e2e: E2e;
let store: RedisStore;
let home: string;
let slack: FakeSlackApi;
let serve: ServeHandle;
let browser: Browser;
const model = new Model();
const sessions: Session[] = [];

function openSession(project: string, env: Record<string, string> = {}, args: readonly string[] = []): Session {
  const session = new Session(e2e, home, project, { allowedTools: ALLOWED_TOOLS, args: [...SDK_PATH, ...args], env });
  sessions.push(session);
  return session;
}

/** The model's two questions: a single-select with a recommended option and a multi-select with two. */
const ASKED = {
  questions: [
    {
      question: 'Which format should the nightly export write?',
      header: 'Format',
      options: [
        { label: 'Parquet (Recommended)', description: 'Columnar and small' },
        { label: 'CSV', description: 'What it writes today' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which checks should run before each export?',
      header: 'Checks',
      options: [
        { label: 'Unit', description: 'Fast' },
        { label: 'Lint (Recommended)', description: 'Style' },
        { label: 'E2E (Recommended)', description: 'Slow but thorough' },
      ],
      multiSelect: true,
    },
  ],
};
const MODEL_SAID = 'MODEL-WORDS: the CSV writer is slow on big tables, so the format needs a decision.';

/** The model's reply that asks: its words, then the AskUserQuestion call. */
function ask(id: string, input: unknown = ASKED) {
  return {
    content: [
      { type: 'text' as const, text: MODEL_SAID },
      { type: 'tool_use' as const, id, name: 'AskUserQuestion', input },
    ],
  };
}

/** The main request carrying the result of tool call `id`, and that result's text. */
function resultOf(session: Session, id: string): string | undefined {
  return model
    .main(session)
    .map((request) => request.toolResults.get(id))
    .find((text) => text !== undefined);
}

/** Every `initial_option(s)` of a Slack message's blocks, as JSON text. */
function preselected(blocks: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'initial_option' || key === 'initial_options') found.push(JSON.stringify(inner));
        else visit(inner);
      }
    }
  };
  visit(blocks);
  return found;
}

beforeAll(async () => {
  if (!hasChromium()) throw new Error(`the capture test needs Debian's chromium at ${CHROMIUM}`);
  e2e = await startE2e();
  model.install(e2e.api);
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
  home = e2e.tempDir('home');
  await e2e.pluginSetup(home, { settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix } });
  slack = await new FakeSlackApi().start();
  serve = await startServe(
    {
      store: { kind: 'redis', url: inject('redisUrl'), prefix },
      port: 0,
      host: '127.0.0.1',
      routes: [],
      slack: {
        botToken: 'xoxb-capture',
        signingSecret: 'capture-secret',
        channel: SLACK_CHANNEL,
        apiUrl: slack.url,
        allowedUsers: [],
      },
    },
    {
      logger: silentLogger,
      sweepMs: 0,
      retryConfig: TEST_RETRY,
      botId: 'B1',
      botUserId: 'UBOT',
      bridge: { blockMs: 50, retryBaseMs: 10 },
      web: { displayName: 'Ada', timeZone: 'UTC' },
    },
  );
  browser = await launchChromium();
}, 900_000);

afterEach(() => {
  for (const session of sessions) killTree(session.child);
});

afterAll(async () => {
  for (const session of sessions) killTree(session.child);
  await browser?.close();
  await serve?.stop();
  await slack?.stop();
  await store?.close();
  await e2e?.close();
});

describe('AskUserQuestion parked instead of blocking the terminal', () => {
  it(
    'GIVEN the plugin WHEN the model asks two questions with AskUserQuestion THEN its tool result names the parked set, the set shows on Slack and in the web inbox with its topics and recommendations preselected, and answered there it wakes the idle session, which reads both answers once',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project);
      let collects = 0;
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_auq')) return textReply('PARKED');
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_collect_'));
        if (collected !== undefined) return textReply(`APPLIED ${collected}`);
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_collect_${++collects}`);
        if (r.tail.includes('PROMPT-1')) return ask('toolu_auq');
        return textReply('NOTHING');
      };
      session.type('PROMPT-1: make the nightly export faster.');
      await session.turnEnded('PARKED');

      // The model's tool result: the denial naming the set (Claude Code prefixes it), and no dialog reached the host.
      expect(resultOf(session, 'toolu_auq')).toMatch(
        /^PreToolUse:AskUserQuestion hook error: ask-later parked these questions as the set #1 \(#1\.1 Format, #1\.2 Checks\) for the person, in the team's ask-later inbox/,
      );
      expect(session.controlRequests).toEqual([]);
      expect(await store.get(project, 1)).toMatchObject({
        status: 'pending',
        isBlocking: true,
        context: MODEL_SAID,
        origin: { tool: 'AskUserQuestion' },
        members: [
          { topic: 'Format', recommended: ['Parquet'] },
          { topic: 'Checks', recommended: ['Lint', 'E2E'], multiSelect: true },
        ],
      });

      // On Slack: the topics, and the recommended options preselected.
      const ref = formatQuestionRef(project, 1);
      const post = await slack.waitFor(
        (call) =>
          call.method === 'chat.postMessage' &&
          (call.body.metadata as { event_payload?: { ref?: string } } | undefined)?.event_payload?.ref === ref,
      );
      const blocksText = JSON.stringify(post.body.blocks);
      expect(blocksText).toContain('Format');
      expect(blocksText).toContain('Checks');
      const initial = preselected(post.body.blocks);
      expect(initial.filter((text) => text.includes('Parquet') && !text.includes('CSV'))).toHaveLength(1);
      expect(
        initial.filter((text) => text.includes('Lint') && text.includes('E2E') && !text.includes('Unit')),
      ).toHaveLength(1);

      // In the web inbox: one card with a tab per topic, ready as shown (the recommendations preselected). The person
      // adds a note to the first question and sends the set through its review.
      const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
      try {
        context.setDefaultTimeout(15_000);
        const page = await context.newPage();
        await page.goto(serve.url);
        const card = page.locator(`article.card[data-ref="${ref}"]`);
        await card.waitFor();
        const tabs = await card.locator('[role="tab"]').evaluateAll((items) => items.map((tab) => tab.textContent));
        expect(tabs.map((tab) => tab?.replace(/\s+/g, ' ').trim())).toEqual([
          expect.stringContaining('Format'),
          expect.stringContaining('Checks'),
        ]);
        await expect(card.locator('.set-progress').textContent()).resolves.toBe('2 of 2 ready');
        await page.keyboard.press('j');
        await page.keyboard.press('n');
        await page.keyboard.type('NOTE-FROM-ADA');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Enter');
        await card.locator('.review').waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await page.locator(`article.card[data-ref="${ref}"][data-status="answered"]`).waitFor();
      } finally {
        await context.close();
      }
      expect((await store.get(project, 1))?.answer).toMatchObject({
        members: [
          { choices: ['Parquet'], other: false, notes: 'NOTE-FROM-ADA' },
          { choices: ['Lint', 'E2E'], other: false },
        ],
      });

      // The idle session wakes; the model collects both answers, matched to its questions by text and header.
      const woken = await until(`a woken request\n${session.report()}`, () => model.main(session).find(isWake));
      expect(woken.tail).toContain('#1 (blocking) was answered on the web inbox');
      await session.turnEnded('APPLIED toolu_collect_1');
      const collected = JSON.parse(resultOf(session, 'toolu_collect_1') ?? '{}') as StructuredResult;
      expect(collected.questions).toMatchObject([
        {
          id: 1,
          askedWith: 'AskUserQuestion',
          items: [
            {
              topic: 'Format',
              header: 'Format',
              question: 'Which format should the nightly export write?',
              answer: { labels: ['Parquet'], notes: 'NOTE-FROM-ADA' },
            },
            {
              topic: 'Checks',
              header: 'Checks',
              question: 'Which checks should run before each export?',
              answer: { labels: ['Lint', 'E2E'] },
            },
          ],
        },
      ]);
      await until('#1 delivered', async () => (await store.get(project, 1))?.status === 'delivered');
      // Once: the next typed prompt carries nothing more of it.
      session.type('PROMPT-2: anything else?');
      await session.turnEnded('NOTHING');
      expect(count(model.lastMain(session).body, 'NOTE-FROM-ADA')).toBe(1);
      expect(session.controlRequests).toEqual([]);
      expect(await session.end()).toBe(0);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN wait:<seconds> WHEN the person answers while the tool call waits THEN the model’s tool result carries the chosen labels, and nothing comes again; WHEN nobody answers in time THEN the denial, and the answer later once',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project, { ASK_LATER_ASK_USER_QUESTION: 'wait:60' });
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_wait')) return textReply('GOT IT');
        if (r.tail.includes('PROMPT-W')) return ask('toolu_wait', { questions: [ASKED.questions[0]] });
        return textReply('NOTHING');
      };
      session.type('PROMPT-W: make the nightly export faster.');
      await until('the question parked', async () => (await store.get(project, 1))?.status === 'pending');
      await store.answer(
        project,
        1,
        { choices: ['CSV'], other: false, notes: 'WAIT-NOTE keep it plain' },
        { platform: 'slack', userId: 'U1', displayName: 'Ada' },
      );
      await session.turnEnded('GOT IT');
      expect(resultOf(session, 'toolu_wait')).toContain(
        '"Which format should the nightly export write?"="CSV — notes: WAIT-NOTE keep it plain"',
      );
      expect((await store.get(project, 1))?.deliveredVia).toBe('tool-result');
      session.type('PROMPT-AGAIN: anything else?');
      await session.turnEnded('NOTHING');
      expect(count(model.lastMain(session).body, 'WAIT-NOTE')).toBe(1);
      expect(session.controlRequests).toEqual([]);
      expect(await session.end()).toBe(0);

      // Not answered within the wait: the denial; the answer given later wakes the session once.
      const late = openSession(e2e.gitProject(), { ASK_LATER_ASK_USER_QUESTION: 'wait:2' });
      let collects = 0;
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.has('toolu_late')) return textReply('PARKED LATE');
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_lcollect_'));
        if (collected !== undefined) return textReply(`APPLIED ${collected}`);
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_lcollect_${++collects}`);
        if (r.tail.includes('PROMPT-L')) return ask('toolu_late', { questions: [ASKED.questions[0]] });
        return textReply('NOTHING');
      };
      late.type('PROMPT-L: make the nightly export faster.');
      await late.turnEnded('PARKED LATE');
      expect(resultOf(late, 'toolu_late')).toMatch(
        /ask-later parked this question as #1 .* It was not answered within 2 s\./,
      );
      await store.answer(
        late.project,
        1,
        { choices: ['Parquet'], other: false, notes: 'LATE-NOTE' },
        { platform: 'slack', userId: 'U1', displayName: 'Ada' },
      );
      await late.turnEnded('APPLIED toolu_lcollect_1');
      await until('#1 delivered', async () => (await store.get(late.project, 1))?.status === 'delivered');
      expect(count(model.lastMain(late).body, 'LATE-NOTE')).toBe(1);
      expect(await late.end()).toBe(0);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the terminal mode, or a question ask-later refuses THEN Claude Code’s dialog reaches the host as before, and for the refusal the model is told why',
    async () => {
      const terminal = openSession(e2e.gitProject(), { ASK_LATER_ASK_USER_QUESTION: 'terminal' });
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.size > 0) return textReply('DIALOG DONE');
        if (r.tail.includes('PROMPT-T')) return ask('toolu_terminal');
        return textReply('NOTHING');
      };
      terminal.type('PROMPT-T: make the nightly export faster.');
      await terminal.turnEnded('DIALOG DONE');
      expect(terminal.controlRequests.map((event) => (event.request as { tool_name?: string }).tool_name)).toEqual([
        'AskUserQuestion',
      ]);
      expect(await store.list(terminal.project)).toEqual([]);
      expect(await terminal.end()).toBe(0);

      const refused = openSession(e2e.gitProject());
      const tooLong = `Option ${'x'.repeat(90)}`;
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        if (r.toolResults.size > 0) return textReply('DIALOG DONE');
        if (r.tail.includes('PROMPT-R')) {
          return ask('toolu_refused', {
            questions: [
              {
                ...ASKED.questions[0],
                options: [{ label: tooLong, description: 'd' }, ASKED.questions[0]?.options[1]],
              },
            ],
          });
        }
        return textReply('NOTHING');
      };
      refused.type('PROMPT-R: make the nightly export faster.');
      await refused.turnEnded('DIALOG DONE');
      expect(refused.controlRequests).toHaveLength(1);
      expect(await store.list(refused.project)).toEqual([]);
      const told = model
        .lastMain(refused)
        .body.messages.map((m) => JSON.stringify(m.content))
        .join('\n');
      expect(told).toContain("ask-later did not park this question (it breaks ask-later's rules:");
      expect(await refused.end()).toBe(0);
    },
    3 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN plan mode WHEN the model asks to leave it THEN its plan is parked for approval and the call denied; once the person approves, the woken model’s ExitPlanMode goes through',
    async () => {
      const project = e2e.gitProject();
      const session = openSession(project, {}, ['--permission-mode', 'plan']);
      const plan = '## Plan\n\n1. PLAN-STEP write the Parquet exporter.\n2. Keep CSV behind a flag.';
      let collects = 0;
      let exits = 0;
      model.brain = (r: ModelRequest) => {
        if (r.kind !== 'main') return textReply('sub done');
        const exited = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_exit_'));
        if (exited !== undefined) return textReply(`EXIT RESULT ${exited}`);
        const collected = [...r.toolResults.keys()].find((id) => id.startsWith('toolu_pcollect_'));
        if (collected !== undefined) return model.use(r, 'ExitPlanMode', {}, `toolu_exit_${++exits}`);
        if (isWake(r)) return model.use(r, COLLECT, {}, `toolu_pcollect_${++collects}`);
        if (r.toolResults.has('toolu_write')) return model.use(r, 'ExitPlanMode', {}, `toolu_exit_${++exits}`);
        if (r.tail.includes('PROMPT-P')) {
          // Plan mode names the one file the model may write: its plan.
          const planFile = /create your plan at (\S+\.md)/.exec(JSON.stringify(r.body))?.[1];
          if (planFile === undefined) return textReply('NO PLAN FILE NAMED');
          return {
            content: [
              { type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: planFile, content: plan } },
            ],
          };
        }
        return textReply('NOTHING');
      };
      session.type('PROMPT-P: plan the Parquet export.');
      await session.turnEnded('EXIT RESULT toolu_exit_1');
      expect(resultOf(session, 'toolu_exit_1')).toMatch(/ask-later parked your plan for the person's approval as #1/);
      expect(await store.get(project, 1)).toMatchObject({
        status: 'pending',
        question: 'Approve this plan?',
        origin: { tool: 'ExitPlanMode' },
      });
      expect((await store.get(project, 1))?.context).toContain('PLAN-STEP');

      await store.answer(
        project,
        1,
        { choices: ['Approve'], other: false, notes: 'PLAN-NOTE go' },
        { platform: 'slack', userId: 'U1', displayName: 'Ada' },
      );
      await session.turnEnded('EXIT RESULT toolu_exit_2');
      expect(resultOf(session, 'toolu_exit_2')).toMatch(/^User has approved/);
      expect(session.controlRequests).toEqual([]);
      expect(await session.end()).toBe(0);
    },
    3 * CLAUDE_TIMEOUT_MS,
  );
});
