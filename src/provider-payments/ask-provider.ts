// Asking a provider about an attempt, whoever asks: the payer's return, the QR page's wait, the
// reconciliation job. One question per attempt at a time and at most one every ASK_EVERY_MS: the
// turn is claimed in the store (lease_until) for as long as the provider may take to answer, then
// held ASK_EVERY_MS past its answer, so it holds across instances. A flood of returns for one
// attempt makes one call, and an instance that dies mid-question frees the turn when its claim passes.
import type { AppContext } from '../context.js';
import type { ProviderAnswer } from '../providers/provider.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import type { Attempt } from './attempt-state-machine.js';
import { claimAttemptTurn, endTurnUntil } from './attempt-store.js';
import { measuredConnector } from './measured-connector.js';
import { settleAttempt, type Asker, type Settled } from './settle-attempt.js';

export const ASK_EVERY_MS = 2000;

/** The attempt, claimed for this request's question; undefined when another asks, or asked within ASK_EVERY_MS. */
export async function claimTurn(ctx: AppContext, attempt: Pick<Attempt, 'id'>): Promise<Attempt | undefined> {
  const now = ctx.clock.now();
  return claimAttemptTurn(ctx.db, attempt.id, now, new Date(now.getTime() + ctx.config.providerTimeoutMs + ASK_EVERY_MS));
}

/** Asks the provider about an attempt whose turn this request holds, settles on the answer, and ends the turn. */
export async function askClaimed(ctx: AppContext, attempt: Attempt, asker: Asker): Promise<{ answer: ProviderAnswer; settled: Settled }> {
  const setup = await findProviderSetup(ctx, attempt.provider, attempt.environment);
  const answer: ProviderAnswer = setup
    ? await measuredConnector(ctx, setup).status({ idx: attempt.idx, amount: attempt.amount, environment: attempt.environment, providerReference: attempt.provider_reference, createdAt: attempt.created_at })
    : { kind: 'unknown', detail: `${attempt.provider} is not set up in ${attempt.environment}` };
  const settled = await settleAttempt(ctx, attempt, answer, { asker });
  // Still to be asked about (Started, or held Unknown): no question before ASK_EVERY_MS. Settled for
  // good, it is asked about no more, and the turn needs no ending (a statement the payer waits for).
  if (settled.kind === 'waiting' || settled.kind === 'held') await endTurnUntil(ctx.db, attempt.id, new Date(ctx.clock.now().getTime() + ASK_EVERY_MS));
  return { answer, settled };
}
