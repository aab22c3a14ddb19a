// What payments asks of whoever took a payment's money through a provider, so that payments/ knows
// no provider: src/provider-payments/port.ts fills it, and the context carries it (declared here,
// onto AppContext, so that the context itself names no domain).
import type { Actor } from '../audit/audit-entry.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Payment } from './payment.js';

/** A refund owed back through the provider, and a payment held while the provider's answer is unknown, decided through its attempt. */
export interface ProviderPaymentsPort {
  /**
   * In the refund's transaction: the refund's journal to what is owed back through the provider that
   * took `payment`, its record (`record`), and the refund queued at the provider. The record's id, or
   * undefined when no provider took the payment (its money came from a wallet).
   */
  refundThroughProvider(ctx: AppContext, tx: Queryable, payment: Payment, refund: { idx: string; amount: number; now: Date }, record: () => Promise<number>): Promise<number | undefined>;
  /** Decides a held payment through the attempt that holds it; false when no provider's attempt holds it. */
  resolveHeld(ctx: AppContext, input: { actor: Actor; payment: Payment; resolution: 'Completed' | 'User canceled'; reason: string }): Promise<boolean>;
}

declare module '../context.js' {
  interface AppContext {
    providerPayments: ProviderPaymentsPort;
  }
}
