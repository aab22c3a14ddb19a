// How the console writes times for people: in TIME_ZONE, with the zone named on each page.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `24 Nov 2026, 10:05` */
export function formatWhen(date: Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) formatters.set(timeZone, (f = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  return f.format(date);
}
