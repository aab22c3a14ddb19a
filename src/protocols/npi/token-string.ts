// NCHL NPI's signed `token` field: what both sides sign and check (the connector in
// src/payout-rails/npi/, the simulator in src/sandbox/npi/), from NPI Specification §3 as NCHL
// publishes it (doc.connectips.com, "Token Generation"), with what its own formulas leave open taken
// from the four public clients that agree (research notes §3.2): every field joined by `,` with no
// space and no escaping, the batch's part then each transaction's, then the API user; amounts as
// rupees with exactly two decimals, the same text the JSON carries. The real-time rail
// (postcipsbatch) signs no category purpose; the batch rail (postnchlipsbatch) does.

/** The batch fields the token signs. Amounts in paisa. */
export interface SignedBatch {
  batchId: string;
  debtorAgent: string;
  debtorBranch: string;
  debtorAccount: string;
  batchAmount: number;
  batchCrncy: string;
  categoryPurpose: string;
}

/** One transaction's fields the token signs. Amount in paisa. */
export interface SignedTransaction {
  instructionId: string;
  creditorAgent: string;
  creditorBranch: string;
  creditorAccount: string;
  amount: number;
}

/** Paisa as NPI writes an amount (BigDecimal 14,2): rupees with exactly two decimals, `200.25`. */
export function npiAmount(paisa: number): string {
  if (!Number.isSafeInteger(paisa) || paisa < 0) throw new RangeError(`not an amount in paisa: ${paisa}`);
  return `${Math.floor(paisa / 100)}.${String(paisa % 100).padStart(2, '0')}`;
}

/**
 * The text the `token` signs (SHA256withRSA, Base64) for `rail`: `cips` (real time, one transaction,
 * no category purpose) or `ips` (a batch, the category purpose after the currency).
 */
export function tokenString(rail: 'cips' | 'ips', batch: SignedBatch, transactions: SignedTransaction[], userId: string): string {
  const batchPart = [batch.batchId, batch.debtorAgent, batch.debtorBranch, batch.debtorAccount, npiAmount(batch.batchAmount), batch.batchCrncy, ...(rail === 'ips' ? [batch.categoryPurpose] : [])];
  const transactionParts = transactions.flatMap((t) => [t.instructionId, t.creditorAgent, t.creditorBranch, t.creditorAccount, npiAmount(t.amount)]);
  return [...batchPart, ...transactionParts, userId].join(',');
}
