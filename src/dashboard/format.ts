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

// Rupees as a plain number, and rupees typed by a person, live with the other money formats (the
// CLI's bank file and the payment link's page need them too).
export { parseRupees, rupeesDecimal } from '../http/money.js';
