// The report APIs' shapes (NPI Specification §5.5; research notes §8): a batch's fields at the top
// level with its transactions' list (by batch id), a transaction with its batch nested (by
// instruction id), a list of both (by date). The field names are NCHL's, its misspelling
// `sessionSrlNo` included. The simulator charges no fee: every charge is 0.
import { npiAmount } from '../../protocols/npi/token-string.js';
import { debitReasonDescriptions } from '../../protocols/npi/codes.js';
import type { BatchRow, TransactionRow } from './npi-books.js';
import { railNames } from './npi-request.js';

const rupees = (paisa: number) => Number(npiAmount(paisa));
/** NCHL's time stamps: `2020-01-22T06:05:30.181+0000`. */
export const nchlTime = (at: Date) => at.toISOString().replace('Z', '+0000');
const detail = (details: Record<string, unknown>, name: string) => details[name] ?? null;

export function batchReport(b: BatchRow) {
  return {
    id: b.id,
    batchId: b.batch_id,
    recDate: b.rec_date,
    isoTxnId: null,
    batchAmount: rupees(b.batch_amount),
    batchCount: b.batch_count,
    batchChargeAmount: 0,
    batchCrncy: b.batch_crncy,
    categoryPurpose: b.category_purpose,
    debtorAgent: b.debtor_agent,
    debtorBranch: b.debtor_branch,
    debtorName: b.debtor_name,
    debtorAccount: b.debtor_account,
    ...Object.fromEntries(['debtorIdType', 'debtorIdValue', 'debtorAddress', 'debtorPhone', 'debtorMobile', 'debtorEmail'].map((name) => [name, detail(b.details, name)])),
    channelId: 'TECHM',
    debitStatus: b.debit_status,
    debitReasonCode: b.debit_status,
    debitReasonDesc: debitReasonDescriptions[b.debit_status] ?? null,
    ipsBatchId: b.ips_batch_id,
    fileName: null,
    rcreTime: nchlTime(b.created_at),
    rcreUserId: b.member,
    sessionSrlNo: 1,
    settlementDate: b.rec_date,
    txnResponse: null,
  };
}

export function transactionReport(t: TransactionRow, b: BatchRow) {
  const fields = (names: string[]) => Object.fromEntries(names.map((name) => [name, detail(t.details, name)]));
  return {
    id: t.id,
    // NCHL's integer id of the batch here, not the member's.
    batchId: b.id,
    isoTxnId: null,
    recDate: b.rec_date,
    instructionId: t.instruction_id,
    endToEndId: t.end_to_end_id,
    amount: rupees(t.amount),
    chargeAmount: 0,
    chargeLiability: 'CG',
    purpose: detail(t.details, 'purpose'),
    merchantId: null,
    appId: 'MER-1-APP-3',
    appTxnId: null,
    creditorAgent: t.creditor_agent,
    creditorBranch: t.creditor_branch,
    creditorName: t.creditor_name,
    creditorAccount: t.creditor_account,
    ...fields(['creditorIdType', 'creditorIdValue', 'creditorAddress', 'creditorPhone', 'creditorMobile', 'creditorEmail', 'addenda1', 'addenda2', 'addenda3', 'addenda4']),
    creditStatus: t.credit_status,
    reasonCode: t.reason_code,
    reasonDesc: t.reason_desc,
    reversalStatus: t.reversal_status,
    refId: detail(t.details, 'refId'),
    remarks: detail(t.details, 'remarks'),
    particulars: null,
    ...fields(['freeCode1', 'freeCode2', 'freeText1', 'freeText2']),
    ipsBatchId: b.ips_batch_id,
    ipsTxnId: t.ips_txn_id,
    rcreUserId: b.member,
    rcreTime: nchlTime(t.created_at),
    txnResponse: null,
    orignBranchId: null,
  };
}

/** By batch id: the batch's fields and its transactions. */
export function byBatch(b: BatchRow, transactions: TransactionRow[]) {
  return { ...batchReport(b), [railNames[b.rail].list]: transactions.map((t) => transactionReport(t, b)) };
}

/** By instruction id: the transaction, its batch inside. */
export function byInstruction(t: TransactionRow, b: BatchRow) {
  return { ...transactionReport(t, b), [railNames[b.rail].batch]: batchReport(b) };
}

/** By date: each batch and its transactions, side by side. */
export function byDate(batches: BatchRow[], transactions: TransactionRow[]) {
  return batches.map((b) => ({ [railNames[b.rail].batch]: batchReport(b), [railNames[b.rail].list]: transactions.filter((t) => t.batch === b.id).map((t) => transactionReport(t, b)) }));
}
