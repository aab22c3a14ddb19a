// ePay v1's form (contract section 12), still posted by older plugins: amt, txAmt, psc, pdc, tAmt,
// scd (the product code), pid (the merchant's id for the payment), su and fu; no signature, as on
// eSewa. Every field is required, as eSewa's v1 documentation has it. Pure.
import { amountProblems, readFields, rupeesField, urlField } from './esewa-fields.js';
import { refusal } from './esewa-errors.js';
import type { EsewaOrder } from './esewa-order.js';

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
export function v1Order(fields: Record<keyof typeof FORM_LIMITS, string>, maxPaisa: number): EsewaOrder {
  const problems: string[] = [];
  const amount = rupeesField('amt', fields.amt, problems);
  const tax = rupeesField('txAmt', fields.txAmt, problems);
  const serviceCharge = rupeesField('psc', fields.psc, problems);
  const deliveryCharge = rupeesField('pdc', fields.pdc, problems);
  const total = rupeesField('tAmt', fields.tAmt, problems);
  // Older plugins send their own order ids (underscores, dots, a hash sign): any text without control characters.
  if (CONTROL.test(fields.pid)) problems.push('pid may not hold control characters.');
  const successUrl = urlField('su', fields.su, problems);
  const failureUrl = urlField('fu', fields.fu, problems);
  if (problems.length > 0) throw refusal(problems.join(' '));
  const amounts = { amount: amount!, tax: tax!, serviceCharge: serviceCharge!, deliveryCharge: deliveryCharge!, total: total! };
  const wrong = amountProblems({ amount: 'amt', tax: 'txAmt', serviceCharge: 'psc', deliveryCharge: 'pdc', total: 'tAmt' }, amounts, maxPaisa);
  if (wrong.length > 0) throw refusal(wrong.join(' '));
  return { door: 'esewa-v1', productCode: fields.scd, orderId: fields.pid, amounts, successUrl: successUrl!, failureUrl: failureUrl! };
}

const VERIFY_LIMITS = { amt: AMOUNT, rid: 64, pid: 100, scd: 64 };

/** v1's verification (`/epay/transrec`): amt, rid (the transaction code), pid and scd, every one required. */
export function readVerification(input: unknown): { fields: Record<keyof typeof VERIFY_LIMITS, string>; paisa: number } | { problems: string[] } {
  const { fields, problems } = readFields(input, VERIFY_LIMITS);
  const paisa = rupeesField('amt', fields.amt, problems);
  if (problems.length > 0) return { problems };
  return { fields, paisa: paisa! };
}
