// Timestamps on the wire: ISO 8601 with microseconds and the offset of TIME_ZONE, as the gateway
// sends them (`2026-11-22T10:05:20.188000+05:45`).

const HOUR_MS = 3600_000;
/** Hours whose offset is known, per zone; bounded, as a list page can span a year of hours. */
const MAX_HOURS = 10_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const hourOffsets = new Map<string, Map<number, number | null>>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at `ms`, in minutes, from the zone's rules (Intl). */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const local = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60000);
}

/**
 * The offset at `ms`. Asking Intl costs more than the rest of a response, so it is asked once per
 * hour and zone: at the hour's start and end, and when both agree (no transition in between) the
 * whole hour has that offset. The rare hour with a transition is asked per timestamp.
 */
function offsetAt(ms: number, timeZone: string): number {
  let hours = hourOffsets.get(timeZone);
  if (!hours) hourOffsets.set(timeZone, (hours = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  let offset = hours.get(hour);
  if (offset === undefined) {
    const [start, end] = [zoneOffset(hour * HOUR_MS, timeZone), zoneOffset((hour + 1) * HOUR_MS - 1, timeZone)];
    offset = start === end ? start : null;
    if (hours.size >= MAX_HOURS) hours.clear();
    hours.set(hour, offset);
  }
  return offset ?? zoneOffset(ms, timeZone);
}

export function formatTimestamp(date: Date, timeZone: string): string {
  const ms = date.getTime();
  const offsetMinutes = offsetAt(ms, timeZone);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  // The local wall-clock time is UTC moved by the offset; milliseconds become microseconds.
  return `${new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23)}000${offset}`;
}
