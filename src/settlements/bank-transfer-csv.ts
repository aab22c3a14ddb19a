// The bank's bulk-transfer file: one row per payout, to the account it was
// requested for, with the payout's idx as the reference the bank quotes back (`payout mark`). One
// definition for `bhuktani payout export` and the console's export, so finance gets the same file.
import { csvLine, type Cell } from '../http/csv.js';
import { rupeesDecimal } from '../http/money.js';
import type { Payout } from './payout.js';

export const BANK_TRANSFER_HEADER = ['bank', 'branch', 'account_name', 'account_number', 'amount', 'reference'];

export function bankTransferRow(p: Payout): Cell[] {
  return [p.bank_name, p.branch, p.account_name, p.account_number, rupeesDecimal(p.amount), p.idx];
}

export function bankTransferCsv(payouts: Payout[]): string {
  return csvLine(BANK_TRANSFER_HEADER) + payouts.map((p) => csvLine(bankTransferRow(p))).join('');
}
