// The transaction record of specification 2.5, built from one row of `transactions`.
import { formatTimestamp } from '../http/timestamp.js';

/**
 * A record's type: a wallet payment, a refund, or a payment through a provider, which its descriptor
 * names (`Khalti payment`; the providers' registry); `idx` is the name in snake case.
 */
export type RecordType = 'Wallet payment' | 'Refund' | `${string} payment`;

export const recordTypeOf = (name: RecordType) => ({ idx: name.toLowerCase().replace(/ /g, '_'), name });

export const recordStates = {
  Completed: { idx: 'completed', name: 'Completed', template: 'is complete' },
  Confirmed: { idx: 'confirmed', name: 'Confirmed', template: 'is confirm' },
  Canceled: { idx: 'canceled', name: 'Canceled', template: 'is cancel' },
} as const;

export type RecordState = keyof typeof recordStates;
export const recordStateNames = Object.keys(recordStates) as RecordState[];

export interface TransactionRow {
  idx: string;
  type: RecordType;
  state: RecordState;
  pidx: string;
  purchase_order_id: string;
  amount: number;
  fee_amount: number;
  refunded: boolean;
  payer_idx: string;
  payer_mobile: string;
  payer_name: string;
  created_at: Date;
  payment_link: string | null;
  merchant_idx: string;
  merchant_name: string;
  merchant_mobile: string;
}

/** `9800000001` → `98XXXXXXX1`: enough for the payer to recognise, not enough to reuse. */
export function maskMobile(mobile: string): string {
  if (mobile.length <= 3) return 'X'.repeat(mobile.length);
  return `${mobile.slice(0, 2)}${'X'.repeat(mobile.length - 3)}${mobile.slice(-1)}`;
}

export function transactionRecord(row: TransactionRow, timeZone: string) {
  return {
    idx: row.idx,
    type: recordTypeOf(row.type),
    state: recordStates[row.state],
    amount: row.amount,
    fee_amount: row.fee_amount,
    refunded: row.refunded,
    created_on: formatTimestamp(row.created_at, timeZone),
    ebanker: null,
    user: { idx: row.payer_idx, name: row.payer_name, mobile: maskMobile(row.payer_mobile) },
    merchant: { idx: row.merchant_idx, name: row.merchant_name, mobile: row.merchant_mobile },
    pidx: row.pidx,
    purchase_order_id: row.purchase_order_id,
    // Only on the records of a payment started from a payment link: every other record keeps its shape.
    ...(row.payment_link ? { payment_link: row.payment_link } : {}),
  };
}

export type TransactionRecord = ReturnType<typeof transactionRecord>;
