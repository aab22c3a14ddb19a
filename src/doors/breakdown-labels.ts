// What the hosted page calls a line of a payment's breakdown: a merchant's own label as the merchant
// wrote it (the v2 web checkout's amount_breakdown), and the parts a door names itself (eSewa's
// amount, tax, service and delivery charges) in the payer's language. The hosted page asks here and
// knows no door.
import type { Messages } from '../language/en.js';
import type { Payment } from '../payments/payment.js';
import { partLabels, type AmountPart } from './esewa-epay/esewa-fields.js';

const esewaParts = new Map(Object.entries(partLabels).map(([part, label]) => [label as string, part as AmountPart]));

export function breakdownLabel(payment: Pick<Payment, 'door'>, label: string, t: Messages): string {
  const part = payment.door === 'khalti-v2' ? undefined : esewaParts.get(label);
  return part ? t.checkout.amountParts[part] : label;
}
