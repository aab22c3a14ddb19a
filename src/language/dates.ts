// Days and moments on the payer's pages, in TIME_ZONE, in the payer's language and digits: `31 May
// 2026, 11:59 pm` / `३१ मे २०२६, २३:५९`. Intl's ne-NP writes "<year> <month> <day>: <time>"; the
// parts are put in the order a Nepali reader reads a date of the common era, day first.
import { localeOf, type Language } from './languages.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: Language, timeZone: string, what: 'day' | 'time'): Intl.DateTimeFormat {
  const key = `${language}|${timeZone}|${what}`;
  let f = formatters.get(key);
  if (!f) {
    const locale = language === 'en' ? 'en-IN' : localeOf[language];
    const options: Intl.DateTimeFormatOptions =
      what === 'day' ? { dateStyle: 'long', timeZone } : { hour: 'numeric', minute: '2-digit', hourCycle: language === 'en' ? 'h12' : 'h23', timeZone };
    formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  }
  return f;
}

/** The calendar day of `date` in `timeZone`. */
export function formatDay(date: Date, language: Language, timeZone: string): string {
  const f = formatter(language, timeZone, 'day');
  if (language === 'en') return f.format(date);
  const part = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.day} ${part.month} ${part.year}`;
}

/** The day and the time of `date` in `timeZone`; a line may break after the day, never inside the time (`5:16\u00a0pm`). */
export function formatMoment(date: Date, language: Language, timeZone: string): string {
  return `${formatDay(date, language, timeZone)}, ${formatter(language, timeZone, 'time').format(date).replaceAll(' ', '\u00a0')}`;
}
