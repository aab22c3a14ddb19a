// The reconciliation job's run: every PROVIDER_RECONCILE_INTERVAL_SECONDS each
// instance leases the attempts that are due (their own backoff: the interval doubled per question
// asked), asks their provider, and settles them as the payer's return would, except that an unknown
// answer is only counted; at PROVIDER_RECONCILE_LIMIT questions the attempt goes to the operators.
// A lease is one instance's for a while, and the attempt's turn to be asked (ask-provider.ts): two
// instances, or the job and a payer's return, never ask about one attempt at once, and one that dies
// mid-question lets another take it when the lease passes. Then the refunds due at
// providers with a refund API are tried.
import type { AppContext } from '../context.js';
import type { Logger } from 'pino';
import { leaseDueAttempts } from './attempt-store.js';
import { askClaimed } from './ask-provider.js';
import { flushHealth } from './provider-health.js';
import { leaseDueRefunds } from './provider-refund-store.js';
import { refundAtProvider } from './provider-refunds.js';

const BATCH = 50;

/** One run; resolves to how many attempts and refunds it handled. */
export async function reconcileAttempts(ctx: AppContext, log?: Pick<Logger, 'error'>): Promise<number> {
  const leaseUntil = () => new Date(ctx.clock.now().getTime() + 2 * ctx.config.providerTimeoutMs + 30_000);
  const attempts = await leaseDueAttempts(ctx.db, ctx.clock.now(), leaseUntil(), BATCH);
  // One at a time: a provider that answers slowly slows this run, not the payers' requests.
  for (const attempt of attempts) {
    try {
      await askClaimed(ctx, attempt, 'job');
    } catch (error) {
      log?.error({ err: error, attempt: attempt.idx, provider: attempt.provider }, 'reconciling a provider attempt failed');
    }
  }
  const refunds = await leaseDueRefunds(ctx.db, ctx.clock.now(), leaseUntil(), BATCH);
  for (const refund of refunds) {
    try {
      await refundAtProvider(ctx, refund);
    } catch (error) {
      log?.error({ err: error, refund: refund.idx, provider: refund.provider }, 'a refund at a provider failed');
    }
  }
  await flushHealth(ctx);
  return attempts.length + refunds.length;
}
