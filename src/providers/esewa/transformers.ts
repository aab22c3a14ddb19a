// eSewa's ePay v2 wire types (the signed `data` of the return, the status check's schema) mapped to
// ours; every status eSewa publishes has its meaning here, and an answer of another shape is unknown.
import { Type } from '@sinclair/typebox';
import type { HttpAnswer } from '../provider-http.js';
import type { ProviderAnswer } from '../provider.js';
import { paisaOfAnswer } from '../../protocols/esewa-epay/rupees.js';
import { signedBy } from '../../protocols/esewa-epay/signature.js';
import { oneOf, readJson, unmapped } from '../wire.js';

/**
 * JSON text with each number written as a string of its own text: eSewa signs a value as it wrote it
 * (its published example signs `total_amount=1000.0` and sends `"total_amount": 1000.0`), which
 * JSON.parse would read as 1000. Strings are matched whole first, so digits inside them stay.
 */
const numbersAsWritten = (json: string) => json.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => (token.startsWith('"') ? token : `"${token}"`));

/** The `data` eSewa appends to success_url: its JSON when the signature holds, else undefined. */
export function returnedData(data: string | undefined, secretKey: string): Record<string, string> | undefined {
  if (!data || data.length > 4000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(numbersAsWritten(Buffer.from(data, 'base64').toString('utf8')));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const fields = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)]));
  return signedBy([secretKey], fields) ? fields : undefined;
}

/** The status check's answer (ePay v2, "Status Check", "Response Types"). */
const Status = Type.Object({
  product_code: Type.String(),
  transaction_uuid: Type.String(),
  total_amount: Type.Union([Type.Number(), Type.String()]),
  status: Type.String(),
  ref_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The statuses eSewa's status check publishes. */
export const esewaStatuses = ['COMPLETE', 'PENDING', 'FULL_REFUND', 'PARTIAL_REFUND', 'AMBIGUOUS', 'NOT_FOUND', 'CANCELED'] as const;

/** The status check's answer about `transaction_uuid` of `product_code` for `amount` paisa. */
export function statusAnswer(answer: HttpAnswer, expected: { transactionUuid: string; productCode: string; amount: number }): ProviderAnswer {
  if (answer.status !== 200) return { kind: 'unknown', detail: `status check answered ${answer.status}`, fault: true };
  const read = readJson(answer, Status, 'the status check');
  if (!read.ok) return { kind: 'unknown', detail: read.reason, fault: true };
  const body = read.body;
  if (body.transaction_uuid !== expected.transactionUuid || body.product_code !== expected.productCode) return { kind: 'unknown', detail: 'status check answered for another payment', fault: true };
  const status = oneOf(esewaStatuses, body.status);
  // A status eSewa does not publish: an operator must look.
  if (!status) return { kind: 'unknown', detail: `eSewa: ${body.status.slice(0, 40) || 'no status'}` };
  switch (status) {
    case 'COMPLETE': {
      if (paisaOfAnswer(body.total_amount) !== expected.amount) return { kind: 'unknown', detail: `eSewa: COMPLETE for ${String(body.total_amount)}, not ${expected.amount} paisa`, fault: true };
      if (!body.ref_id) return { kind: 'unknown', detail: 'eSewa: COMPLETE without a ref_id', fault: true };
      return { kind: 'paid', transactionId: body.ref_id.slice(0, 100), fee: 0, detail: 'eSewa: COMPLETE' };
    }
    case 'PENDING':
    case 'NOT_FOUND':
      return { kind: 'open', detail: `eSewa: ${status}` };
    case 'CANCELED':
      return { kind: 'failed', detail: 'eSewa: CANCELED' };
    case 'AMBIGUOUS':
    case 'FULL_REFUND':
    case 'PARTIAL_REFUND':
      // Undecided at eSewa, or a refund Bhuktani did not make: an operator must look.
      return { kind: 'unknown', detail: `eSewa: ${status}` };
    default:
      return unmapped(status);
  }
}
