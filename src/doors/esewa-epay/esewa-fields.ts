// Reading eSewa's fields, for both forms, the status check and v1's verification: each a piece of
// text given once, checked as a merchant's integration would want to hear it, every problem at once
// in one sentence each. Values are kept exactly as posted: the signature covers them as they are. Pure.
import { httpUrl, storable } from '../../http/fields.js';
import { paisaOf } from '../../protocols/esewa-epay/rupees.js';

/** Each field's longest value. */
export type FieldLimits<N extends string> = Record<N, number>;

export interface Read<N extends string> {
  fields: Record<N, string>;
  problems: string[];
}

const asRecord = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

/**
 * A request's fields as clients send them: its query string's and its body's (form-encoded,
 * multipart or JSON). A field in both is taken once if it is the same there, else it is a field
 * given twice.
 */
export function requestFields(request: { query: unknown; body: unknown }): Record<string, unknown> {
  const [query, body] = [asRecord(request.query), asRecord(request.body)];
  // A form's fields are almost always all in one place: taken as they are.
  if (isEmpty(query)) return body;
  if (isEmpty(body)) return query;
  const fields: Record<string, unknown> = Object.create(null);
  for (const source of [query, body]) {
    for (const [name, value] of Object.entries(source)) {
      const given = Object.hasOwn(fields, name) ? fields[name] : undefined;
      fields[name] = given === undefined || given === value ? value : [given, value].flat();
    }
  }
  return fields;
}

const isEmpty = (record: Record<string, unknown>) => {
  for (const _ in record) return false;
  return true;
};

/** The fields named in `limits`, from a request's fields (requestFields). */
export function readFields<N extends string>(input: unknown, limits: FieldLimits<N>): Read<N> {
  const given = asRecord(input);
  const fields = {} as Record<N, string>;
  const problems: string[] = [];
  for (const name in limits) {
    const maxLength = limits[name];
    let value = Object.hasOwn(given, name) ? given[name] : undefined;
    // A JSON number as JavaScript writes it: the form's text is what clients sign, so send text.
    if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
    if (value === undefined) problems.push(`${name} is required.`);
    else if (Array.isArray(value)) problems.push(`${name} must be given once.`);
    else if (typeof value !== 'string') problems.push(`${name} must be text.`);
    else if (value.trim() === '') problems.push(`${name} may not be blank.`);
    else if (!storable(value)) problems.push(`${name} contains characters that are not allowed.`);
    else if (value.length > maxLength) problems.push(`${name} must be at most ${maxLength} characters.`);
    else fields[name] = value;
  }
  return { fields, problems };
}

/** A merchant's id for the payment: letters, digits and hyphens (eSewa's rule for transaction_uuid). */
export const ORDER_ID = /^[A-Za-z0-9-]+$/;

/** The paisa of a rupee field, or a problem. */
export function rupeesField(name: string, value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  const paisa = paisaOf(value);
  if (paisa === undefined) problems.push(`${name} must be an amount in rupees such as 100 or 100.50: digits, at most two decimals, no sign.`);
  return paisa;
}

/** The address `value` names, or a problem. */
export function urlField(name: string, value: string | undefined, problems: string[]): URL | undefined {
  if (value === undefined) return undefined;
  const url = httpUrl(value);
  if (!url) problems.push(`${name} must be an http(s) URL.`);
  return url;
}

/** The parts of a payment's total, in paisa: the total must be their sum. */
export interface EsewaAmounts {
  amount: number;
  tax: number;
  serviceCharge: number;
  deliveryCharge: number;
  total: number;
}

export const MIN_TOTAL_PAISA = 10;

/** What a form calls each part (v2's `tax_amount` is v1's `txAmt`). */
export type AmountNames = Record<keyof EsewaAmounts, string>;

/** The parts of `fields` in paisa, each a problem when it is not rupees; undefined when one is not. */
export function amountsOf(fields: Record<string, string>, names: AmountNames, problems: string[]): EsewaAmounts | undefined {
  const amounts = {} as EsewaAmounts;
  let complete = true;
  for (const part of Object.keys(names) as (keyof EsewaAmounts)[]) {
    const paisa = rupeesField(names[part], fields[names[part]], problems);
    if (paisa === undefined) complete = false;
    else amounts[part] = paisa;
  }
  return complete ? amounts : undefined;
}

/** Problems of amounts that each parsed: the total adds up, is at least Rs. 0.10 and at most the service's largest. */
export function amountProblems(names: AmountNames, amounts: EsewaAmounts, maxPaisa: number): string[] {
  const problems: string[] = [];
  if (amounts.amount <= 0) problems.push(`${names.amount} must be more than 0.`);
  const sum = amounts.amount + amounts.tax + amounts.serviceCharge + amounts.deliveryCharge;
  if (sum !== amounts.total) problems.push(`${names.total} must be ${names.amount} + ${names.tax} + ${names.serviceCharge} + ${names.deliveryCharge}.`);
  else if (amounts.total < MIN_TOTAL_PAISA) problems.push(`${names.total} must be at least 0.10.`);
  else if (amounts.total > maxPaisa) problems.push(`${names.total} must be at most ${maxPaisa / 100}.`);
  return problems;
}

/** The parts of a total, under the labels the payment keeps (the dashboard shows them; the payer's page says them in the payer's language). */
export const partLabels = { amount: 'Amount', tax: 'Tax', serviceCharge: 'Service charge', deliveryCharge: 'Delivery charge' } as const;
export type AmountPart = keyof typeof partLabels;

/** What the hosted page shows of the parts: the ones that are not zero. */
export function breakdownOf(amounts: EsewaAmounts): { label: string; amount: number }[] {
  return (Object.keys(partLabels) as AmountPart[]).map((part) => ({ label: partLabels[part], amount: amounts[part] })).filter((line) => line.amount > 0);
}
