// The home page's chart of daily volume, drawn on the server as inline SVG: no chart script, no
// other host, and it shows without JavaScript. Pure: points in, markup out. Text in an SVG scales
// with it, so the page draws it twice, wide for desktops and narrow for phones, and CSS shows one.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { formatDay } from './format.js';

export interface ChartPoint {
  /** YYYY-MM-DD */
  day: string;
  /** Paisa. */
  amount: number;
  count: number;
}

export interface ChartSize {
  width: number;
  height: number;
  /** Label every this many days back from today. */
  labelEvery: number;
}

export const WIDE: ChartSize = { width: 1100, height: 280, labelEvery: 7 };
export const NARROW: ChartSize = { width: 360, height: 220, labelEvery: 14 };
const MARGIN = { left: 4, right: 4, top: 22, bottom: 26 };

/** A round top for the y axis and the step between its lines: 1, 2 or 5 × 10^k paisa, at most 5 steps. */
export function axisScale(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 100_000, step: 20_000 };
  const rough = Math.max(max, 500) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!;
  return { top: Math.ceil(max / step) * step, step };
}

/** Axis labels: `Rs. 500`, `Rs. 1.5K`, `Rs. 2M`. */
export function compactRupees(paisa: number): string {
  const rupees = paisa / 100;
  const trim = (n: number) => String(Math.round(n * 10) / 10);
  if (rupees >= 1_000_000) return `Rs. ${trim(rupees / 1_000_000)}M`;
  if (rupees >= 1_000) return `Rs. ${trim(rupees / 1_000)}K`;
  return `Rs. ${trim(rupees)}`;
}

const round = (n: number) => Math.round(n * 10) / 10;

export function volumeChart(points: ChartPoint[], options: { title: string; id: string; size?: ChartSize }): Html {
  const { width, height, labelEvery } = options.size ?? WIDE;
  const { left, right, top, bottom } = MARGIN;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const max = Math.max(0, ...points.map((p) => p.amount));
  const scale = axisScale(max);
  const y = (amount: number) => round(top + plotHeight - (amount / scale.top) * plotHeight);
  const slot = plotWidth / Math.max(points.length, 1);
  const barWidth = round(Math.max(slot * 0.68, 1));
  const total = points.reduce((sum, p) => sum + p.amount, 0);
  const busiest = points.reduce<ChartPoint | undefined>((best, p) => (p.amount > (best?.amount ?? 0) ? p : best), undefined);
  const description = busiest
    ? `Total ${formatRupees(total)}; busiest day ${formatDay(busiest.day)} with ${formatRupees(busiest.amount)}.`
    : 'No completed payments in this period.';

  const gridLines: Html[] = [];
  const yLabels: Html[] = [];
  for (let value = 0; value <= scale.top; value += scale.step) {
    gridLines.push(html`<line class="grid${value === 0 ? ' base' : ''}" x1="${left}" x2="${width - right}" y1="${y(value)}" y2="${y(value)}"/>`);
    // Above its line, inside the plot: no margin to fit, whatever the width.
    if (value > 0) yLabels.push(html`<text class="y-label" x="${left + 2}" y="${y(value) - 5}">${compactRupees(value)}</text>`);
  }
  const last = points.length - 1;
  const bars = points.map((p, i) => {
    const x = round(left + i * slot + (slot - barWidth) / 2);
    const barTop = p.amount > 0 ? Math.min(y(p.amount), y(0) - 1) : y(0);
    const label = `${formatDay(p.day)}: ${formatRupees(p.amount)} (${p.count} ${p.count === 1 ? 'payment' : 'payments'})`;
    return html`<rect class="bar${i === last ? ' today' : ''}" data-day="${p.day}" data-amount="${p.amount}" x="${x}" y="${barTop}" width="${barWidth}" height="${round(y(0) - barTop)}"><title>${label}</title></rect>`;
  });
  // Today, and every `labelEvery` days before it; the outermost ones aligned to the edges.
  const xLabels = points.flatMap((p, i) => {
    if ((last - i) % labelEvery !== 0) return [];
    const centre = left + i * slot + slot / 2;
    const [x, anchor] = i === last ? [width - right, 'end'] : i - labelEvery < 0 ? [left, 'start'] : [centre, 'middle'];
    return [html`<text class="x-label" x="${round(x)}" y="${height - 8}" text-anchor="${anchor}">${i === last ? 'Today' : formatDay(p.day)}</text>`];
  });

  return html`<svg class="volume-chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${options.id}-title ${options.id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${options.id}-title">${options.title}</title>
<desc id="${options.id}-desc">${description}</desc>
<g class="grid-lines">${gridLines}</g>
<g class="bars">${bars}</g>
<g class="y-labels">${yLabels}</g>
<g class="x-labels">${xLabels}</g>
${busiest ? '' : html`<text class="empty" x="${left + plotWidth / 2}" y="${top + plotHeight / 2}" text-anchor="middle">No completed payments yet</text>`}
</svg>`;
}
