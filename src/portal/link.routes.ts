// A payment link's public addresses: its page /l/<code> and the form that
// starts a payment there, the receipt page the payer returns to, and its QR codes. The code is the
// capability; a code that names no link counts against the address it came from
// (people/link-guesses.ts), so codes cannot be searched for. Works without JavaScript; the form
// carries a CSRF token bound to the link; every page carries the security headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { csrfToken, csrfValid } from '../http/csrf.js';
import { errorHandler } from '../http/error-handler.js';
import type { Html } from '../http/html.js';
import { pageError } from '../http/page-errors.js';
import { field, queryText } from '../http/page-request.js';
import { setPageHeaders } from '../http/page-headers.js';
import { withinIpLimit } from '../http/rate-limit.js';
import { payerSpeech } from '../language/payer-speech.js';
import { liveRefusal } from '../merchants/approval-state-machine.js';
import type { Merchant } from '../merchants/merchant.js';
import { findMerchantById } from '../merchants/merchant-store.js';
import { effectiveStatus } from '../payments/payment.js';
import { findPayment } from '../payments/payment-store.js';
import { paymentPath } from '../payments/payment-url.js';
import { readPayerDetails, type PayerField } from '../payment-links/payer-details.js';
import { LINK_CODE, linkStatus, linkUrls, type PaymentLink } from '../payment-links/payment-link.js';
import { findLinkByCode } from '../payment-links/payment-link-store.js';
import { qrCodePng, qrCodeSvg } from '../payment-links/qr-code.js';
import { LinkUnavailableError, startLinkPayment } from '../payment-links/start-link-payment.js';
import { followLink, paymentLinkCodes } from '../people/link-guesses.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import type { PayerFrame } from './layout.js';
import { linkPage, receiptPage } from './link-pages.js';
import { noticePage } from './notice-page.js';

const PIDX = /^[\w-]{1,64}$/;
const FIELDS: PayerField[] = ['amount', 'name', 'phone', 'email'];

interface Loaded {
  link: PaymentLink;
  merchant: Merchant;
}

export async function paymentLinkPagesPlugin(app: FastifyInstance, { ctx, csrfSecret }: { ctx: AppContext; csrfSecret: Buffer }) {
  const { publicUrl, timeZone } = ctx.config;
  const secure = publicUrl.startsWith('https:');
  /** The payer's language, and this page's address for the language switch (a form's answer: the link's page). */
  const frameOf = (request: FastifyRequest): PayerFrame => {
    const { code } = (request.params ?? {}) as { code?: string };
    const back = request.method === 'GET' ? request.url : code && LINK_CODE.test(code) ? `/l/${code}` : '/l/';
    return { speech: payerSpeech(request), back };
  };

  // The form's answer redirects to the hosted page on PUBLIC_URL's origin: the browser checks
  // form-action against that redirect too.
  const send = (reply: FastifyReply, status: number, page: Html) =>
    setPageHeaders(reply, { formActionOrigins: [new URL(publicUrl).origin] })
      .code(status)
      .send(page.value);

  type Notice = Omit<Parameters<typeof noticePage>[0], keyof PayerFrame>;
  const notice = (request: FastifyRequest, reply: FastifyReply, status: number, content: Notice) => send(reply, status, noticePage({ ...frameOf(request), tone: 'error', ...content }));

  /** The link the address names, with its merchant; or the page saying there is none (404), or that this address guessed too often (429). */
  async function load(request: FastifyRequest, reply: FastifyReply): Promise<Loaded | undefined> {
    const { code } = request.params as { code: string };
    try {
      return await followLink(
        ctx,
        request.ip,
        async () => {
          if (!LINK_CODE.test(code)) return undefined;
          const link = await findLinkByCode(ctx.db, code);
          const merchant = link && (await findMerchantById(ctx.db, link.merchant_id));
          return link && merchant ? { link, merchant } : undefined;
        },
        paymentLinkCodes,
      );
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const { t } = payerSpeech(request);
      const refusal = linkRefusal(error, t.link.notFound.message);
      reply.headers(refusal.headers);
      if (refusal.status === 404) notice(request, reply, 404, t.link.notFound);
      else notice(request, reply, 429, { title: t.link.locked.title, message: t.link.locked.message(error.retryAfterSeconds) });
      return undefined;
    }
  }

  /** The page of a link that takes no payment now (410), or of a live link whose merchant may not take live payments (403); undefined when it takes payments. */
  function closedPage(request: FastifyRequest, reply: FastifyReply, { link, merchant }: Loaded) {
    const { t } = payerSpeech(request);
    const status = linkStatus(link, ctx.clock.now());
    if (status !== 'active') {
      const said = t.link[status];
      return notice(request, reply, 410, { title: said.title, message: `${said.message(merchant.name)} ${t.link.notCharged}`, environment: link.environment, tone: 'info' });
    }
    if (link.environment === 'live' && liveRefusal(merchant.status) !== undefined) {
      const said = t.notices.closedMerchant;
      return notice(request, reply, 403, { title: said.title, message: said.message(merchant.name), environment: link.environment });
    }
    return undefined;
  }

  const showLink = (request: FastifyRequest, reply: FastifyReply, { link, merchant }: Loaded, status = 200, form: Pick<Parameters<typeof linkPage>[0], 'values' | 'problems'> = {}) => {
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `link:${link.code}`, secure });
    return send(reply, status, linkPage({ ...frameOf(request), timeZone, link, business: merchant.name, csrf, ...form }));
  };

  // The payer's page in the portal's look while the database is away (or on any server error); a
  // request the parser refused (size, media type) keeps the API's JSON answer.
  app.setErrorHandler((error, request, reply) => {
    const appError = pageError(error, request, reply);
    if (appError.status < 500) return errorHandler(error, request, reply);
    const { t } = payerSpeech(request);
    const { code } = (request.params ?? {}) as { code?: string };
    const again = code && LINK_CODE.test(code) ? { href: `/l/${code}`, text: t.notices.tryAgain } : undefined;
    return notice(request, reply, appError.status, { ...(appError.code === 'unavailable' ? t.notices.outage : t.notices.failed), link: again });
  });

  app.get('/l/:code', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    return closedPage(request, reply, loaded) ?? showLink(request, reply, loaded);
  });

  app.post('/l/:code', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { t } = payerSpeech(request);
    if (!csrfValid(request, csrfSecret, `link:${loaded.link.code}`)) return notice(request, reply, 403, t.notices.formExpired);
    // Each start stores a payment: one address may start as many a minute as it may post MPINs.
    if (!(await withinIpLimit(ctx.limiter, request, reply, 'link-start', ctx.config.payerAttemptsPerMinute))) return notice(request, reply, 429, t.notices.tooMany);
    if (closedPage(request, reply, loaded)) return reply;
    const values = Object.fromEntries(FIELDS.map((name) => [name, field(request, name)]));
    const details = readPayerDetails(loaded.link, values);
    if (!details.ok) return showLink(request, reply, loaded, 400, { values, problems: details.problems });
    try {
      return reply.code(303).redirect(await startLinkPayment(ctx, { ...loaded, details: details.value }));
    } catch (error) {
      // Deactivated, expired or used up since the page was read.
      if (error instanceof LinkUnavailableError) return closedPage(request, reply, loaded) ?? reply;
      throw error;
    }
  });

  // Where the payer lands when the payment ends (its return_url). The query names the payment, and
  // nothing else in it is believed: the outcome is the store's.
  app.get('/l/:code/paid', async (request, reply) => {
    const pidx = queryText(request, 'pidx');
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { link, merchant } = loaded;
    const { t } = payerSpeech(request);
    const payment = PIDX.test(pidx) ? await findPayment(ctx.db, pidx) : undefined;
    if (!payment || payment.payment_link !== link.idx) {
      return notice(request, reply, 404, { ...t.receipt.notFound, environment: link.environment, link: { href: `/l/${link.code}`, text: t.receipt.payAgain } });
    }
    const takesPayments = linkStatus(link, ctx.clock.now()) === 'active';
    return send(
      reply,
      200,
      receiptPage({
        ...frameOf(request),
        // Only the payment, not whatever else the query held.
        back: `/l/${link.code}/paid?${new URLSearchParams({ pidx })}`,
        timeZone,
        payment,
        status: effectiveStatus(payment, ctx.clock.now()),
        business: merchant.name,
        environment: link.environment,
        linkPath: takesPayments ? `/l/${link.code}` : undefined,
        paymentPath: paymentPath(payment.pidx),
      }),
    );
  });

  // The QR codes: public, like the address they hold. Short-lived in caches: the name under the code may change.
  app.get('/l/:code/qr.svg', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { url } = linkUrls(publicUrl, loaded.link.code);
    const svg = await qrCodeSvg(url, loaded.merchant.name, `${payerSpeech(request).t.link.title(loaded.merchant.name)}: ${url}`);
    return image(reply, 'image/svg+xml; charset=utf-8').send(svg);
  });

  app.get('/l/:code/qr.png', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    return image(reply, 'image/png').send(await qrCodePng(linkUrls(publicUrl, loaded.link.code).url));
  });
}

function image(reply: FastifyReply, type: string): FastifyReply {
  return reply
    .type(type)
    .header('cache-control', 'public, max-age=300')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .header('x-content-type-options', 'nosniff');
}
