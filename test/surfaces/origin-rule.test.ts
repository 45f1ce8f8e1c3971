/** The one Host / Origin rule of serve's entry points, as a pure function of the headers. */
import { describe, expect, it } from 'vitest';
import { HOST_REFUSED, ORIGIN_REFUSED, originRule } from '../../src/surfaces/origin-rule.js';

describe('the Host and Origin rule', () => {
  const local = originRule();
  const shared = originRule({ publicUrl: 'https://ask-later.example.com' });

  it.each([
    'localhost',
    'localhost:7420',
    'LOCALHOST:7420',
    '127.0.0.1',
    '127.0.0.1:7420',
    '127.8.9.10:1',
    '[::1]:7420',
    '10.0.0.5:7420',
    '[fd00::5]:7420',
  ])('GIVEN Host %s THEN it is answered without a public URL', (host) => {
    expect(local.refusal({ host })).toBeUndefined();
  });

  it.each([
    'evil.example.com',
    'evil.example.com:7420',
    '127.0.0.1.evil.example',
    'localhost.evil.example:80',
    'ask-later.example.com',
    '[not-an-address]:7420',
    '',
    undefined,
  ])('GIVEN Host %s and no public URL THEN it is refused, saying what to set', (host) => {
    expect(local.refusal({ host })).toBe(HOST_REFUSED);
    expect(HOST_REFUSED).toContain('ASK_LATER_PUBLIC_URL');
  });

  it('GIVEN a public URL THEN its host is answered on any port and in any case; other names still are not', () => {
    expect(shared.refusal({ host: 'ask-later.example.com' })).toBeUndefined();
    expect(shared.refusal({ host: 'Ask-Later.Example.com:443' })).toBeUndefined();
    expect(shared.refusal({ host: 'example.com' })).toBe(HOST_REFUSED);
    expect(shared.refusal({ host: 'ask-later.example.com.evil.example' })).toBe(HOST_REFUSED);
  });

  it.each([
    ['a loopback page on another port', '127.0.0.1:7420', 'http://localhost:6274'],
    ['serve’s own page', '10.0.0.5:7420', 'http://10.0.0.5:7420'],
    ['serve’s own page over https', '127.0.0.1:7420', 'https://127.0.0.1:7420'],
    ['an IPv6 loopback page', '[::1]:7420', 'http://[::1]:3000'],
  ])('GIVEN an Origin of %s THEN it may call', (_what, host, origin) => {
    expect(local.refusal({ host, origin })).toBeUndefined();
  });

  it.each([
    ['another site', '127.0.0.1:7420', 'http://evil.example.com'],
    ['another site served by address', '127.0.0.1:7420', 'http://203.0.113.9'],
    ['the rebinding site itself', '127.0.0.1:7420', 'http://evil.example.com:7420'],
    ['an opaque origin', '127.0.0.1:7420', 'null'],
    ['not http', '127.0.0.1:7420', 'file://'],
    ['another port of the same address', '10.0.0.5:7420', 'http://10.0.0.5:8080'],
  ])('GIVEN an Origin of %s THEN it is refused', (_what, host, origin) => {
    expect(local.refusal({ host, origin })).toBe(ORIGIN_REFUSED);
  });

  it('GIVEN a public URL THEN a page of exactly its origin may call from anywhere serve answers; a look-alike may not', () => {
    expect(shared.refusal({ host: 'ask-later.example.com', origin: 'https://ask-later.example.com' })).toBeUndefined();
    expect(shared.refusal({ host: '127.0.0.1:7420', origin: 'https://ask-later.example.com' })).toBeUndefined();
    expect(shared.refusal({ host: 'ask-later.example.com', origin: 'http://ask-later.example.com:8080' })).toBe(
      ORIGIN_REFUSED,
    );
    expect(
      shared.refusal({ host: 'ask-later.example.com', origin: 'https://ask-later.example.com.evil.example' }),
    ).toBe(ORIGIN_REFUSED);
  });
});
