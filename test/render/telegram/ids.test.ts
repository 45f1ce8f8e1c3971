import { describe, expect, it } from 'vitest';
import { type CallbackData, formatCallbackData, parseCallbackData } from '../../../src/render/telegram/ids.js';
import { callbackBytes } from '../../../src/render/telegram/limits.js';

const REF = 'AbCdEfGhIjKlMn_-.999999999';

describe('callback data', () => {
  const all: CallbackData[] = [
    { kind: 'pick', ref: REF, option: 5 },
    { kind: 'pick', ref: REF, member: 3, option: 0 },
    { kind: 'other', ref: REF },
    { kind: 'other', ref: REF, member: 1 },
    { kind: 'notes', ref: REF },
    { kind: 'notes', ref: REF, member: 2, option: 4 },
    { kind: 'member', ref: REF, member: 3 },
    { kind: 'send', ref: REF },
    { kind: 'send-yes', ref: REF, check: 'Ab-_9xYz' },
    { kind: 'remove', ref: REF },
    { kind: 'remove-yes', ref: REF },
    { kind: 'remove-no', ref: REF },
    { kind: 'inbox', inbox: { filter: 'non-blocking', after: REF } },
    { kind: 'inbox', inbox: { filter: 'all' } },
    { kind: 'inbox-send', inbox: { filter: 'blocking', after: REF } },
    { kind: 'inbox-open', ref: REF },
  ];

  it.each(all)('GIVEN %j THEN it reads back as itself within 64 bytes', (value) => {
    const data = formatCallbackData(value);
    expect(callbackBytes(data)).toBeLessThanOrEqual(64);
    expect(parseCallbackData(data)).toEqual(value);
  });

  it.each([
    undefined,
    42,
    '',
    'p:notaref:-:1',
    `p:${REF}:-`,
    `p:${REF}:7x:1`,
    `s:${REF}:extra`,
    `y:${REF}:short`,
    'q:z',
    `q:a:${REF}:more`,
    'zz:AbCdEfGhIjKlMn_-.1',
    'x'.repeat(65),
  ])('GIVEN %j THEN it is not ours', (data) => {
    expect(parseCallbackData(data)).toBeUndefined();
  });
});
