// Calendar days in TIME_ZONE as `YYYY-MM-DD` strings: what "today" and "this month" mean to the
// merchant, whatever the server's own zone.

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day `date` falls on in `timeZone`. */
export function localDay(date: Date, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) dayFormatters.set(timeZone, (f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function monthStart(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * The first moment of `day` in `timeZone`: its midnight, or where a change of the clocks skips
 * midnight, when they land. Zones are within 15 hours of UTC and change on whole minutes, so the
 * minutes of that span are searched for the first one on `day`.
 */
export function dayStart(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  let before = Date.UTC(y, m - 1, d) / 60_000 - 15 * 60;
  let onOrAfter = before + 30 * 60;
  while (onOrAfter - before > 1) {
    const middle = Math.floor((before + onOrAfter) / 2);
    if (localDay(new Date(middle * 60_000), timeZone) < day) before = middle;
    else onOrAfter = middle;
  }
  return new Date(onOrAfter * 60_000);
}
