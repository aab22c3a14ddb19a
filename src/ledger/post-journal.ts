// Writes one balanced journal in one statement, inside the caller's transaction. A wallet never
// goes negative: a debit it cannot pay fails the statement, and the caller's transaction must roll
// back.
import type { Queryable } from '../db/db.js';
import { Statement } from '../db/statement.js';
import { isShortWallet, journalPart, type JournalInput, type Posting } from './ledger-store.js';

export type { JournalInput };

export class InsufficientBalanceError extends Error {
  constructor(readonly accountId: number) {
    super('insufficient balance');
  }
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

/** The error a statement holding `journal` failed with, as the ledger names it. */
export function ledgerError(error: unknown, journal: JournalInput): unknown {
  if (!isShortWallet(error)) return error;
  const debited = journal.postings.find((p) => p.wallet && p.amount < 0);
  return new InsufficientBalanceError(debited?.accountId ?? 0);
}

export async function postJournal(tx: Queryable, journal: JournalInput): Promise<number> {
  const statement = new Statement();
  journalPart({ ...journal, postings: balancedPostings(journal.postings) })(statement);
  try {
    const [row] = await tx.query<{ id: number }>(statement.text('SELECT id FROM journal'), statement.params);
    return row.id;
  } catch (error) {
    throw ledgerError(error, journal);
  }
}
