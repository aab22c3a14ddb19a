// How the dashboard writes times and amounts for people. Times are in TIME_ZONE, like the API's.

import { formatDateTime, formatter } from '../http/date-format.js';

export { formatDateTime };

/** `22 Nov 2026` and `10:05:20`, apart, for a table cell that stacks them. */
export function formatDateAndTime(date: Date, timeZone: string): { date: string; time: string } {
  const [day, time] = formatDateTime(date, timeZone).split(', ');
  return { date: day, time };
}

/** `22 Nov` for a `YYYY-MM-DD` day. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return formatter('day', () => new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' })).format(new Date(Date.UTC(y, m - 1, d)));
}

/** `November 2026` for a `YYYY-MM-DD` day. */
export function formatMonth(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return formatter('month', () => new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' })).format(new Date(Date.UTC(y, m - 1, 1)));
}

const RUPEES = /^(\d{1,3}(,\d{3})+|\d+)(\.(\d{1,2}))?$/;

/**
 * Rupees typed by a person, to paisa, exactly (no floating point): `12.5` → 1250, `1,234.56` →
 * 123456. Undefined for anything else: a third decimal, a sign, letters.
 */
export function parseRupees(input: string): number | undefined {
  const text = input.trim().replace(/^rs\.?\s*/i, '');
  const match = RUPEES.exec(text);
  if (!match) return undefined;
  const rupees = match[1].replace(/,/g, '');
  const paisa = (match[4] ?? '').padEnd(2, '0');
  if (rupees.length > 13) return undefined;
  return Number(rupees) * 100 + Number(paisa);
}

// Rupees as a plain number lives with the other money formats (the CLI's bank file needs it too).
export { rupeesDecimal } from '../http/money.js';
