import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_CHOICES,
  type ApprovalBinding,
  approvalDecision,
  approvalQuestion,
  bindsTo,
  canonicalJson,
  inputHash,
} from '../../src/core/approval.js';
import { parseAskInput } from '../../src/core/ask-input.js';
import { renderDeliveryEntry } from '../../src/core/delivery-note.js';
import type { Question } from '../../src/core/question.js';

const binding = fc.record({
  agent: fc.constantFrom('claude-code' as const, 'codex' as const, 'opencode' as const),
  tool: fc.constantFrom('Bash', 'Edit', 'Write', 'mcp__github__create_issue'),
  input: fc.jsonValue().map(inputHash),
  session: fc.constantFrom('s-1', 's-2', 'a3c1'),
});

function approvalQuestionRecord(choice: string, notes?: string): Question {
  const parsed = parseAskInput(
    approvalQuestion(
      { tool: 'Bash', input: { command: 'npm publish' }, said: 'Publishing now.', cwd: '/w/shop', session: 's-1' },
      'Bash(npm publish)',
    ),
  );
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  const { waitSeconds: _none, ...spec } = parsed.value;
  return {
    ...spec,
    members: undefined,
    origin: {
      tool: 'PermissionRequest',
      approval: {
        agent: 'claude-code',
        tool: 'Bash',
        input: inputHash({ command: 'npm publish' }),
        session: 's-1',
        rule: 'Bash(npm publish)',
      },
    },
    project: 'shop',
    id: 4,
    status: 'answered',
    createdAt: 1,
    messages: [],
    answer: {
      choices: [choice],
      other: false,
      ...(notes === undefined ? {} : { notes }),
      by: { platform: 'web', userId: 'u1', displayName: 'Ann' },
      at: 2,
    },
  } as Question;
}

describe('approval binding', () => {
  it('GIVEN two tool calls THEN an answer binds to the second exactly when agent, tool, input and session are all the same', () => {
    fc.assert(
      fc.property(binding, binding, (asked, made) => {
        const same =
          asked.agent === made.agent &&
          asked.tool === made.tool &&
          asked.input === made.input &&
          asked.session === made.session;
        expect(bindsTo(asked, made)).toBe(same);
        expect(bindsTo(asked, { ...asked } as ApprovalBinding)).toBe(true);
      }),
    );
  });

  it('GIVEN the same input with its keys in another order THEN it hashes the same, and any changed value hashes differently', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().map((key) => `k${key}`),
          fc.jsonValue(),
        ),
        fc.string(),
        (input, extra) => {
          const reversed = Object.fromEntries(Object.entries(input).reverse());
          expect(inputHash(reversed)).toBe(inputHash(input));
          const changed = { ...input, [`!${extra}`]: 'x' };
          expect(inputHash(changed)).not.toBe(inputHash(input));
        },
      ),
    );
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
});

describe('the approval card', () => {
  it('GIVEN any Bash command, file edit or MCP call THEN the approval parks as a valid blocking question with the four options and none recommended', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ tool: fc.constant('Bash'), input: fc.record({ command: fc.string({ maxLength: 6000 }) }) }),
          fc.record({
            tool: fc.constant('Edit'),
            input: fc.record({
              file_path: fc.string({ maxLength: 600 }),
              old_string: fc.string({ maxLength: 5000 }),
              new_string: fc.string({ maxLength: 5000 }),
            }),
          }),
          fc.record({ tool: fc.constant('mcp__x__y'), input: fc.dictionary(fc.string(), fc.jsonValue()) }),
        ),
        fc.string({ maxLength: 4000 }),
        fc.string({ maxLength: 500 }),
        fc.option(fc.string({ maxLength: 3000 }), { nil: undefined }),
        (call, said, cwd, rule) => {
          const parsed = parseAskInput(approvalQuestion({ ...call, said, cwd: `/w/${cwd}`, session: 's-1' }, rule));
          if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
          expect(parsed.value.members).toBeUndefined();
          if (parsed.value.members === undefined) {
            expect(parsed.value.options.map((option) => option.label)).toEqual(Object.values(APPROVAL_CHOICES));
            expect(parsed.value.recommended ?? []).toEqual([]);
            expect(parsed.value.isBlocking).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('GIVEN a Bash call THEN the card shows the command in a code block, the agent’s words, the rule and the working directory', () => {
    const asked = approvalQuestion(
      { tool: 'Bash', input: { command: 'npm publish' }, said: 'Publishing now.', cwd: '/w/shop', session: 's-1' },
      'Bash(npm publish)',
    );
    expect(asked.question).toBe('Allow: Run `npm publish`?');
    expect(asked.context).toContain('```\nnpm publish\n```');
    expect(asked.context).toContain('> Publishing now.');
    expect(asked.context).toContain('Always allow adds the rule `Bash(npm publish)`');
    expect(asked.context).toContain('`/w/shop`');
  });
});

describe('the decision', () => {
  it('GIVEN an answered approval THEN its decision is the option picked, with the notes', () => {
    expect(approvalDecision(approvalQuestionRecord('Allow once'))).toEqual({ choice: 'once', notes: '' });
    expect(approvalDecision(approvalQuestionRecord('Deny', ' use the dry run '))).toEqual({
      choice: 'deny',
      notes: 'use the dry run',
    });
    expect(approvalDecision(approvalQuestionRecord('Maybe'))).toBeUndefined();
  });

  it('GIVEN a decided approval THEN its delivery says what was decided on which call, with the notes', () => {
    const denied = renderDeliveryEntry(approvalQuestionRecord('Deny', 'use the dry run'));
    expect(denied).toContain('Question: Allow: Run `npm publish`?');
    expect(denied).toContain('The person denied it');
    expect(denied).toContain('> use the dry run');
    const allowed = renderDeliveryEntry(approvalQuestionRecord('Always allow'));
    expect(allowed).toContain('allowed it always (the rule Bash(npm publish) is added)');
  });
});
