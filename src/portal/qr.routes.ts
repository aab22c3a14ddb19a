// The hosted page's QR way (Fonepay's dynamic QR): the QR page of an attempt, and the address its
// script asks which page comes next. Each answer asks the provider first when it is the request's
// turn (provider-payments/qr-wait.ts); a QR paid goes straight on to the merchant, one declined or
// decided otherwise through the provider's return address (…/<attempt>/qr), which shows what came of it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { returnAddress, returnOrigins } from '../doors/return-address.js';
import { setPageHeaders } from '../http/page-headers.js';
import { payerSpeech } from '../language/payer-speech.js';
import { effectiveStatus } from '../payments/payment.js';
import { paymentPath } from '../payments/payment-url.js';
import type { Attempt } from '../provider-payments/attempt-state-machine.js';
import { askAboutQr, findQrAttempt, type QrAttempt } from '../provider-payments/qr-wait.js';
import { settledReturn } from '../provider-payments/return-from-provider.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import { descriptorOf } from '../providers/registry.js';
import { findCheckout, type Checkout } from './checkout-store.js';
import { qrPage } from './qr-page.js';

/** `notFound`: the hosted page's own not-found page. */
export function registerQrRoutes(app: FastifyInstance, ctx: AppContext, notFound: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  /**
   * Where an ended QR attempt leads: paid (or held on the provider's unknown answer), straight on to the
   * merchant, as the provider's return address would send the payer; anything else through that
   * address, which shows what came of it.
   */
  async function afterQr(attempt: Attempt): Promise<string> {
    const settled = await settledReturn(ctx, attempt);
    return settled.kind === 'merchant' ? returnAddress(ctx, settled.back) : `/pay/return/${attempt.provider}/${attempt.idx}/qr`;
  }

  /**
   * The page that follows the QR page when there is one (`next`); otherwise the attempt and its
   * payment, to show the QR again. `ask`: the provider is asked first when it is this request's turn.
   */
  async function load(request: FastifyRequest, ask: boolean): Promise<{ next: string } | { next?: undefined; attempt: QrAttempt; checkout: Checkout } | undefined> {
    const idx = (request.params as { idx: string }).idx;
    const asked = ask ? await askAboutQr(ctx, idx) : undefined;
    // Paid now: the payment the settlement moved goes straight on to the merchant.
    if (asked?.settled?.kind === 'completed') return { next: await returnAddress(ctx, { payment: asked.settled.payment, status: 'Completed' }) };
    const attempt = asked && !asked.settled ? asked.attempt : await findQrAttempt(ctx, idx);
    if (!attempt) return undefined;
    if (attempt.state !== 'Started') return { next: await afterQr(attempt) };
    const checkout = await findCheckout(ctx.db, attempt.pidx);
    if (!checkout) return undefined;
    if (effectiveStatus(checkout.payment, ctx.clock.now()) !== 'Initiated') return { next: paymentPath(checkout.payment.pidx) };
    return { attempt, checkout };
  }

  app.get('/pay/qr/:idx', async (request, reply) => {
    const asked = (request.query as Record<string, unknown>).ask === '1';
    const loaded = await load(request, asked);
    if (!loaded) return notFound(request, reply);
    if (loaded.next !== undefined) return reply.code(303).redirect(loaded.next);
    const { payment, merchant } = loaded.checkout;
    const setup = await findProviderSetup(ctx, loaded.attempt.provider, payment.environment);
    const qr = descriptorOf(loaded.attempt.provider).qr!;
    const sandboxBankApp = setup?.sandbox ? `${ctx.config.publicUrl}${qr.sandboxBankApp(loaded.attempt.qrMessage)}` : undefined;
    const way = qr.label;
    const page = await qrPage({ speech: payerSpeech(request), back: request.url, payment, now: ctx.clock.now(), way, businessName: merchant.name, attemptIdx: loaded.attempt.idx, qrMessage: loaded.attempt.qrMessage, notYet: asked, sandboxBankApp });
    return setPageHeaders(reply, { formActionOrigins: returnOrigins(payment) }).type('text/html; charset=utf-8').send(page.value);
  });

  // Asked by portal.js every two seconds while the page is open.
  app.get('/pay/qr/:idx/wait', async (request, reply) => {
    const loaded = await load(request, true);
    if (!loaded) return reply.code(404).send({ error: 'not_found' });
    return reply.header('cache-control', 'no-store').send(loaded.next !== undefined ? { next: loaded.next } : { waiting: true });
  });
}
