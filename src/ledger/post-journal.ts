// Writes one balanced journal, inside the caller's transaction. Wallet debits are conditional, so
// a wallet never goes negative; if one is short, the journal is not written and the caller's
// transaction must roll back.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../payments/payment-status.js';
import { insertJournal, moveWalletBalance, type JournalKind, type Posting } from './ledger-store.js';

export class InsufficientBalanceError extends Error {
  constructor(readonly accountId: number) {
    super('insufficient balance');
  }
}

export interface JournalInput {
  environment: Environment;
  kind: JournalKind;
  pidx: string | null;
  at: Date;
  postings: Posting[];
}

/** Pure: the postings a journal may hold. Zero amounts are dropped; the rest must sum to zero. */
export function balancedPostings(postings: Posting[]): Posting[] {
  const kept = postings.filter((p) => p.amount !== 0);
  const sum = kept.reduce((total, p) => total + p.amount, 0);
  if (sum !== 0 || kept.some((p) => !Number.isSafeInteger(p.amount))) {
    throw new Error(`unbalanced journal: postings sum to ${sum}`);
  }
  return kept;
}

export async function postJournal(tx: Queryable, journal: JournalInput): Promise<number> {
  const postings = balancedPostings(journal.postings);
  // Debits first, in a fixed order (account id) so two journals never wait on each other in a cycle.
  const walletMoves = postings.filter((p) => p.wallet).sort((a, b) => a.accountId - b.accountId);
  for (const move of walletMoves) {
    if (!(await moveWalletBalance(tx, move.accountId, move.amount))) throw new InsufficientBalanceError(move.accountId);
  }
  return insertJournal(tx, { ...journal, postings });
}
