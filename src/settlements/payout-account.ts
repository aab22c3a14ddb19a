// Where a payout goes, in words for the merchant's and the operators' pages: the account it was
// requested with, masked, or the sandbox bank (a test payout of a merchant without an account).
import { bankAccountLine } from '../merchants/bank-account.js';
import type { Payout } from './payout.js';

export function payoutAccountLine(p: Pick<Payout, 'bank_name' | 'branch' | 'account_name' | 'account_number'>): string {
  if (!p.bank_name) return 'Sandbox bank (test)';
  return bankAccountLine({ bankName: p.bank_name, branch: p.branch ?? '', accountName: p.account_name ?? '', accountNumber: p.account_number ?? '' });
}
