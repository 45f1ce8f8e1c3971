/**
 * The time-to-answer chart of the web inbox's Answered view: the last days' answers as inline SVG drawn on the
 * server (no chart library, no script, nothing fetched), blocking and can-wait side by side for each day. A bar is
 * the day's median wait; the thin line above it rises to the day's p90; a day nobody answered reads "no answers".
 * The same figures are there as text for everyone: the median and p90 of each kind above the chart, the SVG's
 * `<title>`/`<desc>`, and a visually hidden table of every day. Pure; every text goes through the `html` tag.
 */

import { formatDuration } from '../../core/duration.js';
import type { TimeToAnswerSummary, TimeToAnswerWindow } from '../../core/time-to-answer.js';
import { html, type SafeHtml } from './html.js';

export interface ChartOptions {
  /** What the figures cover when not every project, shown in the heading (`· shop`). */
  readonly scope?: string;
}

type Kind = 'blocking' | 'canWait';

const KINDS: readonly { readonly kind: Kind; readonly label: string; readonly fill: string }[] = [
  { kind: 'blocking', label: 'Blocking', fill: '#d92d20' },
  { kind: 'canWait', label: 'Can wait', fill: '#16803c' },
];

// The drawing's own units (the SVG scales to the page's width).
const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 64;
const RIGHT = 12;
const TOP = 14;
const BOTTOM = 40;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
const BASELINE = TOP + PLOT_HEIGHT;
const BAR = 22;
const GAP = 4;
/** A bar for a day that has answers is at least this tall, so an instant answer is not mistaken for none. */
const BAR_MIN = 2;

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
/** Steps for the time axis, so its marks read as round waits. */
const STEPS = [
  10 * S,
  30 * S,
  M,
  2 * M,
  5 * M,
  10 * M,
  15 * M,
  30 * M,
  H,
  2 * H,
  3 * H,
  6 * H,
  12 * H,
  D,
  2 * D,
  7 * D,
];
const MAX_TICKS = 4;

/** The chart for `window` (from `timeToAnswerByDay`); a plain line when nobody answered in it. */
export function renderTimeToAnswerChart(window: TimeToAnswerWindow, options: ChartOptions = {}): SafeHtml {
  const span = window.days.length;
  const heading = html`<h2 id="tta-heading" class="list-title">Time to answer · last ${span} days${options.scope === undefined ? '' : html` · <span class="chart-scope">${options.scope}</span>`}</h2>`;
  if (window.total === 0) {
    return html`<figure class="chart-panel" aria-labelledby="tta-heading" data-answers="0">${heading}<p class="empty chart-empty">No answers in the last ${span} days.</p></figure>`;
  }
  const figures = KINDS.map(
    ({ kind, label }) =>
      html`<li class="figure figure-${kind}" data-kind="${kind}"><span class="swatch swatch-${kind}" aria-hidden="true"></span>${label}: ${summaryText(window[kind])}</li>`,
  );
  return html`<figure class="chart-panel" aria-labelledby="tta-heading" data-answers="${window.total}">${heading}<ul class="chart-figures">${figures}</ul>${svg(window)}${table(window)}<figcaption class="chart-note">Bars: each day’s median wait from question to answer; the thin line rises to its 90th percentile (nearest rank).</figcaption></figure>`;
}

function summaryText(summary: TimeToAnswerSummary | undefined): string {
  if (summary === undefined) return 'no answers';
  return `median ${formatDuration(summary.median)}, p90 ${formatDuration(summary.p90)} (${answeredCount(summary.count)})`;
}

function answeredCount(count: number): string {
  return `${count} answered`;
}

/** `Wed 14 Jan` for `2026-01-14` (the date is already the time zone's day). */
function dayLabel(date: string, withMonth: boolean): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    ...(withMonth ? { month: 'short' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** The axis top and its step: the smallest round step that covers `max` in at most {@link MAX_TICKS} marks. */
export function timeAxis(max: number): { readonly top: number; readonly step: number } {
  const step = STEPS.find((candidate) => candidate * MAX_TICKS >= max) ?? Math.ceil(max / MAX_TICKS / (7 * D)) * 7 * D;
  return { top: Math.max(step, Math.ceil(max / step) * step), step };
}

function svg(window: TimeToAnswerWindow): SafeHtml {
  const max = Math.max(0, ...window.days.flatMap((day) => [day.blocking?.p90 ?? 0, day.canWait?.p90 ?? 0]));
  const { top, step } = timeAxis(max);
  const y = (ms: number) => BASELINE - (ms / top) * PLOT_HEIGHT;
  const ticks: SafeHtml[] = [];
  for (let value = 0; value <= top; value += step) {
    const at = round(y(value));
    ticks.push(
      html`<line class="chart-grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${at}" y2="${at}" stroke="#dfe3e8" stroke-width="1"/><text class="chart-axis" x="${LEFT - 6}" y="${round(at + 4)}" text-anchor="end" fill="#5f6b7a">${value === 0 ? '0' : formatDuration(value)}</text>`,
    );
  }
  const slot = PLOT_WIDTH / window.days.length;
  const days = window.days.map((day, index) => {
    const center = LEFT + slot * (index + 0.5);
    const label = dayLabel(day.date, true);
    const marks =
      day.blocking === undefined && day.canWait === undefined
        ? html`<text class="chart-none" x="${round(center)}" y="${BASELINE - 8}" text-anchor="middle" fill="#5f6b7a">no answers</text>`
        : KINDS.map(({ kind, label: kindLabel, fill }, position) => {
            const summary = day[kind];
            if (summary === undefined) return '';
            const x = round(center + (position === 0 ? -(BAR + GAP / 2) : GAP / 2));
            const barTop = Math.min(y(summary.median), BASELINE - BAR_MIN);
            const whiskerX = round(x + BAR / 2);
            const p90 = round(y(summary.p90));
            return html`<g class="chart-day chart-${kind}" data-kind="${kind}" data-date="${day.date}"><title>${kindLabel}, ${label}: ${summaryText(summary)}</title><rect class="bar bar-${kind}" x="${x}" y="${round(barTop)}" width="${BAR}" height="${round(BASELINE - barTop)}" fill="${fill}" rx="2"/><line class="whisker whisker-${kind}" x1="${whiskerX}" x2="${whiskerX}" y1="${round(barTop)}" y2="${p90}" stroke="${fill}" stroke-width="1.5"/><line class="whisker whisker-${kind}" x1="${whiskerX - 6}" x2="${whiskerX + 6}" y1="${p90}" y2="${p90}" stroke="${fill}" stroke-width="1.5"/></g>`;
          });
    return html`<g class="chart-slot" data-date="${day.date}">${marks}<text class="chart-axis" x="${round(center)}" y="${BASELINE + 18}" text-anchor="middle" fill="#5f6b7a">${dayLabel(day.date, false)}</text></g>`;
  });
  const description = KINDS.map(({ kind, label }) => `${label}: ${summaryText(window[kind])}.`).join(' ');
  return html`<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="tta-title tta-desc"><title id="tta-title">Time to answer per day, last ${window.days.length} days</title><desc id="tta-desc">${description} Bars are each day’s median wait, lines rise to its p90.</desc>${ticks}<line class="chart-baseline" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${BASELINE}" y2="${BASELINE}" stroke="#5f6b7a" stroke-width="1"/>${days}</svg>`;
}

function table(window: TimeToAnswerWindow): SafeHtml {
  const cell = (summary: TimeToAnswerSummary | undefined) => html`<td>${summaryText(summary)}</td>`;
  const rows = window.days.map(
    (day) => html`<tr><th scope="row">${dayLabel(day.date, true)}</th>${cell(day.blocking)}${cell(day.canWait)}</tr>`,
  );
  // In a hidden box rather than hiding the table itself: a table grows to its content whatever its width says.
  return html`<div class="visually-hidden"><table><caption>Time to answer per day</caption><thead><tr><th scope="col">Day</th><th scope="col">Blocking</th><th scope="col">Can wait</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
