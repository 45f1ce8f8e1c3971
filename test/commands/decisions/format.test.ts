/**
 * The decision trail's formats, golden: the Markdown log (test/commands/decisions/golden/decision-log.md), the JSON records
 * and the CSV, for a blocking single pick with a ticket and Markdown notes, a multi-select answered with options
 * and Other, and an Other-only answer (fixtures.ts).
 */
import { readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  csvField,
  decisionsCsv,
  decisionsJson,
  decisionsMarkdown,
  formatDecisions,
} from '../../../src/commands/decisions/format.js';
import { billing, DECISIONS, ledgerSet, release, webApp } from './fixtures.js';

const SCOPE = { project: '/srv/repos/**', since: Date.UTC(2027, 0, 8) };
const golden = (name: string) => readFileSync(new URL(`golden/${name}`, import.meta.url), 'utf8');

/** The top-level headings of a Markdown document (their source text) as GitHub would read it (raw HTML honoured). */
function outline(markdown: string): string[] {
  const tokens = new MarkdownIt({ html: true }).parse(markdown, {});
  return tokens.flatMap((token, index) =>
    token.type === 'heading_open' && token.level === 0 ? [`${token.tag} ${tokens[index + 1]?.content ?? ''}`] : [],
  );
}

describe('the decision log in Markdown', () => {
  it('GIVEN three decisions THEN the log reads as the golden file', () => {
    expect(decisionsMarkdown(DECISIONS, SCOPE)).toBe(golden('decision-log.md'));
  });

  it('GIVEN notes and context holding headings, lists and an unclosed code fence THEN the log keeps its outline', () => {
    // One h1, then per decision its h2 and exactly the four h3 sections: nothing the agent or the person wrote
    // became a heading of the log or swallowed the sections after it.
    const sections = ['h3 Context', 'h3 Impact', 'h3 Options', 'h3 Answer'];
    expect(outline(decisionsMarkdown(DECISIONS, SCOPE))).toEqual([
      'h1 Decision log',
      'h2 #12 · Which database should billing use? · billing · BILL-42',
      'h3 Context',
      'h4 Constraints',
      ...sections.slice(1),
      'h2 #3 · Which features go into 2.0? · web-app',
      ...sections.slice(0, 2),
      'h3 Options (several could be picked)',
      'h3 Answer',
      'h2 #2 · Ship \\*today\\* or wait for QA? · web-app · <https://linear.app/acme/issue/WEB-7>',
      ...sections,
    ]);
  });

  it('GIVEN multi-line notes THEN every line of them is block-quoted, whatever it starts with', () => {
    const answer = decisionsMarkdown([billing]).split('### Answer\n\n')[1] ?? '';
    const lines = answer.trimEnd().split('\n');
    expect(lines).toEqual([
      '> **Postgres**',
      '>',
      '> We already run it.',
      '>',
      '> ##### Not a heading of the log',
      '> - backups: *nightly*',
      '> ```sh',
      '> pg_dump billing',
    ]);
  });

  it('GIVEN a question answered with Other alone THEN Other is the marked option and the notes say the answer', () => {
    const log = decisionsMarkdown([release]);
    expect(log).toContain('- [ ] Ship today\n- [ ] Wait for QA — one more day (recommended)\n- [x] **Other**\n');
    expect(log).toContain('### Answer\n\n> **Other**\n>\n> Neither: ship behind a flag.\n');
  });

  it('GIVEN a person name with a line break THEN it stays on its line', () => {
    expect(decisionsMarkdown([release])).toContain('by Grace Hopper (`123456789012345678` on Discord)');
  });

  it.each([
    [{}, 'No answered questions.\n'],
    [SCOPE, 'No answered questions (project `/srv/repos/**`, answered since 2027-01-08 00:00 UTC).\n'],
  ])('GIVEN nothing to show and scope %j THEN one line says so', (scope, line) => {
    expect(formatDecisions([], 'md', scope)).toBe(line);
  });
});

describe('the decisions as JSON', () => {
  it('GIVEN three decisions THEN an array of plain records with stable fields and ISO times', () => {
    const text = decisionsJson(DECISIONS);
    const expected = [
      {
        project: '/srv/repos/billing',
        id: 12,
        ticket: 'BILL-42',
        question: 'Which database should billing use?',
        context: 'We are migrating the **billing** service.\n\n# Constraints\n\n- must keep invoices\n- no downtime',
        impact: 'Decides the migration scripts.',
        blocking: true,
        multiSelect: false,
        options: [
          { label: 'Postgres', description: 'What the team knows', recommended: true, chosen: true, value: 'Postgres' },
          { label: 'SQLite', description: null, recommended: false, chosen: false, value: 'SQLite' },
        ],
        answer: {
          text: 'Postgres',
          choices: ['Postgres'],
          other: false,
          notes: 'We already run it.\r\n\r\n## Not a heading of the log\n- backups: *nightly*\n```sh\npg_dump billing',
          values: ['Postgres'],
          optionNotes: [],
        },
        answeredBy: { displayName: 'Ada Lovelace', userId: 'U0123ABCD', platform: 'slack' },
        postedTo: [
          { platform: 'slack', channel: 'C0123ABCD', messageId: '1800000000.000100' },
          { platform: 'web', channel: 'local', messageId: 'web-12' },
        ],
        askedAt: '2027-01-15T08:00:00.000Z',
        answeredAt: '2027-01-15T08:42:00.000Z',
        deliveredAt: '2027-01-15T08:43:00.000Z',
        deliveredVia: 'prompt',
        status: 'delivered',
        ref: '#12',
        topic: null,
      },
      {
        project: '/srv/repos/web-app',
        id: 3,
        ticket: null,
        question: 'Which features go into 2.0?',
        context: 'Users asked for both.\n\n```json\n{"flags": ["dark", "offline"]',
        impact: '- ships in March\n- the rest waits for 2.1',
        blocking: false,
        multiSelect: true,
        options: [
          { label: 'Dark mode', description: null, recommended: false, chosen: true, value: 'Dark mode' },
          {
            label: 'Offline, with sync',
            description: null,
            recommended: false,
            chosen: true,
            value: 'Offline, with sync',
          },
          {
            label: 'Say "hi" on start',
            description: null,
            recommended: false,
            chosen: false,
            value: 'Say "hi" on start',
          },
        ],
        answer: {
          text: 'Dark mode, Offline, with sync, Other',
          choices: ['Dark mode', 'Offline, with sync'],
          other: true,
          notes: '=1+1, "quoted"\nand a second line',
          values: ['Dark mode', 'Offline, with sync'],
          optionNotes: [],
        },
        answeredBy: { displayName: 'me', userId: 'local', platform: 'web' },
        postedTo: [{ platform: 'web', channel: 'local', messageId: 'web-3' }],
        askedAt: '2027-01-15T06:00:00.000Z',
        answeredAt: '2027-01-15T07:30:00.000Z',
        deliveredAt: null,
        deliveredVia: null,
        status: 'answered',
        ref: '#3',
        topic: null,
      },
      {
        project: '/srv/repos/web-app',
        id: 2,
        ticket: 'https://linear.app/acme/issue/WEB-7',
        question: 'Ship *today* or wait for QA?',
        context: 'QA found one flaky test.',
        impact: 'A day of delay.',
        blocking: true,
        multiSelect: false,
        options: [
          { label: 'Ship today', description: null, recommended: false, chosen: false, value: 'Ship today' },
          { label: 'Wait for QA', description: 'one more day', recommended: true, chosen: false, value: 'Wait for QA' },
        ],
        answer: {
          text: 'Other',
          choices: [],
          other: true,
          notes: 'Neither: ship behind a flag.',
          values: [],
          optionNotes: [],
        },
        answeredBy: { displayName: 'Grace\nHopper', userId: '123456789012345678', platform: 'discord' },
        postedTo: [{ platform: 'discord', channel: '223456789012345678', messageId: '323456789012345678' }],
        askedAt: '2027-01-15T03:00:00.000Z',
        answeredAt: '2027-01-15T04:40:00.000Z',
        deliveredAt: '2027-01-15T04:41:00.000Z',
        deliveredVia: 'wake',
        status: 'delivered',
        ref: '#2',
        topic: null,
      },
    ];
    expect(JSON.parse(text)).toEqual(expected);
    // Byte for byte: two-space indentation, the fields in this order, a final line break.
    expect(text).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('GIVEN nothing to show THEN []', () => {
    expect(formatDecisions([], 'json')).toBe('[]\n');
  });
});

describe('the decisions as CSV', () => {
  const HEADER =
    'project,id,ticket,question,context,impact,blocking,multiSelect,options,recommended,answer,choices,other,notes,' +
    'answeredBy,answeredById,answeredOn,postedTo,askedAt,answeredAt,deliveredAt,deliveredVia,status,ref,topic,' +
    'values,optionNotes';

  it('GIVEN three decisions THEN RFC 4180: a header, one CRLF-ended record each, fields quoted where they must be', () => {
    const records = [
      // Line breaks inside a field stay as the text has them (the CRLFs in the notes are the person's).
      '/srv/repos/billing,12,BILL-42,Which database should billing use?,' +
        '"We are migrating the **billing** service.\n\n# Constraints\n\n- must keep invoices\n- no downtime",' +
        'Decides the migration scripts.,true,false,"Postgres\nSQLite",Postgres,Postgres,Postgres,false,' +
        '"We already run it.\r\n\r\n## Not a heading of the log\n- backups: *nightly*\n```sh\npg_dump billing",' +
        'Ada Lovelace,U0123ABCD,slack,"slack:C0123ABCD\nweb:local",' +
        '2027-01-15T08:00:00.000Z,2027-01-15T08:42:00.000Z,2027-01-15T08:43:00.000Z,prompt,delivered,#12,,Postgres,',
      // Quotes doubled; a comma quotes the field; fields starting with - or = get the formula guard.
      '/srv/repos/web-app,3,,Which features go into 2.0?,' +
        '"Users asked for both.\n\n```json\n{""flags"": [""dark"", ""offline""]",' +
        `"'- ships in March\n- the rest waits for 2.1",false,true,` +
        '"Dark mode\nOffline, with sync\nSay ""hi"" on start",,"Dark mode, Offline, with sync, Other",' +
        '"Dark mode\nOffline, with sync\nOther",true,' +
        `"'=1+1, ""quoted""\nand a second line",me,local,web,web:local,` +
        '2027-01-15T06:00:00.000Z,2027-01-15T07:30:00.000Z,,,answered,#3,,"Dark mode\nOffline, with sync",',
      '/srv/repos/web-app,2,https://linear.app/acme/issue/WEB-7,Ship *today* or wait for QA?,' +
        'QA found one flaky test.,A day of delay.,true,false,"Ship today\nWait for QA",Wait for QA,Other,Other,true,' +
        'Neither: ship behind a flag.,"Grace\nHopper",123456789012345678,discord,discord:223456789012345678,' +
        '2027-01-15T03:00:00.000Z,2027-01-15T04:40:00.000Z,2027-01-15T04:41:00.000Z,wake,delivered,#2,,,',
    ];
    expect(decisionsCsv(DECISIONS)).toBe([HEADER, ...records].map((line) => `${line}\r\n`).join(''));
    expect(CSV_COLUMNS.join(',')).toBe(HEADER);
  });

  it('GIVEN nothing to show THEN the header row alone', () => {
    expect(formatDecisions([], 'csv')).toBe(`${HEADER}\r\n`);
  });

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://x", "y")', `"'=HYPERLINK(""http://x"", ""y"")"`],
    ['', ''],
  ])('GIVEN the field %j THEN it is written %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it('GIVEN the CSV read back by an RFC 4180 reader THEN every field comes back (guarded ones with their quote mark)', () => {
    const rows = parseCsv(decisionsCsv([webApp]));
    expect(rows).toHaveLength(2);
    const record = Object.fromEntries(CSV_COLUMNS.map((column, index) => [column, rows[1]?.[index]]));
    expect(record.notes).toBe(`'=1+1, "quoted"\nand a second line`);
    expect(record.options).toBe('Dark mode\nOffline, with sync\nSay "hi" on start');
    expect(record.choices).toBe('Dark mode\nOffline, with sync\nOther');
    expect(record.other).toBe('true');
  });
});

/** A small RFC 4180 reader (records end with CRLF; quoted fields may hold anything). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

describe('texts that would open a block over the rest of the log', () => {
  it.each([
    ['an HTML comment never closed', 'Before.\n\n<!-- hidden from here on'],
    ['a <script> block', '<script>\nalert(1)'],
    ['a code fence never closed', '~~~\ncode'],
  ])('GIVEN a context with %s THEN it is block-quoted and the sections after it stay sections', (_what, context) => {
    const log = decisionsMarkdown([{ ...release, context, impact: context }]);
    expect(outline(log)).toEqual([
      'h1 Decision log',
      'h2 #2 · Ship \\*today\\* or wait for QA? · web-app · <https://linear.app/acme/issue/WEB-7>',
      'h3 Context',
      'h3 Impact',
      'h3 Options',
      'h3 Answer',
    ]);
    expect(log).toContain(
      `### Context\n\n${context
        .split('\n')
        .map((line) => (line === '' ? '>' : `> ${line}`))
        .join('\n')}\n\n### Impact`,
    );
  });
});

describe('a set of questions answered together', () => {
  it('GIVEN a set THEN the log has one section with a heading per member, notes per option nested under theirs', () => {
    const log = decisionsMarkdown([ledgerSet]);
    expect(outline(log)).toEqual([
      'h1 Decision log',
      'h2 #14 · Set: Database · Caches · Naming · billing · BILL-50',
      'h3 Context',
      'h3 Impact',
      'h3 #14.1 · Database (blocking)',
      'h4 Options',
      'h4 Answer',
      'h3 #14.2 · Caches',
      'h4 Context',
      'h4 Options (several could be picked)',
      'h4 Answer',
      'h3 #14.3 · Naming',
      'h4 Impact',
      'h4 Options',
      'h4 Answer',
    ]);
    expect(log).toContain('- [x] **Redis** — Shared (recommended)\n- [x] **In-process** (recommended)\n- [ ] None\n');
    expect(log).toContain(
      '#### Answer\n\n> **Redis**, **In-process**\n>\n> - Redis:\n>   > Only for prices.\n>   > ##### not a heading\n>   > ```\n',
    );
    expect(log).toContain('#### Answer\n\n> **Other**\n>\n> Call it "books"\n');
  });

  it('GIVEN a set THEN JSON and CSV hold one record per member, sharing the id, with refs, topics and values', () => {
    const records = JSON.parse(decisionsJson([ledgerSet])) as Record<string, unknown>[];
    expect(records.map((record) => [record.id, record.ref, record.topic, record.question])).toEqual([
      [14, '#14.1', 'Database', 'Which database for the ledger?'],
      [14, '#14.2', 'Caches', 'Which caches may it use?'],
      [14, '#14.3', 'Naming', 'What do we call it?'],
    ]);
    expect(records[0]).toMatchObject({ blocking: true, answer: { choices: ['Postgres'], values: ['pg'] } });
    expect(records[1]).toMatchObject({
      context: 'Splitting the ledger out of billing.\n\nPrices are read on every request.',
      blocking: false,
      multiSelect: true,
      answer: {
        choices: ['Redis', 'In-process'],
        values: ['Redis', 'In-process'],
        optionNotes: [{ choice: 'Redis', notes: 'Only for prices.\n## not a heading\n```' }],
      },
    });
    expect(records[2]).toMatchObject({
      impact: 'Decides the first milestone.\n\nThe name goes into every dashboard.',
      answer: { text: 'Other', other: true, notes: 'Call it "books"' },
    });
    const rows = parseCsv(decisionsCsv([ledgerSet]));
    expect(rows).toHaveLength(4);
    const row = (index: number) => Object.fromEntries(CSV_COLUMNS.map((column, i) => [column, rows[index]?.[i]]));
    expect([row(1).ref, row(2).ref, row(3).ref]).toEqual(['#14.1', '#14.2', '#14.3']);
    expect(row(1).values).toBe('pg');
    expect(row(2).recommended).toBe('Redis\nIn-process');
    expect(row(2).optionNotes).toBe('Redis: Only for prices.\n## not a heading\n```');
  });
});
