// ePay v2's form (contract section 12): eleven fields, all required, signed over signed_field_names.
// Read in three steps, as the route needs them: every field there (before anything is looked up),
// then the signature (once the product code's keys are known), then the order itself. Pure.
import { ORDER_ID, readFields } from './esewa-fields.js';
import { invalidSignature, refusal } from './esewa-errors.js';
import { orderOf, type EsewaOrder, type OrderNames } from './esewa-order.js';
import { REQUIRED_SIGNED_FIELDS, signatureMatches, signedFieldNames, signedMessage } from '../../protocols/esewa-epay/signature.js';

const AMOUNT = 20;
const LIMITS = {
  amount: AMOUNT,
  tax_amount: AMOUNT,
  total_amount: AMOUNT,
  transaction_uuid: 100,
  product_code: 64,
  product_service_charge: AMOUNT,
  product_delivery_charge: AMOUNT,
  success_url: 2048,
  failure_url: 2048,
  signed_field_names: 512,
  signature: 128,
};

export type FormFields = Record<keyof typeof LIMITS, string>;
export const formFieldNames = Object.keys(LIMITS) as (keyof FormFields)[];

/** Step 1: every field, as text; otherwise the refusal listing every problem. */
export function readForm(body: unknown): FormFields {
  const { fields, problems } = readFields(body, LIMITS);
  if (problems.length > 0) throw refusal(problems.join(' '));
  return fields;
}

/** Step 2: the signature, by one of the product code's keys, over the fields signed_field_names names, in its order. */
export function checkSignature(fields: FormFields, secretKeys: readonly string[]): void {
  const names = signedFieldNames(fields.signed_field_names);
  const unknown = names.filter((name) => !formFieldNames.includes(name as keyof FormFields) || name === 'signature');
  if (unknown.length > 0) throw refusal(`signed_field_names names what the form has not: ${unknown.map((n) => JSON.stringify(n)).join(', ')}.`);
  if (new Set(names).size !== names.length) throw refusal('signed_field_names names a field twice.');
  if (REQUIRED_SIGNED_FIELDS.some((name) => !names.includes(name))) throw refusal(`signed_field_names must include ${REQUIRED_SIGNED_FIELDS.join(', ')}.`);
  if (!signatureMatches(secretKeys, signedMessage(fields, names), fields.signature)) throw invalidSignature();
}

const NAMES: OrderNames = {
  amounts: { amount: 'amount', tax: 'tax_amount', serviceCharge: 'product_service_charge', deliveryCharge: 'product_delivery_charge', total: 'total_amount' },
  productCode: 'product_code',
  orderId: 'transaction_uuid',
  successUrl: 'success_url',
  failureUrl: 'failure_url',
};

/** Step 3: amounts that add up, the addresses, the transaction_uuid's form. */
export function formOrder(fields: FormFields, maxPaisa: number): EsewaOrder {
  return orderOf('esewa-v2', fields, NAMES, { maxPaisa, orderIdProblem: (id) => (ORDER_ID.test(id) ? undefined : 'transaction_uuid may hold only letters, digits and hyphens.') });
}
