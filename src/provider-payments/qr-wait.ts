// Waiting for a provider's QR to be paid (Fonepay's dynamic QR; docs/fonepay.md says why its status
// check rather than its WebSocket). While a payer's QR page is open it asks every two seconds which
// page comes next; whichever instance answers asks the provider at most once per two seconds per
// attempt, claimed in the store (lease_until), so any instance serves any page and one that dies
// loses nothing. A page closed meanwhile leaves the attempt to the reconciliation job, as any other.
import type { AppContext } from '../context.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import { descriptorOf } from '../providers/registry.js';
import type { Attempt } from './attempt-state-machine.js';
import { findAttempt, isAttemptIdx, leaseAttemptUntil, leaseStartedAttempt } from './attempt-store.js';
import { measuredConnector } from './measured-connector.js';
import { settleAttempt, type Settled } from './settle-attempt.js';

const ASK_EVERY_MS = 2000;

/** Where the QR page of an attempt is, and where its wait is asked about. */
export const qrPagePath = (attemptIdx: string) => `/pay/qr/${encodeURIComponent(attemptIdx)}`;
export const qrWaitPath = (attemptIdx: string) => `${qrPagePath(attemptIdx)}/wait`;

export type QrAttempt = Attempt & { qrMessage: string };

/** The attempt with the QR message it shows, when it went the QR way. */
function withQr(attempt: Attempt | undefined): QrAttempt | undefined {
  const qrMessage = attempt && descriptorOf(attempt.provider).qr?.messageOf(attempt.provider_reference);
  return attempt && qrMessage ? { ...attempt, qrMessage } : undefined;
}

/** The attempt `idx` when it went the QR way, with the QR message it shows. */
export async function findQrAttempt(ctx: AppContext, idx: string): Promise<QrAttempt | undefined> {
  return isAttemptIdx(idx) ? withQr(await findAttempt(ctx.db, idx)) : undefined;
}

/**
 * The QR attempt `idx`, after asking the provider whether it is paid when it is this request's turn:
 * the attempt as read before, and what its settlement made of a final answer. The turn is claimed in
 * the store for as long as the provider may take to answer, then ASK_EVERY_MS after the answer.
 * "Not yet" changes nothing; an unknown answer is counted as the reconciliation job counts it (the
 * payer keeps waiting, the payment is not held).
 */
export async function askAboutQr(ctx: AppContext, idx: string): Promise<{ attempt: QrAttempt; settled?: Settled } | undefined> {
  if (!isAttemptIdx(idx)) return undefined;
  const now = ctx.clock.now();
  const claimed = await leaseStartedAttempt(ctx.db, idx, now, new Date(now.getTime() + ctx.config.providerTimeoutMs + ASK_EVERY_MS));
  // Settled, or another request's turn: the attempt as it is.
  if (!claimed) {
    const attempt = withQr(await findAttempt(ctx.db, idx));
    return attempt && { attempt };
  }
  const attempt = withQr(claimed);
  if (!attempt) {
    // Not a QR attempt: its turn given back at once, for the reconciliation job.
    await leaseAttemptUntil(ctx.db, claimed.id, now);
    return undefined;
  }
  const setup = await findProviderSetup(ctx, attempt.provider, attempt.environment);
  if (!setup) return { attempt };
  const answer = await measuredConnector(ctx, setup).status({ idx: attempt.idx, amount: attempt.amount, environment: attempt.environment, providerReference: attempt.provider_reference, createdAt: attempt.created_at });
  if (answer.kind === 'open') {
    await leaseAttemptUntil(ctx.db, attempt.id, new Date(ctx.clock.now().getTime() + ASK_EVERY_MS));
    return { attempt };
  }
  return { attempt, settled: await settleAttempt(ctx, attempt, answer, { payerBack: answer.kind === 'paid' }) };
}
