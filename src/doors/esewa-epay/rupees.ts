// Amounts on eSewa's door are rupees written as decimal strings ("100", "100.0", "100.50"); inside,
// money is integer paisa. Pure.

/** At most 13 digits of rupees: every such amount is a safe integer of paisa. */
const RUPEES = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** The paisa a rupee string names (`"100.5"` → 10050), or undefined when it is not one (sign, exponent, three decimals, space…). */
export function paisaOf(text: string): number | undefined {
  const match = RUPEES.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** As eSewa writes an amount: one decimal at least, no thousands separator (10000 → `"100.0"`, 10050 → `"100.5"`, 10005 → `"100.05"`). */
export function esewaRupees(paisa: number): string {
  const rupees = Math.floor(paisa / 100);
  const cents = paisa % 100;
  if (cents % 10 === 0) return `${rupees}.${cents / 10}`;
  return `${rupees}.${String(cents).padStart(2, '0')}`;
}

/** The amount as the status check answers it: a JSON number of rupees. */
export const rupeesNumber = (paisa: number) => paisa / 100;
