// A payout's statement as CSV, for the merchant's accountant: one line per payment and refund it
// settles (amounts in paisa and in rupees, the fee, the net each adds), then the lines that take the
// records' net to the payout (brought forward, left in the balance) and the payout itself. The `net`
// column of every line but the last adds up to the last: the amount paid to the bank.
import type { AppContext } from '../context.js';
import type { Cell } from '../http/csv.js';
import { recordNet, type Payout, type SettledRecord } from '../settlements/payout.js';
import { statementTotalsOfSums } from '../settlements/statement.js';
import { statementRecords, statementSums } from '../settlements/statement-store.js';
import { rupeesDecimal } from './format.js';

export const STATEMENT_CSV_HEADER = ['date', 'line', 'transaction_id', 'pidx', 'purchase_order_id', 'amount_paisa', 'fee_paisa', 'net_paisa', 'amount_rupees', 'fee_rupees', 'net_rupees'];

function recordRow(r: SettledRecord): Cell[] {
  const refund = r.type === 'Refund';
  const amount = refund ? -r.amount : r.amount;
  const net = recordNet(r);
  return [r.created_at.toISOString(), refund ? 'Refund' : 'Payment', r.idx, r.pidx, r.purchase_order_id, amount, r.fee_amount, net, rupeesDecimal(amount), rupeesDecimal(r.fee_amount), rupeesDecimal(net)];
}

const summaryRow = (date: Date, line: string, net: number): Cell[] => [date.toISOString(), line, '', '', '', '', '', net, '', '', rupeesDecimal(net)];

/** The statement's lines, a page of records at a time, then the summary lines. */
export async function* statementCsvRows(ctx: AppContext, payout: Payout): AsyncGenerator<Cell[][]> {
  let after: number | undefined;
  for (;;) {
    const records = await statementRecords(ctx.db, payout.id, { after, limit: ctx.config.exportPageRows });
    if (records.length) yield records.map(recordRow);
    if (records.length < ctx.config.exportPageRows) break;
    after = records.at(-1)!.record_id;
  }
  const totals = statementTotalsOfSums(payout, await statementSums(ctx.db, payout.id));
  yield [
    summaryRow(payout.requested_at, 'Brought forward from earlier payouts', totals.brought_forward),
    summaryRow(payout.requested_at, 'Left in your balance', -totals.carried_forward),
    summaryRow(payout.paid_at ?? payout.requested_at, `Payout ${payout.state}`, payout.amount),
  ];
}
