import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatMonth, parseRupees, rupeesDecimal } from './format.js';
import { addDays, dayStart, daysFrom, localDay, monthStart } from '../local-days.js';

describe('parseRupees', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    ['0.01', 1],
    ['0.1', 10],
    ['1,234.56', 123456],
    [' 1234.56 ', 123456],
    ['Rs. 99.99', 9999],
    ['rs 5', 500],
    ['0.29', 29],
    ['1.15', 115],
    ['100000000.00', 10_000_000_000],
    // As Nepal groups them, and as a Nepali keyboard types them.
    ['1,00,000', 10_000_000],
    ['12,34,567.89', 123_456_789],
    ['रु. १,००,०००.५०', 10_000_050],
  ])('%j is %i paisa, exactly', (input, paisa) => {
    expect(parseRupees(input)).toBe(paisa);
  });

  it.each(['', '12.345', '-5', '+5', '1e3', 'five', '12.', '.5', '1,23', '12,34.5', '0x10', '١٢', '1 000', 'NaN', '1,00,00', '100,00,000.1.2'])('refuses %j', (input) => {
    expect(parseRupees(input)).toBeUndefined();
  });
});

describe('rupeesDecimal', () => {
  it('writes paisa as plain rupees', () => {
    expect(rupeesDecimal(123456)).toBe('1234.56');
    expect(rupeesDecimal(5)).toBe('0.05');
    expect(rupeesDecimal(-100)).toBe('-1.00');
  });
});

describe('times and days in TIME_ZONE', () => {
  it('writes a time in the zone', () => {
    expect(formatDateTime(new Date('2026-11-22T04:20:20.188Z'), 'Asia/Kathmandu')).toBe('22 Nov 2026, 10:05:20');
    expect(formatDateTime(new Date('2026-11-22T04:20:20.188Z'), 'UTC')).toBe('22 Nov 2026, 04:20:20');
  });

  it('knows the day in the zone, not the server’s', () => {
    expect(localDay(new Date('2026-11-21T18:14:59Z'), 'Asia/Kathmandu')).toBe('2026-11-21');
    expect(localDay(new Date('2026-11-21T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-11-22');
    expect(localDay(new Date('2026-11-22T03:00:00Z'), 'America/New_York')).toBe('2026-11-21');
  });

  it('knows when a day begins in the zone, where the clocks skip midnight too', () => {
    expect(dayStart('2026-11-22', 'Asia/Kathmandu').toISOString()).toBe('2026-11-21T18:15:00.000Z');
    expect(dayStart('2026-11-22', 'UTC').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(dayStart('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(dayStart('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(dayStart('2026-01-01', 'Pacific/Kiritimati').toISOString()).toBe('2025-12-31T10:00:00.000Z');
    // São Paulo moved its clocks from 00:00 to 01:00 on 4 November 2018: that day began at 01:00.
    expect(dayStart('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });

  it('counts days across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(monthStart('2026-11-22')).toBe('2026-11-01');
    expect(daysFrom('2026-11-29', '2026-12-02')).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(formatDay('2026-11-02')).toBe('2 Nov');
    expect(formatMonth('2026-11-22')).toBe('November 2026');
  });
});
