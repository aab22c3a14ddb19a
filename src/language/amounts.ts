// Numbers and amounts as Nepalis write them on the payer's pages: lakh and crore grouping in both
// languages (Rs. 1,00,000.00), Devanagari digits in Nepali (रु. १,००,०००.००), from Intl's ne-NP
// (Node's ICU; src/language/amounts.test.ts pins what it gives).
import type { Language } from './languages.js';

const grouped: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }),
  ne: new Intl.NumberFormat('ne-NP', { maximumFractionDigits: 0 }),
};
const twoDigits: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-IN', { minimumIntegerDigits: 2, useGrouping: false }),
  ne: new Intl.NumberFormat('ne-NP', { minimumIntegerDigits: 2, useGrouping: false }),
};
const RUPEE_SIGN: Record<Language, string> = { en: 'Rs.', ne: 'रु.' };

/** Paisa for a payer: 10000000 → `Rs. 1,00,000.00` (en), `रु. १,००,०००.००` (ne). Whole paisa, never a float. */
export function formatAmount(paisa: number, language: Language): string {
  return written(paisa, language, ' ');
}

/** `formatAmount` that a line never breaks between its sign and its digits (a card, a receipt): `Rs.\u00a01,234.56`. */
export function unbrokenAmount(paisa: number, language: Language): string {
  return written(paisa, language, '\u00a0');
}

function written(paisa: number, language: Language, space: string): string {
  const sign = paisa < 0 ? '-' : '';
  const abs = Math.abs(paisa);
  return `${sign}${RUPEE_SIGN[language]}${space}${grouped[language].format(Math.floor(abs / 100))}.${twoDigits[language].format(abs % 100)}`;
}

/** A whole number in the language's digits, grouped: 12345 → `12,345` / `१२,३४५`. */
export function formatNumber(n: number, language: Language): string {
  return grouped[language].format(n);
}

/** ASCII digits of `text` in the language's digits: `4:59` → `४:५९` in Nepali. */
export function inDigits(text: string, language: Language): string {
  return language === 'ne' ? text.replace(/[0-9]/g, (d) => String.fromCharCode(0x966 + Number(d))) : text;
}
