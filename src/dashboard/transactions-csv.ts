// The transaction list as CSV: one line per record, in the list's order, amounts in paisa (as the
// API gives them) and in rupees (for a spreadsheet), and the payment link a payment came from.
import type { Cell } from '../http/csv.js';
import type { TransactionRecord } from '../transactions/transaction-record.js';
import { rupeesDecimal } from './format.js';

export const CSV_HEADER = [
  'created_on',
  'transaction_id',
  'type',
  'state',
  'pidx',
  'purchase_order_id',
  'amount_paisa',
  'fee_paisa',
  'amount_rupees',
  'fee_rupees',
  'refunded',
  'payer_name',
  'payer_mobile',
  'payment_link',
];

export function transactionCsvRow(r: TransactionRecord): Cell[] {
  return [
    r.created_on,
    r.idx,
    r.type.name,
    r.state.name,
    r.pidx,
    r.purchase_order_id,
    r.amount,
    r.fee_amount,
    rupeesDecimal(r.amount),
    rupeesDecimal(r.fee_amount),
    r.refunded,
    r.user.name,
    r.user.mobile,
    r.payment_link ?? '',
  ];
}

/** Pages of records as pages of CSV rows. */
export async function* transactionCsvPages(pages: AsyncIterable<TransactionRecord[]>): AsyncGenerator<Cell[][]> {
  for await (const records of pages) yield records.map(transactionCsvRow);
}
