// Waiting for a provider's QR to be paid (Fonepay's dynamic QR; docs/fonepay.md says why its status
// check rather than its WebSocket). While a payer's QR page is open it asks every two seconds which
// page comes next; whichever instance answers asks the provider when it is the attempt's turn
// (ask-provider.ts: once at a time, at most once per two seconds, shared with returns and the job),
// so any instance serves any page and one that dies loses nothing. A page closed meanwhile leaves the
// attempt to the reconciliation job, as any other.
import type { AppContext } from '../context.js';
import { qrMessageOf } from '../providers/connectors.js';
import type { Attempt } from './attempt-state-machine.js';
import { findAttempt, isAttemptIdx } from './attempt-store.js';
import { askClaimed, claimTurn } from './ask-provider.js';
import type { Settled } from './settle-attempt.js';

/** Where the QR page of an attempt is, and where its wait is asked about. */
export const qrPagePath = (attemptIdx: string) => `/pay/qr/${encodeURIComponent(attemptIdx)}`;
export const qrWaitPath = (attemptIdx: string) => `${qrPagePath(attemptIdx)}/wait`;

export type QrAttempt = Attempt & { qrMessage: string };

/** The attempt with the QR message it shows, when it went the QR way. */
function withQr(attempt: Attempt | undefined): QrAttempt | undefined {
  const qrMessage = attempt && qrMessageOf(attempt.provider, attempt.provider_reference);
  return attempt && qrMessage ? { ...attempt, qrMessage } : undefined;
}

/** The attempt `idx` when it went the QR way, with the QR message it shows. */
export async function findQrAttempt(ctx: AppContext, idx: string): Promise<QrAttempt | undefined> {
  return isAttemptIdx(idx) ? withQr(await findAttempt(ctx.db, idx)) : undefined;
}

/**
 * The QR attempt `idx`, after asking the provider whether it is paid when it is this request's turn:
 * the attempt as read before, and what its settlement made of a final answer. The page is anyone's:
 * "not yet" and an unknown answer change nothing (the payer keeps waiting, the job asks on).
 */
export async function askAboutQr(ctx: AppContext, idx: string): Promise<{ attempt: QrAttempt; settled?: Settled } | undefined> {
  const found = isAttemptIdx(idx) ? withQr(await findAttempt(ctx.db, idx)) : undefined;
  if (!found) return undefined;
  const claimed = found.state === 'Started' ? await claimTurn(ctx, found) : undefined;
  // Settled, or another request's turn: the attempt as it is.
  if (!claimed) return { attempt: found };
  const { settled } = await askClaimed(ctx, claimed, 'browser');
  return { attempt: found, settled: settled.kind === 'waiting' ? undefined : settled };
}
