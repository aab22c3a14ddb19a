import type { Actor } from './audit/audit-entry.js';
import type { Clock, IdSource } from './clock.js';
import type { Config } from './config.js';
import type { Db, Queryable } from './db/db.js';
import type { Metrics } from './http/metrics.js';
import type { Mailer } from './mail/mailer.js';
import type { RateLimiter } from './http/rate-limiter.js';
import type { Payment } from './payments/payment.js';
import type { OtpSender } from './wallets/otp-sender.js';

/** What every use case may need: the store, the time, randomness and configuration. */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  config: Config;
  otp: OtpSender;
  metrics: Metrics;
  limiter: RateLimiter;
  mailer: Mailer;
  providerPayments: ProviderPaymentsPort;
}

/**
 * What payments asks of whoever took a payment's money through a provider (provider-payments/port.ts
 * fills it), so that payments/ knows no provider: a refund owed back through the provider, and a
 * payment held while the provider's answer is unknown, decided through its attempt.
 */
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
