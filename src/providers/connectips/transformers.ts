// connectIPS's wire types (the validation API's JSON) mapped to ours.
import { jsonOf, type HttpAnswer } from '../provider-http.js';
import type { ProviderAnswer } from '../provider.js';

const paisa = (value: unknown) => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^\d{1,15}(\.0+)?$/.test(text) ? Number(text.split('.')[0]) : undefined;
};

/** validatetxn's answer about `referenceId` (the form's TXNID) for `amount` paisa. */
export function validationAnswer(answer: HttpAnswer, expected: { referenceId: string; amount: number }): ProviderAnswer {
  if (answer.status !== 200) return { kind: 'unknown', detail: `validatetxn answered ${answer.status}`, fault: true };
  const body = jsonOf(answer);
  if (body.referenceId !== expected.referenceId) return { kind: 'unknown', detail: 'validatetxn answered for another transaction', fault: true };
  const description = typeof body.statusDesc === 'string' ? ` (${body.statusDesc.slice(0, 80)})` : '';
  switch (body.status) {
    case 'SUCCESS':
      if (paisa(body.txnAmt) !== expected.amount) return { kind: 'unknown', detail: `connectIPS: SUCCESS for ${String(body.txnAmt)}, not ${expected.amount} paisa`, fault: true };
      return { kind: 'paid', transactionId: expected.referenceId, fee: 0, detail: `connectIPS: SUCCESS${description}` };
    case 'FAILED':
      // Not final while the payer may still be on connectIPS's pages: the reconciliation job decides.
      return { kind: 'open', detail: `connectIPS: FAILED${description}` };
    default:
      return { kind: 'unknown', detail: `connectIPS: ${typeof body.status === 'string' ? body.status.slice(0, 40) : 'no status'}${description}` };
  }
}
