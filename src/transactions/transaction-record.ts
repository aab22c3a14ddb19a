// The transaction record of specification 2.5, built from one row of `transactions`.
import { formatTimestamp } from '../http/timestamp.js';

export const recordTypes = {
  'Wallet payment': { idx: 'wallet_payment', name: 'Wallet payment' },
  // Paid through a provider (contract section 13).
  'Khalti payment': { idx: 'khalti_payment', name: 'Khalti payment' },
  'eSewa payment': { idx: 'esewa_payment', name: 'eSewa payment' },
  'connectIPS payment': { idx: 'connectips_payment', name: 'connectIPS payment' },
  Refund: { idx: 'refund', name: 'Refund' },
} as const;

export const recordStates = {
  Completed: { idx: 'completed', name: 'Completed', template: 'is complete' },
  Confirmed: { idx: 'confirmed', name: 'Confirmed', template: 'is confirm' },
  Canceled: { idx: 'canceled', name: 'Canceled', template: 'is cancel' },
} as const;

export type RecordType = keyof typeof recordTypes;
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
    type: recordTypes[row.type],
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
    // Only on the records of a payment started from a payment link (contract section 14): every other record keeps its shape.
    ...(row.payment_link ? { payment_link: row.payment_link } : {}),
  };
}

export type TransactionRecord = ReturnType<typeof transactionRecord>;
