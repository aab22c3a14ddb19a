// The bank's bulk-transfer file of exported payouts (contract section 10): one row per payout with the
// account it goes to (as it was when requested), the amount in rupees and the payout's idx as the
// reference the bank carries to the merchant's statement. One definition for `bhuktani payout export`
// and the console's export, so the finance team gets the same file from either.
import { csvLine, type Cell } from '../http/csv.js';
import { rupeesDecimal } from '../http/money.js';
import type { Payout } from './payout.js';

export const BANK_CSV_HEADER = ['bank', 'branch', 'account_name', 'account_number', 'amount', 'reference'];

export function bankTransferRow(p: Payout): Cell[] {
  return [p.bank_name, p.branch, p.account_name, p.account_number, rupeesDecimal(p.amount), p.idx];
}

/** The whole file, for a command that writes it at once. */
export function bankTransferCsv(payouts: Payout[]): string {
  return [BANK_CSV_HEADER, ...payouts.map(bankTransferRow)].map(csvLine).join('');
}
