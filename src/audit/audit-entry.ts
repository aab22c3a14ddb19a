// The audit log's vocabulary: who acted, what they did, to what. Every operator action writes one
// entry, in the transaction of the action itself.
import type { Environment } from '../environment.js';

/** An operator signed in to the console, or a command run on the server (`bhuktani …`). */
export type Actor = { kind: 'operator'; id: number; label: string } | { kind: 'cli'; label: 'cli' };

export const CLI_ACTOR: Actor = { kind: 'cli', label: 'cli' };

export interface AuditEntry {
  actor: Actor;
  /** `<object>.<verb>`: `merchant.approve`, `payment.resolve`, `wallet.freeze`, `payout.mark_paid`, `operator.invite`, … */
  action: string;
  object: { type: 'merchant' | 'payment' | 'wallet' | 'payout' | 'operator' | 'ledger' | 'provider' | 'provider_refund' | 'payout_rail' | 'bank_account'; id: string };
  environment?: Environment;
  reason?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

export interface AuditRecord extends AuditEntry {
  id: number;
  occurredAt: Date;
}
