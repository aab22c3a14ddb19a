// Times for people, in the configured TIME_ZONE: the dashboard's and the console's pages.

/** Intl formatters are costly to make: one per pattern and zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/** `22 Nov 2026, 10:05:20` */
export function formatDateTime(date: Date, timeZone: string): string {
  return formatter(`dt:${timeZone}`, () =>
    new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }),
  ).format(date);
}
