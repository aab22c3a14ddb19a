// The payer picks a provider on the hosted page: an attempt is started there
// and the payer sent to its page. Nothing is paid by this; the payment stays payable, so a payer who
// comes back can try another way.
import type { AppContext } from '../context.js';
import type { Merchant } from '../merchants/merchant.js';
import { assertPayable } from '../payments/payable.js';
import type { Payment } from '../payments/payment.js';
import { PayerError } from '../payments/payer-error.js';
import { moveAttempt } from './attempt-state-machine.js';
import { insertAttempt } from './attempt-store.js';
import { measuredConnector } from './measured-connector.js';
import { offeredFor } from './offered-providers.js';
import { ProviderRefusedError, ProviderUnavailableError, type ProviderRedirect } from '../providers/provider.js';
import { descriptorOf, type ProviderName } from '../providers/registry.js';
import { qrPagePath } from './qr-wait.js';
import { findProviderSetup } from '../providers/provider-setup.js';

/** Where a provider sends the payer back: PUBLIC_URL/pay/return/<provider>/<attempt>/<outcome>. */
export const returnUrl = (publicUrl: string, name: ProviderName, attemptIdx: string, outcome: 'success' | 'failure') =>
  `${publicUrl}/pay/return/${name}/${encodeURIComponent(attemptIdx)}/${outcome}`;

/**
 * `way`: `qr` for the provider's QR, which the hosted page shows (the payer goes to its page there);
 * otherwise the provider's own page. `whileStoring`: work on the QR issued (drawing it for its
 * page), done while the store writes the attempt rather than after.
 */
export async function startProviderAttempt(
  ctx: AppContext,
  { payment, merchant }: { payment: Payment; merchant: Pick<Merchant, 'name'> },
  name: ProviderName,
  way: 'page' | 'qr' = 'page',
  whileStoring?: (qrMessage: string) => void,
): Promise<ProviderRedirect> {
  const now = ctx.clock.now();
  await assertPayable(ctx.db, payment, now);
  if (!(await offeredFor(ctx, payment)).includes(name)) throw new PayerError('provider_unavailable');
  const setup = await findProviderSetup(ctx, name, payment.environment);
  const qr = descriptorOf(name).qr;
  if (!setup?.enabled || (way === 'qr' && !qr) || (way === 'page' && qr?.only)) throw new PayerError('provider_unavailable');
  // 12 random bytes: 17 letters and digits, within connectIPS's 20 for a TXNID.
  const idx = ctx.ids.random(12);
  const attempt = { idx, pidx: payment.pidx, environment: payment.environment, provider: name, amount: payment.amount, now, nextCheckAt: new Date(now.getTime() + ctx.config.providerReconcileIntervalSeconds * 2000) };
  const connector = measuredConnector(ctx, setup);
  try {
    const toStart = {
      idx,
      amount: payment.amount,
      environment: payment.environment,
      providerReference: null,
      createdAt: now,
      pidx: payment.pidx,
      orderName: payment.purchase_order_name,
      merchantName: merchant.name,
      websiteUrl: payment.website_url,
      customer: payment.customer_info,
      returnUrl: (outcome: 'success' | 'failure') => returnUrl(ctx.config.publicUrl, name, idx, outcome),
    };
    const started = way === 'qr' ? { ...(await connector.startQr(toStart)), redirect: { method: 'GET', url: qrPagePath(idx) } as const } : await connector.start(toStart);
    // Stored before the payer is handed over, with the provider's own id of it: a crash before this
    // leaves at most a payment at the provider that nobody was sent to.
    const storing = insertAttempt(ctx.db, { ...attempt, provider_reference: started.providerReference ?? null });
    if ('qrMessage' in started && whileStoring) {
      storing.catch(() => {}); // awaited below
      await new Promise(setImmediate); // the statement on its way to the store first
      whileStoring(started.qrMessage);
    }
    await storing;
    return started.redirect;
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError) && !(error instanceof ProviderRefusedError)) throw error;
    // The payer never reached the provider: nothing can have been paid through this attempt.
    const failed = await insertAttempt(ctx.db, { ...attempt, provider_reference: null });
    await moveAttempt(ctx.db, failed, 'fail', { answer: `could not start: ${error.message}` }, ctx.clock.now());
    // A refusal is this payment's, not an outage: the payer's request (400), the provider still offered.
    throw new PayerError(error instanceof ProviderRefusedError ? 'provider_unavailable' : 'provider_not_answering');
  }
}
