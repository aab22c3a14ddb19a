// What the payer types on a payment link's page, checked against the link: the amount (a link
// whose payer chooses it), and the name, phone and e-mail it asks. Pure; the page names each
// problem in the payer's language (errors are codes, not sentences).
import { asciiDigits, parseRupees } from '../http/money.js';
import type { Payment } from '../payments/payment.js';
import type { Askable, PaymentLink } from './payment-link.js';

export type PayerField = 'amount' | Askable;
export type PayerFieldProblem = 'required' | 'amount_invalid' | 'amount_below_min' | 'amount_above_max' | 'phone_invalid' | 'email_invalid' | 'too_long';

export interface PayerDetails {
  amount: number;
  customer_info: NonNullable<Payment['customer_info']> | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// A Nepali mobile (98…, 97…, with or without +977) or landline (01-4…), spaces and dashes allowed.
const PHONE = /^\+?[0-9][0-9 -]{5,18}[0-9]$/;
const MAX_LENGTH: Record<Askable, number> = { name: 100, phone: 20, email: 254 };

function problemOf(field: Askable, value: string): PayerFieldProblem | undefined {
  if (value === '') return 'required';
  if (value.length > MAX_LENGTH[field]) return 'too_long';
  if (field === 'email' && !EMAIL.test(value)) return 'email_invalid';
  if (field === 'phone' && !PHONE.test(value)) return 'phone_invalid';
  return undefined;
}

/** The payer's form (text fields) read against `link`: the payment's amount and customer_info, or a problem per field. */
export function readPayerDetails(
  link: Pick<PaymentLink, 'amount' | 'min_amount' | 'max_amount' | 'ask'>,
  form: Partial<Record<PayerField, string>>,
): { ok: true; value: PayerDetails } | { ok: false; problems: Partial<Record<PayerField, PayerFieldProblem>> } {
  const problems: Partial<Record<PayerField, PayerFieldProblem>> = {};
  let amount = link.amount ?? 0;
  if (link.amount === null) {
    const typed = (form.amount ?? '').trim();
    const paisa = typed === '' ? undefined : parseRupees(typed);
    if (typed === '') problems.amount = 'required';
    else if (paisa === undefined) problems.amount = 'amount_invalid';
    else if (paisa < link.min_amount!) problems.amount = 'amount_below_min';
    else if (paisa > link.max_amount!) problems.amount = 'amount_above_max';
    else amount = paisa;
  }
  const info: Record<string, string> = {};
  for (const field of link.ask) {
    const value = (field === 'phone' ? asciiDigits(form[field] ?? '') : (form[field] ?? '')).trim();
    const problem = problemOf(field, value);
    if (problem) problems[field] = problem;
    else info[field] = value;
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, value: { amount, customer_info: link.ask.length ? info : null } };
}
