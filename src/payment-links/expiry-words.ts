// When a link stops taking payments, in people's words, said one way on the payer's page and on the
// dashboard: a link that ends as a day begins takes payments until the end of the day before
// ("until the end of 27 December 2026"), any other until its moment.
import { formatDay, formatMoment } from '../language/dates.js';
import type { Speech } from '../language/payer-speech.js';
import { addDays, dayStart, localDay } from '../local-days.js';

export function expiryWords(expiresAt: Date, { t, language }: Speech, timeZone: string): string {
  const day = localDay(expiresAt, timeZone);
  if (dayStart(day, timeZone).getTime() === expiresAt.getTime()) return t.link.untilEndOf(formatDay(dayStart(addDays(day, -1), timeZone), language, timeZone));
  return t.link.until(formatMoment(expiresAt, language, timeZone));
}
