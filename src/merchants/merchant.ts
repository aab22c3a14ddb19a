import type { Environment } from '../environment.js';

/**
 * Where a merchant stands with the operators: `new` (signed up, test only) →
 * `applied` → `approved` | `rejected`; `rejected` → `applied`; `approved` ⇄ `suspended`.
 * The moves are in approval-state-machine.ts.
 */
export const approvalStatuses = ['new', 'applied', 'approved', 'rejected', 'suspended'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export interface Merchant {
  id: number;
  idx: string;
  name: string;
  email: string;
  mobile: string;
  fee_bps: number;
  created_at: Date;
  status: ApprovalStatus;
  /** Why the last operator decision was made (shown to the merchant when rejected or suspended). */
  status_reason: string | null;
}

/** Who is calling the API: the merchant and the environment its key selects. */
export interface ApiCaller {
  merchant: Merchant;
  environment: Environment;
  keyId: number;
}
