// Amounts on eSewa's wire are rupees; inside, money is integer paisa. eSewa writes them differently
// in each place, and every side follows its examples (developer.esewa.com.np, Epay):
//   - the form and the status check's query, written by a client: `"110"` (whole rupees bare, as in
//     the published form and its signature vector), a part of a rupee with two decimals (`"100.50"`);
//   - the `data` of the return, written by eSewa: `"1000.0"`, one decimal at least (the published
//     data's signature is over `total_amount=1000.0`), so 10,050 paisa is `"100.5"`;
//   - the status check's answer: a JSON number (`100.0`).
// Read back, any of these forms is the same amount. Pure.

/** At most 13 digits of rupees: every such amount is a safe integer of paisa. */
const RUPEES = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** The paisa a rupee string names (`"100.5"` → 10050), or undefined when it is not one (sign, exponent, three decimals, space…). */
export function paisaOf(text: string): number | undefined {
  const match = RUPEES.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** The paisa of an amount in eSewa's JSON: a number (`100.0`, `100.5`) or a rupee string; undefined otherwise. */
export function paisaOfAnswer(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? paisaOf(String(value)) : undefined;
  return typeof value === 'string' ? paisaOf(value) : undefined;
}

/** As a client writes an amount in the form and the status check (10000 → `"100"`, 10050 → `"100.50"`). */
export function requestRupees(paisa: number): string {
  const rupees = Math.floor(paisa / 100);
  const cents = paisa % 100;
  return cents === 0 ? String(rupees) : `${rupees}.${String(cents).padStart(2, '0')}`;
}

/** As eSewa writes an amount in `data`: one decimal at least, no thousands separator (10000 → `"100.0"`, 10050 → `"100.5"`, 10005 → `"100.05"`). */
export function esewaRupees(paisa: number): string {
  const rupees = Math.floor(paisa / 100);
  const cents = paisa % 100;
  if (cents % 10 === 0) return `${rupees}.${cents / 10}`;
  return `${rupees}.${String(cents).padStart(2, '0')}`;
}

/** The amount as the status check answers it: a JSON number of rupees. */
export const rupeesNumber = (paisa: number) => paisa / 100;
