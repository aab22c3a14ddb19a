// The languages the payer's pages speak: English, and Nepali. Shared
// vocabulary below the domains, like environment.ts.
export const languages = ['en', 'ne'] as const;
export type Language = (typeof languages)[number];

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (languages as readonly string[]).includes(value);

/** BCP 47 tags for Intl and for `lang` attributes. */
export const localeOf: Record<Language, string> = { en: 'en-NP', ne: 'ne-NP' };
