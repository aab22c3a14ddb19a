// A payout as the API shows it, and its JSON schemas for serialization and
// the OpenAPI document. Times are ISO 8601 with the offset of TIME_ZONE, like the transaction list;
// the account number is masked (a leaked key must not reveal it).
import { formatTimestamp } from '../http/timestamp.js';
import { maskedAccountNumber } from '../merchants/bank-account.js';
import { payoutStates, recordNet, type Payout, type SettledRecord } from './payout.js';
import { statementTotals } from './statement.js';

const time = (date: Date | null, timeZone: string) => (date ? formatTimestamp(date, timeZone) : null);

export function payoutJson(payout: Payout, timeZone: string) {
  return {
    idx: payout.idx,
    amount: payout.amount,
    state: payout.state,
    bank_account:
      payout.bank_name === null
        ? null
        : { bank_name: payout.bank_name, branch: payout.branch!, account_name: payout.account_name!, account_number: maskedAccountNumber(payout.account_number!) },
    bank_reference: payout.bank_reference,
    failure_reason: payout.failure_reason,
    waiting_reason: payout.waiting_reason,
    requested_by: payout.requested_by,
    requested_on: time(payout.requested_at, timeZone),
    processing_on: time(payout.processing_at, timeZone),
    paid_on: time(payout.paid_at, timeZone),
    failed_on: time(payout.failed_at, timeZone),
  };
}

export function payoutWithRecordsJson(payout: Payout, records: SettledRecord[], timeZone: string) {
  return {
    ...payoutJson(payout, timeZone),
    totals: statementTotals(payout, records),
    records: records.map((r) => ({
      idx: r.idx,
      type: r.type,
      pidx: r.pidx,
      purchase_order_id: r.purchase_order_id,
      amount: r.amount,
      fee_amount: r.fee_amount,
      sandbox_covered: r.sandbox_covered,
      net_amount: recordNet(r),
      created_on: formatTimestamp(r.created_at, timeZone),
      released: r.released,
    })),
  };
}

const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const paisa = (description: string) => ({ type: 'integer', description: `${description} Paisa.` });

export const payoutSchema = {
  type: 'object',
  required: ['idx', 'amount', 'state', 'bank_account', 'bank_reference', 'failure_reason', 'waiting_reason', 'requested_by', 'requested_on', 'processing_on', 'paid_on', 'failed_on'],
  properties: {
    idx: { type: 'string' },
    amount: paisa('The amount paid out.'),
    state: { type: 'string', enum: [...payoutStates] },
    bank_account: {
      type: ['object', 'null'],
      description: 'The bank account when the payout was requested; null for a test payout to the sandbox bank.',
      required: ['bank_name', 'branch', 'account_name', 'account_number'],
      properties: { bank_name: { type: 'string' }, branch: { type: 'string' }, account_name: { type: 'string' }, account_number: { type: 'string', description: 'Masked: the last four digits.' } },
    },
    bank_reference: { type: ['string', 'null'], description: "The bank's reference, once Paid." },
    failure_reason: { type: ['string', 'null'], description: 'Why it failed, once Failed.' },
    waiting_reason: { type: ['string', 'null'], description: 'Why a Requested payout cannot go yet (its account not validated by NPI, or waiting for an operator); null when it is not waiting.' },
    requested_by: { type: 'string', description: '`api`, `schedule`, or the dashboard user who asked.' },
    requested_on: { type: 'string', format: 'date-time' },
    processing_on: nullableTime,
    paid_on: nullableTime,
    failed_on: nullableTime,
  },
} as const;

export const payoutWithRecordsSchema = {
  ...payoutSchema,
  required: [...payoutSchema.required, 'totals', 'records'],
  properties: {
    ...payoutSchema.properties,
    totals: {
      type: 'object',
      description: 'brought_forward + records_net − carried_forward = amount.',
      required: ['payments', 'fees', 'refunds', 'sandbox_covered', 'records_net', 'brought_forward', 'carried_forward', 'amount'],
      properties: {
        payments: paisa('Gross of the payments settled.'),
        fees: paisa('Their fees.'),
        refunds: paisa('Refunds settled.'),
        sandbox_covered: paisa('What the sandbox covered of those refunds beyond the balance (test only; 0 in live).'),
        records_net: paisa('payments − fees − refunds + sandbox_covered.'),
        brought_forward: paisa('Available before from earlier records (may be negative: refunds of payments still pending).'),
        carried_forward: paisa('Available balance left after the payout.'),
        amount: paisa('The payout.'),
      },
    },
    records: {
      type: 'array',
      items: {
        type: 'object',
        required: ['idx', 'type', 'pidx', 'purchase_order_id', 'amount', 'fee_amount', 'sandbox_covered', 'net_amount', 'created_on', 'released'],
        properties: {
          idx: { type: 'string', description: 'The transaction id (a payment) or the refund id.' },
          type: { type: 'string', description: '`Wallet payment`, a payment through a provider (`Khalti payment`, `eSewa payment`, …) or `Refund`.' },
          pidx: { type: 'string' },
          purchase_order_id: { type: 'string' },
          amount: paisa('Gross.'),
          fee_amount: paisa('Fee (0 for a refund).'),
          sandbox_covered: paisa('Of a test refund: what the sandbox covered beyond the balance; else 0.'),
          net_amount: paisa('What it adds to the balance: amount − fee, or minus a refund less what the sandbox covered of it.'),
          created_on: { type: 'string', format: 'date-time' },
          released: { type: 'boolean', description: 'The payout failed: the record went back to the balance, for a later payout.' },
        },
      },
    },
  },
} as const;
