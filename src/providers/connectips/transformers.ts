// connectIPS's wire types (the validation API's JSON, as NCHL's merchant interface prints it) mapped
// to ours; every status it publishes has its meaning here, and an answer of another shape is unknown.
import { Type } from '@sinclair/typebox';
import type { HttpAnswer } from '../provider-http.js';
import type { ProviderAnswer } from '../provider.js';
import { oneOf, readJson, unmapped } from '../wire.js';

const paisa = (value: unknown) => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^\d{1,15}(\.0+)?$/.test(text) ? Number(text.split('.')[0]) : undefined;
};

/** validatetxn's answer. */
const Validation = Type.Object({
  referenceId: Type.String(),
  txnAmt: Type.Optional(Type.Union([Type.Number(), Type.String()])),
  status: Type.String(),
  statusDesc: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The statuses validatetxn publishes. */
export const connectipsStatuses = ['SUCCESS', 'FAILED', 'ERROR'] as const;

/** validatetxn's answer about `referenceId` (the form's TXNID) for `amount` paisa. */
export function validationAnswer(answer: HttpAnswer, expected: { referenceId: string; amount: number }): ProviderAnswer {
  if (answer.status !== 200) return { kind: 'unknown', detail: `validatetxn answered ${answer.status}`, fault: true };
  const read = readJson(answer, Validation, 'validatetxn');
  if (!read.ok) return { kind: 'unknown', detail: read.reason, fault: true };
  const body = read.body;
  if (body.referenceId !== expected.referenceId) return { kind: 'unknown', detail: 'validatetxn answered for another transaction', fault: true };
  const description = typeof body.statusDesc === 'string' ? ` (${body.statusDesc.slice(0, 80)})` : '';
  const status = oneOf(connectipsStatuses, body.status);
  if (!status) return { kind: 'unknown', detail: `connectIPS: ${body.status.slice(0, 40) || 'no status'}${description}` };
  switch (status) {
    case 'SUCCESS':
      if (paisa(body.txnAmt) !== expected.amount) return { kind: 'unknown', detail: `connectIPS: SUCCESS for ${String(body.txnAmt)}, not ${expected.amount} paisa`, fault: true };
      return { kind: 'paid', transactionId: expected.referenceId, fee: 0, detail: `connectIPS: SUCCESS${description}` };
    case 'FAILED':
      // Not final while the payer may still be on connectIPS's pages: the reconciliation job decides.
      return { kind: 'open', detail: `connectIPS: FAILED${description}` };
    case 'ERROR':
      return { kind: 'unknown', detail: `connectIPS: ERROR${description}` };
    default:
      return unmapped(status);
  }
}
