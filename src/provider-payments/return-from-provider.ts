// The payer's browser comes back from a provider. What the browser carries
// holds nothing: the provider's own server is asked, when it is the attempt's turn (ask-provider.ts:
// a flood of returns makes one call every two seconds), and its answer settles the attempt. Only a
// return the provider signed (as paid, or as pending there) brings a payer who surely paid: the
// provider's unknown answer then holds the payment Pending. Anyone can send any other return, so its unknown answer
// changes nothing: the payer is told the provider has not confirmed yet, and the job asks later. The
// payer goes on to the merchant (Completed, or Pending while held; the payment's door says where,
// src/doors/return-address.ts) or back to the hosted page.
import type { AppContext } from '../context.js';
import { findPayment } from '../payments/payment-store.js';
import { returnStatusOf, type PayerReturn } from '../payments/return-status.js';
import type { PayerErrorCode } from '../payments/payer-error.js';
import type { Attempt } from './attempt-state-machine.js';
import { askClaimed, claimTurn } from './ask-provider.js';
import { findAttempt, isAttemptIdx, setProviderReference } from './attempt-store.js';
import { connectorFor } from '../providers/connectors.js';
import { descriptorOf, type ProviderName } from '../providers/registry.js';
import { findProviderSetup } from '../providers/provider-setup.js';

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

/** `mayAsk`: false when the payer's address asked too often: what is known is shown, nothing asked. */
export async function returnFromProvider(ctx: AppContext, name: ProviderName, path: string[], query: Record<string, string>, options: { mayAsk: boolean }): Promise<ReturnResult> {
  const idx = descriptorOf(name).returnedAttempt(path, query);
  const attempt = idx && isAttemptIdx(idx) ? await findAttempt(ctx.db, idx) : undefined;
  if (!attempt || attempt.provider !== name) return { kind: 'not-found' };
  // Settled or asked about already (a reload, a replayed return): show what came of it.
  if (attempt.state !== 'Started') return settledReturn(ctx, attempt);
  const setup = await findProviderSetup(ctx, name, attempt.environment);
  if (!setup) return onwards(ctx, attempt.pidx, 'provider_unavailable');
  const { claim, providerReference, signed } = connectorFor(ctx, setup).readReturn(path, query);
  // Only a return whose signature holds names a reference; the first one given is kept.
  if (providerReference !== undefined && providerReference !== null && attempt.provider_reference === null) await setProviderReference(ctx.db, attempt.id, providerReference);
  const turn = options.mayAsk ? await claimTurn(ctx, attempt) : undefined;
  if (!turn) {
    // Another request is asking, or asked a moment ago: what is known now.
    const now = await findAttempt(ctx.db, attempt.idx);
    return now && now.state !== 'Started' ? settledReturn(ctx, now) : { kind: 'hosted-page', pidx: attempt.pidx, notice: 'provider_checking' };
  }
  // The provider's signature on anything but a cancel: it sent back a payer who paid, or is paying.
  const { answer, settled } = await askClaimed(ctx, turn, signed && claim !== 'canceled' ? 'signed return' : 'browser');
  switch (settled.kind) {
    case 'completed':
      return { kind: 'merchant', back: { payment: settled.payment, status: 'Completed' } };
    case 'held':
      return { kind: 'merchant', back: { payment: settled.payment, status: 'Pending' } };
    case 'surplus':
      return onwards(ctx, attempt.pidx, 'provider_surplus');
    case 'failed':
      return onwards(ctx, attempt.pidx, 'provider_not_paid');
    case 'already':
      return settledReturn(ctx, settled.attempt);
    default:
      // Not confirmed: a payer who says they paid, or whose provider did not answer, waits for the job.
      return onwards(ctx, attempt.pidx, answer.kind === 'unknown' || claim === 'paid' ? 'provider_checking' : 'provider_not_paid');
  }
}
