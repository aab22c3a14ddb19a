import { describe, expect, it } from 'vitest';
import { axisScale, compactRupees, NARROW, volumeChart, WIDE, type ChartPoint } from './volume-chart.js';

const days = (amounts: number[]): ChartPoint[] => amounts.map((amount, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, amount, count: amount ? 1 : 0 }));

describe('axisScale', () => {
  it('rounds the top up to 1, 2 or 5 × 10^k with at most 5 steps', () => {
    expect(axisScale(123456)).toEqual({ top: 150000, step: 50000 });
    expect(axisScale(100000)).toEqual({ top: 100000, step: 20000 });
    expect(axisScale(999)).toEqual({ top: 1000, step: 200 });
    expect(axisScale(10)).toEqual({ top: 100, step: 100 });
    expect(axisScale(0)).toEqual({ top: 100000, step: 20000 });
    for (const max of [1, 77, 5001, 3_000_000, 987_654_321]) {
      const { top, step } = axisScale(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(top / step).toBeLessThanOrEqual(5);
      expect(Number.isInteger(top / step)).toBe(true);
    }
  });
});

describe('compactRupees', () => {
  it('writes axis labels short', () => {
    expect(compactRupees(0)).toBe('Rs. 0');
    expect(compactRupees(50000)).toBe('Rs. 500');
    expect(compactRupees(150000)).toBe('Rs. 1.5K');
    expect(compactRupees(200_000_000)).toBe('Rs. 2M');
  });
});

describe('volumeChart', () => {
  it('draws one bar per day, as tall as its volume, the last one marked as today', () => {
    const svg = volumeChart(days([0, 50000, 100000]), { title: 'Daily volume', id: 'c' }).value;
    const bars = [...svg.matchAll(/<rect class="(bar[^"]*)" data-day="([^"]+)" data-amount="(\d+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"><title>([^<]+)<\/title>/g)];
    expect(bars.map((b) => [b[1], b[2], Number(b[3])])).toEqual([
      ['bar', '2026-11-01', 0],
      ['bar', '2026-11-02', 50000],
      ['bar today', '2026-11-03', 100000],
    ]);
    const heights = bars.map((b) => Number(b[7]));
    const base = Number(/<line class="grid base" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/.exec(svg)![1]);
    const topLine = Math.min(...[...svg.matchAll(/<line class="grid" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/g)].map((m) => Number(m[1])));
    const plot = base - topLine;
    expect(heights[0]).toBe(0);
    expect(heights[2]).toBeCloseTo(plot, 0);
    expect(heights[1]).toBeCloseTo(plot / 2, 0);
    // Bars sit on the base line and stay inside the drawing.
    for (const b of bars) {
      expect(Number(b[5]) + Number(b[7])).toBeCloseTo(base, 0);
      expect(Number(b[4]) + Number(b[6])).toBeLessThanOrEqual(WIDE.width);
      expect(Number(b[4])).toBeGreaterThanOrEqual(0);
    }
    expect(bars[1][8]).toBe('2 Nov: Rs. 500.00 (1 payment)');
  });

  it('labels the axes and says what it shows, for screen readers too', () => {
    const svg = volumeChart(days([0, 50000, 100000]), { title: 'Daily volume', id: 'wide' }).value;
    expect(svg).toMatch(/^<svg class="volume-chart" viewBox="0 0 1100 280" role="img" aria-labelledby="wide-title wide-desc"/);
    expect(svg).toContain('<title id="wide-title">Daily volume</title>');
    expect(svg).toContain('<desc id="wide-desc">Total Rs. 1,500.00; busiest day 3 Nov with Rs. 1,000.00.</desc>');
    expect([...svg.matchAll(/<text class="y-label"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1])).toEqual(['Rs. 200', 'Rs. 400', 'Rs. 600', 'Rs. 800', 'Rs. 1K']);
    expect([...svg.matchAll(/<text class="x-label"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1])).toEqual(['Today']);
    expect(volumeChart(days([1]), { title: 'x', id: 'narrow', size: NARROW }).value).toMatch(/viewBox="0 0 360 220"/);
  });

  it('labels today and every seventh day before it (fourteenth when narrow), the outer ones flush with the edges', () => {
    const points = days(Array.from({ length: 30 }, (_, i) => i * 100));
    const labels = (svg: string) => [...svg.matchAll(/<text class="x-label" x="[\d.]+" y="[\d.]+" text-anchor="(\w+)">([^<]+)<\/text>/g)].map((m) => [m[2], m[1]]);
    expect(labels(volumeChart(points, { title: 'x', id: 'w' }).value)).toEqual([
      ['2 Nov', 'start'],
      ['9 Nov', 'middle'],
      ['16 Nov', 'middle'],
      ['23 Nov', 'middle'],
      ['Today', 'end'],
    ]);
    expect(labels(volumeChart(points, { title: 'x', id: 'n', size: NARROW }).value)).toEqual([
      ['2 Nov', 'start'],
      ['16 Nov', 'middle'],
      ['Today', 'end'],
    ]);
  });

  it('says so when there is nothing to draw', () => {
    const svg = volumeChart(days([0, 0, 0]), { title: 'x', id: 'c' }).value;
    expect(svg).toContain('No completed payments yet');
    expect(svg).toContain('<desc id="c-desc">No completed payments in this period.</desc>');
  });

  it('escapes its title and uses no inline style or script', () => {
    const svg = volumeChart(days([1000]), { title: '<script>alert(1)</script>', id: 'c' }).value;
    expect(svg).not.toContain('<script>');
    expect(svg).not.toMatch(/style=|<script|on\w+=/);
  });
});
