// A payout: money leaving a merchant's balance for its bank account.
import type { Environment } from '../environment.js';
import type { RecordType } from '../transactions/transaction-record.js';

export const payoutStates = ['Requested', 'Processing', 'Paid', 'Failed'] as const;
export type PayoutState = (typeof payoutStates)[number];

export interface Payout {
  id: number;
  idx: string;
  merchant_id: number;
  environment: Environment;
  amount: number;
  state: PayoutState;
  /** The bank account when requested; null for a test payout of a merchant without one (the sandbox bank). */
  bank_name: string | null;
  branch: string | null;
  account_name: string | null;
  account_number: string | null;
  /** NCHL's codes of the account's bank and branch, when the merchant gave them (NPI routes by them). */
  bank_code: string | null;
  branch_code: string | null;
  bank_reference: string | null;
  failure_reason: string | null;
  /** Why a Requested payout waits (an account NPI has not verified, or refused); null when it does not. */
  waiting_reason: string | null;
  available_before: number;
  requested_by: string;
  requested_at: Date;
  processing_at: Date | null;
  paid_at: Date | null;
  failed_at: Date | null;
  updated_at: Date;
}

/** A transaction record a payout settles: a payment (its net is amount − fee) or a refund (minus its amount). */
export interface SettledRecord {
  record_id: number;
  idx: string;
  /** A payment (`Wallet payment`, or through a provider: `Khalti payment`, …) or a `Refund`. */
  type: RecordType;
  pidx: string;
  purchase_order_id: string;
  amount: number;
  fee_amount: number;
  created_at: Date;
  /** Released by the payout's failure: settled again by a later payout. */
  released: boolean;
  /** Of a test refund: what the sandbox covered of it beyond the merchant's balance; else 0. */
  sandbox_covered: number;
}

/** What a record adds to the merchant's balance: a payment its net, a refund minus what the merchant bore of it. */
export function recordNet(record: Pick<SettledRecord, 'type' | 'amount' | 'fee_amount' | 'sandbox_covered'>): number {
  return record.type === 'Refund' ? -(record.amount - record.sandbox_covered) : record.amount - record.fee_amount;
}
