// The demo shop at /demo: a merchant's website built on the typed client, the way an integrator
// would build one. Buy → initiate → the payer pays on the hosted page → /demo/return verifies the
// callback's signature and confirms with a lookup. It talks to this server over HTTP at PUBLIC_URL,
// exactly as a shop elsewhere would.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationError, BhuktaniClient, BhuktaniError, NotFoundError } from '../client/index.js';
import type { AppContext } from '../context.js';
import { csrfToken, csrfValid } from '../http/csrf.js';
import type { Html } from '../http/html.js';
import { setPageHeaders } from '../http/page-headers.js';
import { signingSecret } from '../merchants/signing-secret.js';
import { payerSpeech } from '../language/payer-speech.js';
import { noticePage, resultPage, shopPage, unavailablePage, type ShopFrame } from './demo-pages.js';
import { findDemoMerchant } from './ensure-demo-merchant.js';
import { DELIVERY_PAISA, findProduct } from './products.js';

/** The CSRF token of the buy forms is bound to the shop, not to a payment. */
const CSRF_BINDING = 'demo-shop';

interface Shop {
  client: BhuktaniClient;
  signingSecret: string;
}

/** `made`: settles once the demo merchant is made or found (after the server listens). */
export async function demoPlugin(app: FastifyInstance, { ctx, csrfSecret, made }: { ctx: AppContext; csrfSecret: Buffer; made?: Promise<unknown> }) {
  const publicUrl = ctx.config.publicUrl;
  const secure = publicUrl.startsWith('https:');
  let shop: Shop | undefined;

  /** The demo merchant's client, or undefined when this store has no demo merchant. */
  async function loadShop(): Promise<Shop | undefined> {
    if (shop) return shop;
    await made?.catch(() => {}); // its failure is logged where it is made
    const demo = await findDemoMerchant(ctx);
    if (!demo) return undefined;
    shop = {
      client: new BhuktaniClient({ baseUrl: publicUrl, secretKey: demo.testSecretKey }),
      signingSecret: await signingSecret(ctx.db, demo.merchant.id, 'test', ctx.clock.now()),
    };
    return shop;
  }

  // The buy form's answer redirects to payment_url, on PUBLIC_URL's origin: the browser checks
  // form-action against that redirect too.
  const send = (reply: FastifyReply, status: number, page: Html) =>
    setPageHeaders(reply, { formActionOrigins: [new URL(publicUrl).origin] })
      .code(status)
      .send(page.value);

  /** The payer's language, and this page's address for the switch: a form's answer comes back to the shop. */
  const frameOf = (request: FastifyRequest): ShopFrame => ({ speech: payerSpeech(request), back: request.method === 'GET' ? request.url : '/demo' });

  const shopFront = (request: FastifyRequest, reply: FastifyReply, status = 200, message?: string) =>
    send(reply, status, shopPage(frameOf(request), { csrf: csrfToken(request, reply, csrfSecret, { binding: CSRF_BINDING, secure }), message }));

  const failed = (request: FastifyRequest, reply: FastifyReply, error: unknown, title: string) => {
    if (!(error instanceof BhuktaniError)) throw error;
    request.log.warn({ err: error }, `demo shop: ${title}`);
    if (error instanceof AuthenticationError) shop = undefined;
    return send(reply, 502, noticePage(frameOf(request), { title, message: payerSpeech(request).t.demo.bhuktaniAnswered(error.message), tone: 'error' }));
  };

  app.get('/demo', async (request, reply) => {
    if (!(await loadShop())) return send(reply, 404, unavailablePage(frameOf(request)));
    return shopFront(request, reply);
  });

  app.post('/demo/buy', async (request, reply) => {
    const current = await loadShop();
    if (!current) return send(reply, 404, unavailablePage(frameOf(request)));
    const { t } = payerSpeech(request);
    if (!csrfValid(request, csrfSecret, CSRF_BINDING)) return send(reply, 403, noticePage(frameOf(request), { ...t.demo.formExpired, tone: 'error' }));
    const product = findProduct((request.body as Record<string, unknown> | undefined)?.product);
    if (!product) return shopFront(request, reply, 400, t.demo.pickATea);
    const orderId = `demo-${ctx.ids.random(9)}`;
    try {
      const { payment_url } = await current.client.initiate(
        {
          return_url: `${publicUrl}/demo/return`,
          website_url: `${publicUrl}/demo`,
          amount: product.price + DELIVERY_PAISA,
          purchase_order_id: orderId,
          purchase_order_name: product.name,
          amount_breakdown: [
            { label: product.name, amount: product.price },
            // The shop writes its order in the payer's language, as a shop would.
            { label: t.demo.delivery, amount: DELIVERY_PAISA },
          ],
          product_details: [{ identity: product.id, name: product.name, total_price: product.price, quantity: 1, unit_price: product.price }],
          merchant_extra: 'demo shop',
        },
        { idempotencyKey: orderId },
      );
      return reply.code(303).redirect(payment_url);
    } catch (error) {
      return failed(request, reply, error, t.demo.couldNotStart);
    }
  });

  app.get('/demo/return', async (request, reply) => {
    const current = await loadShop();
    if (!current) return send(reply, 404, unavailablePage(frameOf(request)));
    const { t } = payerSpeech(request);
    const params = new URL(request.url, 'http://demo.invalid').searchParams;
    const pidx = params.get('pidx');
    if (!pidx) return send(reply, 400, noticePage(frameOf(request), t.demo.noOrder));
    // The redirect is only a hint: a signature that holds proves it came from Bhuktani, and the
    // lookup is the final word on the status.
    if (!current.client.verifyCallback(params, current.signingSecret)) return send(reply, 400, noticePage(frameOf(request), { ...t.demo.notVerified, tone: 'error' }));
    try {
      const lookup = await current.client.lookup(pidx);
      return send(reply, 200, resultPage(frameOf(request), { lookup, orderName: params.get('purchase_order_name') ?? '' }));
    } catch (error) {
      if (error instanceof NotFoundError) return send(reply, 404, noticePage(frameOf(request), { ...t.demo.orderNotFound, tone: 'error' }));
      return failed(request, reply, error, t.demo.couldNotCheck);
    }
  });
}
