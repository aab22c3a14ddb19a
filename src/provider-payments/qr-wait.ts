// Waiting for a provider's QR to be paid (Fonepay's dynamic QR; docs/fonepay.md says why its status
// check rather than its WebSocket). While a payer's QR page is open it asks every two seconds which
// page comes next; whichever instance answers asks the provider at most once per two seconds per
// attempt, claimed in the store (lease_until), so any instance serves any page and one that dies
// loses nothing. A page closed meanwhile leaves the attempt to the reconciliation job, as any other.
import type { AppContext } from '../context.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import { descriptorOf } from '../providers/registry.js';
import type { Attempt } from './attempt-state-machine.js';
import { findAttempt } from './attempt-store.js';
import { measuredConnector } from './measured-connector.js';
import { settleAttempt } from './settle-attempt.js';

const ASK_EVERY_MS = 2000;

/** Where the QR page of an attempt is, and where its wait is asked about. */
export const qrPagePath = (attemptIdx: string) => `/pay/qr/${encodeURIComponent(attemptIdx)}`;
export const qrWaitPath = (attemptIdx: string) => `${qrPagePath(attemptIdx)}/wait`;

/** The attempt `idx` when it went the QR way, with the QR message it shows. */
export async function findQrAttempt(ctx: AppContext, idx: string): Promise<(Attempt & { qrMessage: string }) | undefined> {
  const attempt = /^[A-Za-z0-9]{1,40}$/.test(idx) ? await findAttempt(ctx.db, idx) : undefined;
  const qrMessage = attempt && descriptorOf(attempt.provider).qr?.messageOf(attempt.provider_reference);
  return attempt && qrMessage ? { ...attempt, qrMessage } : undefined;
}

/**
 * This request's turn to ask the provider about the attempt, unless another request or instance
 * holds it: held for as long as the provider may take to answer, then ASK_EVERY_MS after the answer.
 */
async function claimQuestion(ctx: AppContext, attempt: Attempt): Promise<boolean> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + ctx.config.providerTimeoutMs + ASK_EVERY_MS);
  const rows = await ctx.db.query(`UPDATE provider_attempts SET lease_until = $2 WHERE id = $1 AND state = 'Started' AND (lease_until IS NULL OR lease_until <= $3) RETURNING id`, [attempt.id, until, now]);
  return rows.length > 0;
}

/** The next question no sooner than ASK_EVERY_MS from now. */
async function askAgainIn(ctx: AppContext, attempt: Attempt): Promise<void> {
  await ctx.db.query(`UPDATE provider_attempts SET lease_until = $2 WHERE id = $1 AND state = 'Started'`, [attempt.id, new Date(ctx.clock.now().getTime() + ASK_EVERY_MS)]);
}

/**
 * Asks the provider whether the QR is paid, when it is this request's turn, and settles the attempt
 * on a final answer. "Not yet" changes nothing; an unknown answer is counted as the reconciliation
 * job counts it (the payer keeps waiting, the payment is not held). The attempt as it is now.
 */
export async function askAboutQr(ctx: AppContext, attempt: Attempt): Promise<Attempt> {
  if (attempt.state !== 'Started' || !(await claimQuestion(ctx, attempt))) return attempt;
  const setup = await findProviderSetup(ctx, attempt.provider, attempt.environment);
  if (!setup) return attempt;
  const answer = await measuredConnector(ctx, setup).status({ idx: attempt.idx, amount: attempt.amount, environment: attempt.environment, providerReference: attempt.provider_reference, createdAt: attempt.created_at });
  if (answer.kind === 'open') {
    await askAgainIn(ctx, attempt);
    return attempt;
  }
  await settleAttempt(ctx, attempt, answer, { payerBack: answer.kind === 'paid' });
  return (await findAttempt(ctx.db, attempt.idx)) ?? attempt;
}
