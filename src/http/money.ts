import { formatAmount } from '../language/amounts.js';

/**
 * Paisa for people who read English (the dashboard, the console, the CLI, a provider's sandbox page):
 * `Rs. 1,23,456.50`, grouped as Nepal writes rupees, by the payer's pages' own formatter. Only at the
 * edge; everything else is whole paisa.
 */
export function formatRupees(paisa: number): string {
  return formatAmount(paisa, 'en');
}

/** `1234.56` for 123456 paisa: rupees as a plain number, for CSV files (spreadsheets, the bank's bulk transfer). */
export function rupeesDecimal(paisa: number): string {
  const sign = paisa < 0 ? '-' : '';
  const abs = Math.abs(paisa);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Devanagari digits (०–९, as a Nepali keyboard types them) as ASCII digits; everything else as it is. */
export function asciiDigits(text: string): string {
  return text.replace(/[\u0966-\u096f]/g, (d) => String(d.charCodeAt(0) - 0x966));
}

// Whole rupees, plain or grouped in thousands (1,234,567) or as Nepal writes them (12,34,567).
const RUPEES = /^(\d+|\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})*,\d{3})(\.(\d{1,2}))?$/;

/**
 * Rupees typed by a person, to paisa, exactly (no floating point): `12.5` → 1250, `1,234.56` →
 * 123456, `१,००,०००` → 10000000. Undefined for anything else: a third decimal, a sign, letters.
 */
export function parseRupees(input: string): number | undefined {
  const text = asciiDigits(input).trim().replace(/^(rs\.?|\u0930\u0941\.?)\s*/i, '');
  const match = RUPEES.exec(text);
  if (!match) return undefined;
  const rupees = match[1].replace(/,/g, '');
  const paisa = (match[5] ?? '').padEnd(2, '0');
  if (rupees.length > 13) return undefined;
  return Number(rupees) * 100 + Number(paisa);
}
