/**
 * Project names holding control characters (issue 36: a token for `acme/*` could park into `acme/\e]0;…\a`, which
 * retitled the person's terminal): refused where a name comes from the environment, and shown as escapes wherever
 * one already stored is printed to a terminal (the inbox's cards and `--list`) or a CSV.
 */
import { describe, expect, it } from 'vitest';
import { decisionsCsv, formatDecisions } from '../../src/commands/decisions/format.js';
import { ConfigError } from '../../src/config/config-error.js';
import { projectFromEnvironment } from '../../src/config/project.js';
import type { InboxPage } from '../../src/core/inbox.js';
import { escapeControls, projectNameProblem } from '../../src/core/project.js';
import type { Question } from '../../src/core/question.js';
import { cardLines } from '../../src/render/terminal/card.js';
import { inboxListText } from '../../src/render/terminal/list.js';
import { plain } from '../../src/render/terminal/style.js';
import { billing } from '../commands/decisions/fixtures.js';
import { spec } from '../support/store.js';

const HOSTILE = 'acme/\u001b]0;owned\u0007shop';
/** Any C0 or C1 control, DEL, or a bidirectional override: what must never reach a terminal raw. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function question(project: string): Question {
  return { ...spec(), project, id: 7, status: 'pending', createdAt: Date.UTC(2027, 0, 1), messages: [] } as Question;
}

describe('control characters in project names', () => {
  it.each([
    ['\u001b]0;x\u0007', 'U+001B at position 1'],
    ['acme/\u0007', 'U+0007 at position 6'],
    ['acme/\u009b2J', 'U+009B at position 6'],
    ['acme/\u202eevil', 'U+202E at position 6'],
    ['acme/line\nbreak', 'U+000A at position 10'],
  ])('GIVEN the name %j THEN it is refused, naming the character and where', (name, where) => {
    expect(projectNameProblem(name)).toBe(`a project name may not hold control characters (${where})`);
  });

  it('GIVEN ordinary names (paths, spaces, accents, emoji) THEN they are accepted', () => {
    for (const name of ['/srv/repos/shop', 'team/my project', 'équipe/café', 'acme/🚀', 'C:\\src\\shop']) {
      expect(projectNameProblem(name)).toBeUndefined();
    }
  });

  it('GIVEN ASK_LATER_PROJECT or the project directory holding control characters THEN a ConfigError naming where', () => {
    expect(() => projectFromEnvironment({ ASK_LATER_PROJECT: HOSTILE }, '/tmp')).toThrow(ConfigError);
    expect(() => projectFromEnvironment({ ASK_LATER_PROJECT: HOSTILE }, '/tmp')).toThrow(
      'a project name may not hold control characters (U+001B at position 6), from ASK_LATER_PROJECT: set ASK_LATER_PROJECT to a name without them',
    );
    expect(() => projectFromEnvironment({ CLAUDE_PROJECT_DIR: '/tmp/no-such-\u001b[2J' }, '/tmp')).toThrow(
      /from the project directory/,
    );
    expect(projectFromEnvironment({ ASK_LATER_PROJECT: 'acme/shop' }, '/tmp')).toBe('acme/shop');
  });

  it('GIVEN text with controls THEN escapeControls shows each as an escape, keeping only what it is told to', () => {
    expect(escapeControls(HOSTILE)).toBe('acme/\\x1b]0;owned\\x07shop');
    expect(escapeControls('a\u202eb\u0085c')).toBe('a\\u202eb\\x85c');
    expect(escapeControls('one\ntwo', new Set(['\n']))).toBe('one\ntwo');
    expect(escapeControls('plain /srv/repos/shop')).toBe('plain /srv/repos/shop');
  });

  it('GIVEN a question stored under such a name THEN `inbox --list` and the terminal card print it escaped', () => {
    const stored = question(HOSTILE);
    const page: InboxPage = {
      filter: 'all',
      counts: { all: 1, blocking: 0, 'non-blocking': 1 },
      offset: 0,
      remaining: 0,
      items: [{ question: stored }],
    };
    const listed = inboxListText(page);
    expect(listed).not.toMatch(RAW_CONTROL);
    expect(listed).toContain('\\x1b]0;owned\\x07shop');
    const card = cardLines({ question: stored }, 80).join('\n');
    // The card's own styles are SGR sequences; nothing else may be an escape.
    expect(plain(card)).not.toMatch(RAW_CONTROL);
    expect(card).toContain('\\x1b]0;owned\\x07shop');
  });

  it('GIVEN a decision stored under such a name THEN the CSV and the Markdown log print it escaped', () => {
    const decision = { ...billing, project: HOSTILE };
    const csv = decisionsCsv([decision]);
    // RFC 4180 ends each record with CRLF: that is the file's structure, not a name's.
    expect(csv.replaceAll('\r\n', '\n')).not.toMatch(RAW_CONTROL);
    expect(csv).toContain('acme/\\x1b]0;owned\\x07shop');
    const markdown = formatDecisions([decision], 'md');
    expect(markdown).not.toMatch(RAW_CONTROL);
  });
});
