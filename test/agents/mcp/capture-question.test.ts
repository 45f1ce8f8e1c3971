/**
 * `capture_question`, as the plugin's PreToolUse hook calls it: Claude Code's AskUserQuestion and ExitPlanMode calls
 * parked in the inbox, on Redis and on the embedded store, through a real MCP client. The transcript is a file of
 * Claude Code's JSON lines written by the test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResult } from '../../../src/agents/mcp/structured.js';
import type { CaptureMode } from '../../../src/config/agent.js';
import type { Question } from '../../../src/core/question.js';
import type { Store } from '../../../src/store/port.js';
import { StoreUnavailableError } from '../../../src/store/store-unavailable-error.js';
import { connectClient, textOf } from '../../support/mcp.js';
import { openSqliteTestStore, openTestStore, person, uniqueProject } from '../../support/store.js';

const scratch = mkdtempSync(join(tmpdir(), 'ask-later-capture-'));
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(scratch, { recursive: true, force: true });
});

const FACTORIES: readonly [string, () => Promise<Store>][] = [
  ['Redis', () => openTestStore()],
  ['SQLite', () => openSqliteTestStore()],
];

/** What the model asked: a single-select with a recommended option and a multi-select with two. */
const TWO_QUESTIONS = {
  questions: [
    {
      question: 'Which format should the export use?',
      header: 'Format',
      options: [
        { label: 'Parquet (Recommended)', description: 'Columnar, small' },
        { label: 'CSV', description: 'Plain text' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which checks should run before the export?',
      header: 'Checks',
      options: [
        { label: 'Unit', description: 'Fast' },
        { label: 'Lint (Recommended)', description: 'Style' },
        { label: 'E2E (Recommended)', description: 'Slow' },
      ],
      multiSelect: true,
    },
  ],
};

const ONE_QUESTION = { questions: [TWO_QUESTIONS.questions[0]] };

const MODEL_SAID = 'I read the exporter. The CSV writer is slow on big tables,\nso the format needs a decision.';

let files = 0;
/** A transcript whose last reply is the model's text and then the tool call `toolUseId`. */
function transcript(toolUseId: string, name: string, input: unknown, extra: readonly object[] = []): string {
  const path = join(scratch, `t${++files}.jsonl`);
  const lines = [
    { type: 'user', message: { role: 'user', content: 'Export the data.' } },
    ...extra,
    { type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: MODEL_SAID }] } },
    { type: 'api-request', id: 'x' },
    {
      type: 'assistant',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name, input }] },
    },
  ];
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
}

interface HookAnswer {
  systemMessage?: string;
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: 'allow' | 'deny';
    permissionDecisionReason?: string;
    updatedInput?: { questions?: unknown; answers?: Record<string, string> };
    additionalContext?: string;
  };
}

async function call(client: Client, fields: Record<string, string>): Promise<HookAnswer> {
  const result = await client.callTool({ name: 'capture_question', arguments: fields });
  return JSON.parse(textOf(result)) as HookAnswer;
}

function askFields(input: unknown, toolUseId = `toolu_${++files}`, path?: string) {
  return {
    tool_name: 'AskUserQuestion',
    tool_input: JSON.stringify(input),
    tool_use_id: toolUseId,
    transcript_path: path ?? transcript(toolUseId, 'AskUserQuestion', input),
    session_id: 'session-1',
  };
}

describe.each(FACTORIES)('capture_question on %s', (_name, open) => {
  const setUp = async (mode: CaptureMode = { kind: 'park' }, storeOverride?: () => Promise<Store>) => {
    const store = await open();
    opened.push(store);
    const project = uniqueProject('capture');
    const stateDir = join(scratch, `state-${++files}`);
    const client = await connectClient({
      project,
      store: storeOverride ?? (async () => store),
      version: 'test',
      capture: { mode, inbox: 'the web inbox', stateDir },
    });
    return { store, project, client };
  };

  it('GIVEN AskUserQuestion with two questions THEN one blocking set is parked (headers as topics, the (Recommended) options recommended, the model’s words as context) and the tool is denied naming it', async () => {
    const { store, project, client } = await setUp();
    const answer = await call(client, askFields(TWO_QUESTIONS));

    const [parked] = await store.list(project);
    expect(parked).toMatchObject({
      id: 1,
      status: 'pending',
      isBlocking: true,
      context: MODEL_SAID,
      origin: { tool: 'AskUserQuestion' },
      members: [
        {
          topic: 'Format',
          question: 'Which format should the export use?',
          options: [
            { label: 'Parquet', description: 'Columnar, small' },
            { label: 'CSV', description: 'Plain text' },
          ],
          recommended: ['Parquet'],
          multiSelect: false,
          isBlocking: true,
        },
        {
          topic: 'Checks',
          options: [{ label: 'Unit' }, { label: 'Lint' }, { label: 'E2E' }],
          recommended: ['Lint', 'E2E'],
          multiSelect: true,
          isBlocking: true,
        },
      ],
    });
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^ask-later parked these questions as the set #1 \(#1\.1 Format, #1\.2 Checks\) for the person, in the web inbox/,
    );
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('carry on with the rest of your work');
  });

  it('GIVEN one question answered later THEN the delivery names it as asked with AskUserQuestion, with its header, in the text and the structured content', async () => {
    const { store, project, client } = await setUp();
    await call(client, askFields(ONE_QUESTION));
    const [parked] = await store.list(project);
    expect(parked).toMatchObject({ question: 'Which format should the export use?', origin: { header: 'Format' } });
    await store.answer(project, 1, { choices: ['CSV'], other: false }, person());

    const collected = await client.callTool({ name: 'collect_answers', arguments: {} });
    expect(textOf(collected)).toContain('You asked this with AskUserQuestion (header "Format"); ask-later parked it');
    const structured = collected.structuredContent as StructuredResult;
    expect(structured.questions[0]).toMatchObject({
      askedWith: 'AskUserQuestion',
      items: [{ header: 'Format', answer: { labels: ['CSV'] } }],
    });
  });

  it('GIVEN questions ask_later would refuse (seven options, a control character) THEN nothing is parked and the dialog is left to Claude Code, telling the model and the person why', async () => {
    const { store, project, client } = await setUp();
    const seven = {
      questions: [
        {
          question: 'Which one?',
          header: 'Pick',
          options: Array.from({ length: 7 }, (_, i) => ({ label: `Option ${i + 1}`, description: 'd' })),
          multiSelect: false,
        },
      ],
    };
    const control = { questions: [{ ...ONE_QUESTION.questions[0], question: 'Which\u0007 format?' }] };
    for (const [input, why] of [
      [seven, /`options`.* 6/],
      [control, /control character U\+0007/],
    ] as const) {
      const answer = await call(client, askFields(input));
      expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
      expect(answer.hookSpecificOutput.additionalContext).toMatch(
        /^ask-later did not park this question \(it breaks ask-later's rules: .*\), so it is asked in the terminal as usual\.$/,
      );
      expect(answer.hookSpecificOutput.additionalContext).toMatch(why);
      expect(answer.systemMessage).toMatch(/^ask-later did not park this question: it breaks ask-later's rules/);
    }
    expect(await store.list(project)).toEqual([]);
  });

  it('GIVEN the terminal mode THEN the call goes to Claude Code’s dialog untouched and nothing is parked', async () => {
    const { store, project, client } = await setUp({ kind: 'terminal' });
    const result = await client.callTool({ name: 'capture_question', arguments: askFields(TWO_QUESTIONS) });
    expect(textOf(result)).toBe('{}');
    expect(await store.list(project)).toEqual([]);
  });

  it('GIVEN the store down THEN the dialog is left to Claude Code, saying the inbox does not answer', async () => {
    const { client } = await setUp({ kind: 'park' }, () => Promise.reject(new StoreUnavailableError()));
    const answer = await call(client, askFields(TWO_QUESTIONS));
    expect(answer.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      additionalContext:
        "ask-later did not park this question (ask-later's inbox does not answer right now), so it is asked in the terminal as usual.",
    });
  });

  it('GIVEN wait mode and an answer while the call waits THEN the tool is allowed with the answers by question text (the model’s own labels), delivered once as the tool’s result', async () => {
    const { store, project, client } = await setUp({ kind: 'wait', seconds: 60 });
    const pending = call(client, askFields(TWO_QUESTIONS));
    await expect.poll(async () => (await store.list(project)).map((q) => q.status)).toEqual(['pending']);
    await store.answer(
      project,
      1,
      {
        members: [
          { choices: ['CSV'], other: false, notes: 'Keep it plain.' },
          { choices: ['Lint', 'E2E'], other: false },
        ],
      },
      person(),
    );
    const answer = await pending;
    expect(answer.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: {
        questions: TWO_QUESTIONS.questions,
        answers: {
          'Which format should the export use?': 'CSV — notes: Keep it plain.',
          'Which checks should run before the export?': 'Lint (Recommended), E2E (Recommended)',
        },
      },
    });
    await expect.poll(async () => (await store.get(project, 1))?.deliveredVia).toBe('tool-result');
    expect((await store.claimUndelivered(project, { budget: 10_000, leaseMs: 5000 })).questions).toEqual([]);
  });

  it('GIVEN wait mode and no answer in time THEN the tool is denied with the parked id, and the answer given later comes once by the other paths', async () => {
    const { store, project, client } = await setUp({ kind: 'wait', seconds: 1 });
    const answer = await call(client, askFields(ONE_QUESTION));
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^ask-later parked this question as #1 .* It was not answered within 1 s\./,
    );
    await store.answer(project, 1, { choices: [], other: true, notes: 'JSON lines' }, person());
    const first = await client.callTool({ name: 'collect_answers', arguments: {} });
    expect(textOf(first)).toContain('Answer: Other');
    const second = await client.callTool({ name: 'collect_answers', arguments: {} });
    expect((second.structuredContent as StructuredResult).questions).toEqual([]);
  });

  it('GIVEN wait mode and Other with the person’s words THEN the tool’s answer is those words', async () => {
    const { store, project, client } = await setUp({ kind: 'wait', seconds: 60 });
    const pending = call(client, askFields(ONE_QUESTION));
    await expect.poll(async () => (await store.list(project)).length).toBe(1);
    await store.answer(project, 1, { choices: [], other: true, notes: 'JSON lines, gzipped' }, person());
    expect((await pending).hookSpecificOutput.updatedInput?.answers).toEqual({
      'Which format should the export use?': 'JSON lines, gzipped',
    });
  });

  it('GIVEN a tool input that is not JSON or has no questions THEN the dialog is left to Claude Code', async () => {
    const { client } = await setUp();
    for (const toolInput of ['{not json', '{}']) {
      const answer = await call(client, { ...askFields(TWO_QUESTIONS), tool_input: toolInput });
      expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
      expect(answer.hookSpecificOutput.additionalContext).toMatch(
        /^ask-later did not park this question \(the tool input/,
      );
    }
  });

  it('GIVEN fields that are not the hook’s THEN the call is refused as an error naming what was expected', async () => {
    const { client } = await setUp();
    const result = await client.callTool({ name: 'capture_question', arguments: { tool_name: 'AskUserQuestion' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Expected `tool_input` to be a string');
  });

  describe('plans (ExitPlanMode)', () => {
    const planCall = (plan: string, toolUseId: string) => {
      const file = join(scratch, `plans-${toolUseId}`, '.claude', 'plans', 'export-plan.md');
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, plan);
      const write = {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: `w-${toolUseId}`, name: 'Write', input: { file_path: file, content: plan } },
          ],
        },
      };
      const result = {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `w-${toolUseId}` }] },
      };
      return {
        tool_name: 'ExitPlanMode',
        tool_input: '{}',
        tool_use_id: toolUseId,
        transcript_path: transcript(toolUseId, 'ExitPlanMode', {}, [write, result]),
        session_id: 'session-plan',
      };
    };
    const PLAN = '## Plan\n\n1. Write the Parquet exporter.\n2. Keep CSV behind a flag.';

    it('GIVEN a plan THEN it is parked for approval and the call denied; while pending denied again; once approved the same plan’s call goes through, with the notes, delivered once', async () => {
      const { store, project, client } = await setUp();
      const first = await call(client, planCall(PLAN, 'p1'));
      expect(first.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(first.hookSpecificOutput.permissionDecisionReason).toMatch(
        /parked your plan for the person's approval as #1/,
      );
      const [parked] = (await store.list(project)) as Question[];
      expect(parked).toMatchObject({
        context: PLAN,
        question: 'Approve this plan?',
        options: [{ label: 'Approve' }, { label: 'Keep planning' }],
        recommended: ['Approve'],
        isBlocking: true,
        origin: { tool: 'ExitPlanMode' },
      });

      const again = await call(client, planCall(PLAN, 'p2'));
      expect(again.hookSpecificOutput.permissionDecisionReason).toMatch(/has not decided on this plan yet \(#1/);
      expect(await store.list(project)).toHaveLength(1);

      await store.answer(project, 1, { choices: ['Approve'], other: false, notes: 'Ship it behind a flag.' }, person());
      const approved = await call(client, planCall(PLAN, 'p3'));
      expect(approved.hookSpecificOutput).toEqual({
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: {},
        additionalContext: 'ask-later: the person approved the plan (#1). Their notes: "Ship it behind a flag.".',
      });
      await expect.poll(async () => (await store.get(project, 1))?.deliveredVia).toBe('tool-result');
      const later = await call(client, planCall(PLAN, 'p4'));
      expect(later.hookSpecificOutput.permissionDecision).toBe('allow');
      expect(await store.list(project)).toHaveLength(1);
    });

    it('GIVEN Keep planning THEN the same plan is sent back with the notes; a changed plan is parked anew and the older pending one withdrawn', async () => {
      const { store, project, client } = await setUp();
      await call(client, planCall(PLAN, 'k1'));
      await store.answer(project, 1, { choices: ['Keep planning'], other: false, notes: 'Drop CSV.' }, person());
      const back = await call(client, planCall(PLAN, 'k2'));
      expect(back.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(back.hookSpecificOutput.permissionDecisionReason).toContain('keep planning. Their notes: "Drop CSV.".');

      const changed = `${PLAN}\n3. Drop CSV.`;
      await call(client, planCall(changed, 'k3'));
      const newer = `${changed}\n4. Tell the team.`;
      await call(client, planCall(newer, 'k4'));
      expect((await store.list(project)).map((q) => [q.id, q.status])).toEqual([
        [1, 'delivered'],
        [2, 'cancelled'],
        [3, 'pending'],
      ]);
    });
  });
});
