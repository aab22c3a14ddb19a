// The hosted page's Fonepay QR (docs/fonepay.md): the QR page of an attempt, and the address its
// script asks which page comes next. Each answer asks Fonepay first when it is the request's turn
// (qr-wait.ts); a QR paid, declined or decided otherwise goes on through the provider's return
// address, which shows what came of it, as for a browser back from any provider.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { returnOrigins } from '../../doors/return-address.js';
import { setPageHeaders } from '../../http/page-headers.js';
import { payerSpeech } from '../../language/payer-speech.js';
import { effectiveStatus } from '../../payments/payment.js';
import { paymentPath } from '../../payments/payment-url.js';
import { findCheckout } from '../../portal/checkout-store.js';
import { findProviderSetup } from '../provider-setup.js';
import { askAboutQr, findQrAttempt } from './qr-wait.js';
import { qrPage } from './qr-page.js';

export function registerFonepayQrRoutes(app: FastifyInstance, ctx: AppContext) {
  /** The attempt and its payment, and the page that follows the QR page when there is one. */
  async function load(request: FastifyRequest, ask: boolean) {
    const found = await findQrAttempt(ctx, (request.params as { idx: string }).idx);
    const checkout = found && (await findCheckout(ctx.db, found.pidx));
    if (!found || !checkout) return undefined;
    const attempt = ask ? await askAboutQr(ctx, found) : found;
    const next =
      attempt.state !== 'Started' ? `/pay/return/fonepay/${attempt.idx}/qr` : effectiveStatus(checkout.payment, ctx.clock.now()) !== 'Initiated' ? paymentPath(checkout.payment.pidx) : undefined;
    return { qrMessage: found.qrMessage, attempt, checkout, next };
  }

  const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain').send('Not found');

  app.get('/pay/fonepay-qr/:idx', async (request, reply) => {
    const asked = (request.query as Record<string, unknown>).ask === '1';
    const loaded = await load(request, asked);
    if (!loaded) return notFound(reply);
    if (loaded.next) return reply.code(303).redirect(loaded.next);
    const { payment, merchant } = loaded.checkout;
    const setup = await findProviderSetup(ctx, loaded.attempt.provider, payment.environment);
    const sandboxBankApp = setup?.sandbox ? `${ctx.config.publicUrl}/sandbox/fonepay/bank-app?qr=${encodeURIComponent(loaded.qrMessage)}` : undefined;
    const page = await qrPage({ speech: payerSpeech(request), back: request.url, payment, businessName: merchant.name, attemptIdx: loaded.attempt.idx, qrMessage: loaded.qrMessage, notYet: asked, sandboxBankApp });
    return setPageHeaders(reply, { formActionOrigins: returnOrigins(payment) }).type('text/html; charset=utf-8').send(page.value);
  });

  // Asked by portal.js every two seconds while the page is open.
  app.get('/pay/fonepay-qr/:idx/wait', async (request, reply) => {
    const loaded = await load(request, true);
    if (!loaded) return reply.code(404).send({ error: 'not_found' });
    return reply.header('cache-control', 'no-store').send(loaded.next ? { next: loaded.next } : { waiting: true });
  });
}
