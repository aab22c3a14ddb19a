// The payer's browser comes back from a provider. What the browser carries
// holds nothing: the provider's own server is asked, and its answer settles the attempt; only its
// unknown answer holds the payment Pending. The payer goes
// on to the merchant (Completed, or Pending while the answer is unknown; the payment's door says
// where, src/doors/return-address.ts) or back to the hosted page to choose again.
import type { AppContext } from '../context.js';
import { findPayment } from '../payments/payment-store.js';
import { returnStatusOf, type PayerReturn } from '../payments/return-status.js';
import type { PayerErrorCode } from '../payments/payer-error.js';
import type { Attempt } from './attempt-state-machine.js';
import { findAttempt, isAttemptIdx, setProviderReference } from './attempt-store.js';
import { measuredConnector } from './measured-connector.js';
import { descriptorOf, type ProviderName } from '../providers/registry.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import { settleAttempt } from './settle-attempt.js';

export type ReturnResult =
  | { kind: 'merchant'; back: PayerReturn }
  | { kind: 'hosted-page'; pidx: string; notice?: PayerErrorCode }
  /** Paid at the provider for a payment decided before: the payer is told it is refunded, then sent on. */
  | { kind: 'surplus'; pidx: string; back?: PayerReturn }
  | { kind: 'not-found' };


async function onwards(ctx: AppContext, pidx: string, notice?: PayerErrorCode): Promise<ReturnResult> {
  const payment = (await findPayment(ctx.db, pidx))!;
  const status = returnStatusOf(payment);
  if (notice === 'provider_surplus') return { kind: 'surplus', pidx, back: status && { payment, status } };
  if (status === 'Pending' || status === 'Completed') return { kind: 'merchant', back: { payment, status } };
  return { kind: 'hosted-page', pidx, notice };
}

/** Where an attempt that has ended leads the payer: what came of it. */
export function settledReturn(ctx: AppContext, attempt: Pick<Attempt, 'state' | 'pidx'>): Promise<ReturnResult> {
  const notice = attempt.state === 'Failed' ? 'provider_not_paid' : attempt.state === 'Surplus' ? 'provider_surplus' : undefined;
  return onwards(ctx, attempt.pidx, notice);
}

export async function returnFromProvider(ctx: AppContext, name: ProviderName, path: string[], query: Record<string, string>): Promise<ReturnResult> {
  const idx = descriptorOf(name).returnedAttempt(path, query);
  const attempt = idx && isAttemptIdx(idx) ? await findAttempt(ctx.db, idx) : undefined;
  if (!attempt || attempt.provider !== name) return { kind: 'not-found' };
  // Settled or asked about already (a reload, a replayed return): show what came of it.
  if (attempt.state !== 'Started') return settledReturn(ctx, attempt);
  const setup = await findProviderSetup(ctx, name, attempt.environment);
  if (!setup) return onwards(ctx, attempt.pidx, 'provider_unavailable');
  const connector = measuredConnector(ctx, setup);
  const { claim, providerReference } = connector.provider.readReturn(path, query);
  // Only a return whose signature holds names a reference; the first one given is kept.
  const reference = providerReference && !attempt.provider_reference ? ((await setProviderReference(ctx.db, attempt.id, providerReference))?.provider_reference ?? null) : attempt.provider_reference;
  const answer = await connector.status({ idx: attempt.idx, amount: attempt.amount, environment: attempt.environment, providerReference: reference, createdAt: attempt.created_at });
  const settled = await settleAttempt(ctx, attempt, answer, { payerBack: true });
  switch (settled.kind) {
    case 'completed':
      return { kind: 'merchant', back: { payment: settled.payment, status: 'Completed' } };
    case 'held':
      return { kind: 'merchant', back: { payment: settled.payment, status: 'Pending' } };
    case 'surplus':
      return onwards(ctx, attempt.pidx, 'provider_surplus');
    case 'failed':
      return onwards(ctx, attempt.pidx, 'provider_not_paid');
    default:
      return onwards(ctx, attempt.pidx, claim === 'paid' ? undefined : 'provider_not_paid');
  }
}
