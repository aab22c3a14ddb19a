// ePay v1's form, still posted by older plugins: amt, txAmt, psc, pdc, tAmt,
// scd (the product code), pid (the merchant's id for the payment), su and fu; no signature, as on
// eSewa. Every field is required, as eSewa's v1 documentation has it. Pure.
import { readFields, rupeesField } from './esewa-fields.js';
import { refusal } from './esewa-errors.js';
import { orderOf, type EsewaOrder, type OrderNames } from './esewa-order.js';

const CONTROL = /[\u0000-\u001f\u007f]/;
const AMOUNT = 20;
const FORM_LIMITS = { amt: AMOUNT, txAmt: AMOUNT, psc: AMOUNT, pdc: AMOUNT, tAmt: AMOUNT, scd: 64, pid: 100, su: 2048, fu: 2048 };

/** Every field as text, or the refusal listing every problem. */
export function readV1Form(body: unknown): Record<keyof typeof FORM_LIMITS, string> {
  const { fields, problems } = readFields(body, FORM_LIMITS);
  if (problems.length > 0) throw refusal(problems.join(' '));
  return fields;
}

/** The order of a v1 form whose fields are all there. */
const NAMES: OrderNames = { amounts: { amount: 'amt', tax: 'txAmt', serviceCharge: 'psc', deliveryCharge: 'pdc', total: 'tAmt' }, productCode: 'scd', orderId: 'pid', successUrl: 'su', failureUrl: 'fu' };

/** The order of a v1 form whose fields are all there. Older plugins send their own order ids (underscores, dots, a hash sign): any text without control characters. */
export function v1Order(fields: Record<keyof typeof FORM_LIMITS, string>, maxPaisa: number): EsewaOrder {
  return orderOf('esewa-v1', fields, NAMES, { maxPaisa, orderIdProblem: (pid) => (CONTROL.test(pid) ? 'pid may not hold control characters.' : undefined) });
}

const VERIFY_LIMITS = { amt: AMOUNT, rid: 64, pid: 100, scd: 64 };

/** v1's verification (`/epay/transrec`): amt, rid (the transaction code), pid and scd, every one required. */
export function readVerification(input: unknown): { fields: Record<keyof typeof VERIFY_LIMITS, string>; paisa: number } | { problems: string[] } {
  const { fields, problems } = readFields(input, VERIFY_LIMITS);
  const paisa = rupeesField('amt', fields.amt, problems);
  if (problems.length > 0) return { problems };
  return { fields, paisa: paisa! };
}
