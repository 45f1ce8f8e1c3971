import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/core/duration.js';
import { type AnsweredTimes, timeToAnswerByDay } from '../../../src/core/time-to-answer.js';
import { renderTimeToAnswerChart, timeAxis } from '../../../src/render/web/chart.js';
import { assertWellFormed } from './well-formed.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Wednesday 20 January 2027, 15:00 UTC. */
const NOW = Date.UTC(2027, 0, 20, 15, 0);

function answered(daysAgo: number, waited: number, isBlocking: boolean): AnsweredTimes {
  const at = NOW - daysAgo * DAY - HOUR;
  return { createdAt: at - waited, isBlocking, answer: { at } };
}

const WEEK = timeToAnswerByDay(
  [
    answered(0, 10 * MIN, true),
    answered(0, 30 * MIN, true),
    answered(0, 2 * HOUR, false),
    answered(2, 50 * MIN, true),
    answered(6, 5 * MIN, false),
  ],
  { now: NOW, timeZone: 'UTC' },
);

const svgOf = (markup: string) => /<svg[\s\S]*<\/svg>/.exec(markup)?.[0] ?? '';

describe('the time-to-answer chart', () => {
  it('GIVEN markup that is not well-formed THEN the check used below says so', () => {
    expect(() => assertWellFormed('<svg><g></svg>')).toThrow('</svg> at 8 closes <g>');
    expect(() => assertWellFormed('<svg><text>a < b</text></svg>')).toThrow('a bare < or >');
    expect(() => assertWellFormed('<svg x=1/>')).toThrow('malformed tag');
    expect(() => assertWellFormed('<p title="a" title="b"></p>')).toThrow('repeated attribute');
    expect(() => assertWellFormed('<p>R&D</p>')).toThrow('a bare &');
    expect(() => assertWellFormed('<svg><g>')).toThrow('unclosed: svg > g');
  });

  it('GIVEN a week with both kinds THEN the SVG is well-formed, inline, and draws each kind’s bar on the days it was answered', () => {
    const markup = renderTimeToAnswerChart(WEEK).toString();
    assertWellFormed(markup);
    const svg = svgOf(markup);
    expect(svg).toMatch(/^<svg class="chart" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 640 240"/);
    // Nothing fetched, nothing run: no script, no image, no link, no external reference.
    expect(markup).not.toMatch(/<script|<img|<image|<use|<a |href=|url\(|<foreignObject|style=/i);
    const bars = [...svg.matchAll(/<g class="chart-day chart-(\w+)" data-kind="\w+" data-date="([\d-]+)">/g)].map(
      (match) => `${match[2]} ${match[1]}`,
    );
    expect(bars).toEqual(['2027-01-14 canWait', '2027-01-18 blocking', '2027-01-20 blocking', '2027-01-20 canWait']);
    expect(svg.match(/<rect class="bar bar-blocking"/g)).toHaveLength(2);
    expect(svg.match(/<rect class="bar bar-canWait"/g)).toHaveLength(2);
    // Each bar's tooltip says its day and figures.
    expect(svg).toContain('<title>Blocking, Wed 20 Jan: median 10 min, p90 30 min (2 answered)</title>');
    expect(svg).toContain('<title>Can wait, Thu 14 Jan: median 5 min, p90 5 min (1 answered)</title>');
  });

  it('GIVEN days nobody answered THEN they are drawn as such, and every day has its label', () => {
    const svg = svgOf(renderTimeToAnswerChart(WEEK).toString());
    const slots = [...svg.matchAll(/<g class="chart-slot" data-date="([\d-]+)">([\s\S]*?)<\/text><\/g>/g)];
    expect(slots.map((slot) => slot[1])).toEqual(WEEK.days.map((day) => day.date));
    const empty = slots.filter((slot) => slot[2]?.includes('>no answers</text>')).map((slot) => slot[1]);
    expect(empty).toEqual(['2027-01-15', '2027-01-16', '2027-01-17', '2027-01-19']);
    expect(svg).toContain('>Thu 14</text>');
    expect(svg).toContain('>Wed 20</text>');
  });

  it('GIVEN the figures THEN the median and p90 of each kind are stated as text, in the SVG’s title and desc, and in a hidden table', () => {
    const markup = renderTimeToAnswerChart(WEEK).toString();
    const blocking = 'Blocking: median 30 min, p90 50 min (3 answered)';
    const canWait = 'Can wait: median 5 min, p90 2 h (2 answered)';
    expect(markup).toContain(`</span>${blocking}</li>`);
    expect(markup).toContain(`</span>${canWait}</li>`);
    expect(markup).toContain('role="img" aria-labelledby="tta-title tta-desc"');
    expect(markup).toContain('<title id="tta-title">Time to answer per day, last 7 days</title>');
    expect(markup).toContain(`<desc id="tta-desc">${blocking}. ${canWait}.`);
    const table = /<div class="visually-hidden"><table>[\s\S]*<\/table><\/div>/.exec(markup)?.[0] ?? '';
    expect(table.match(/<tr><th scope="row">/g)).toHaveLength(7);
    expect(table).toContain(
      '<tr><th scope="row">Wed 20 Jan</th><td>median 10 min, p90 30 min (2 answered)</td><td>median 2 h, p90 2 h (1 answered)</td></tr>',
    );
    expect(table).toContain('<tr><th scope="row">Fri 15 Jan</th><td>no answers</td><td>no answers</td></tr>');
  });

  it('GIVEN a bar THEN its height is the median and its line reaches the p90 on one shared time axis', () => {
    const svg = svgOf(renderTimeToAnswerChart(WEEK).toString());
    // The tallest p90 is 2 h: the axis runs 0–2 h in 30-minute steps over 186 units (baseline at y = 200).
    expect(timeAxis(2 * HOUR)).toEqual({ top: 2 * HOUR, step: 30 * MIN });
    expect([...svg.matchAll(/>([^<]+)<\/text>/g)].map((m) => m[1]).slice(0, 5)).toEqual([
      '0',
      '30 min',
      '1 h',
      '1 h 30 min',
      '2 h',
    ]);
    const today = /data-kind="blocking" data-date="2027-01-20">[\s\S]*?<\/g>/.exec(svg)?.[0] ?? '';
    // median 10 min → 186 · 10/120 = 15.5 tall; p90 30 min → y = 200 − 46.5.
    expect(today).toMatch(/<rect class="bar bar-blocking" x="[\d.]+" y="184.5" width="22" height="15.5"/);
    expect(today).toContain('y2="153.5"');
  });

  it('GIVEN hostile text in the scope THEN it is escaped, in the heading only', () => {
    const markup = renderTimeToAnswerChart(WEEK, { scope: '<script>alert(1)</script>"&' }).toString();
    assertWellFormed(markup);
    expect(markup).not.toContain('<script>');
    expect(markup).toContain(
      '· <span class="chart-scope">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;</span></h2>',
    );
  });

  it('GIVEN one kind nobody answered all week THEN it reads "no answers" and only the other kind is drawn', () => {
    const week = timeToAnswerByDay([answered(1, 3 * HOUR, false)], { now: NOW, timeZone: 'UTC' });
    const markup = renderTimeToAnswerChart(week).toString();
    assertWellFormed(markup);
    expect(markup).toContain('</span>Blocking: no answers</li>');
    expect(markup).not.toContain('bar-blocking"');
    expect(markup.match(/<rect class="bar bar-canWait"/g)).toHaveLength(1);
  });

  it('GIVEN answers given instantly THEN their bars still show (a minimum height), unlike a day without answers', () => {
    const week = timeToAnswerByDay([answered(0, 0, true)], { now: NOW, timeZone: 'UTC' });
    const svg = svgOf(renderTimeToAnswerChart(week).toString());
    expect(svg).toMatch(/<rect class="bar bar-blocking" x="[\d.]+" y="198" width="22" height="2"/);
  });

  it('GIVEN no answers in the window THEN a plain line and no SVG', () => {
    const markup = renderTimeToAnswerChart(timeToAnswerByDay([], { now: NOW, timeZone: 'UTC' })).toString();
    assertWellFormed(markup);
    expect(markup).not.toContain('<svg');
    expect(markup).toContain('data-answers="0"');
    expect(markup).toContain('<p class="empty chart-empty">No answers in the last 7 days.</p>');
  });

  it.each([
    [0, 10_000, 10_000],
    [50 * MIN, 15 * MIN, 60 * MIN],
    [7 * HOUR, 2 * HOUR, 8 * HOUR],
    [100 * DAY, 28 * DAY, 112 * DAY],
  ])('GIVEN a longest wait of %i ms THEN the axis steps by %i up to %i', (max, step, top) => {
    expect(timeAxis(max)).toEqual({ step, top });
  });
});

describe('durations', () => {
  it.each([
    [0, '0 s'],
    [40_000, '40 s'],
    [59_600, '1 min'],
    [12 * MIN + 20_000, '12 min'],
    [59 * MIN + 40_000, '1 h'],
    [65 * MIN, '1 h 5 min'],
    [23 * HOUR + 59 * MIN, '23 h 59 min'],
    [DAY - 10_000, '1 d'],
    [2 * DAY + 3 * HOUR, '2 d 3 h'],
  ])('GIVEN %i ms THEN it reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
