// The hosted payment portal: GET the page, POST each step. Works without JavaScript; every form
// carries a CSRF token; every page carries the security headers. Each step answers at two
// addresses: the payment in the query (`/pay/?pidx=…`, `/pay/wallet?pidx=…`), which the page gives
// out, and in the path (`/pay/<pidx>`, `/pay/<pidx>/wallet`), given out before and kept working.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { AppContext } from '../context.js';
import { csrfToken, csrfValid } from '../http/csrf.js';
import { errorHandler } from '../http/error-handler.js';
import type { Html } from '../http/html.js';
import { asciiDigits } from '../http/money.js';
import { pageError } from '../http/page-errors.js';
import { setPageHeaders } from '../http/page-headers.js';
import { withinIpLimit } from '../http/rate-limit.js';
import { cancelPayment } from '../payments/cancel-payment.js';
import { liveRefusal } from '../merchants/approval-state-machine.js';
import { confirmPayment } from '../payments/confirm-payment.js';
import { returnAddress, returnOrigins } from '../doors/return-address.js';
import { orderPaidElsewhere } from '../payments/payable.js';
import { effectiveStatus, type Payment } from '../payments/payment.js';
import { PayerError, payerErrorCodes, type PayerErrorCode } from '../payments/payer-error.js';
import { paymentPath } from '../payments/payment-url.js';
import { returnStatusOf } from '../payments/return-status.js';
import { startPaymentAttempt } from '../payments/start-payment-attempt.js';
import { findLinkByIdx } from '../payment-links/payment-link-store.js';
import type { PostedStep } from './checkout-address.js';
import { checkoutPage, type StepNote, type Step } from './checkout-page.js';
import { findCheckout, type Checkout } from './checkout-store.js';
import { registerLanguageSwitch } from '../language/language-switch.route.js';
import { payerSpeech } from '../language/payer-speech.js';
import type { PayerFrame } from './layout.js';
import { noticePage } from './notice-page.js';
import { handoffPage, onwardPage } from './ways-to-pay.js';
import { offeredFor } from '../provider-payments/offered-providers.js';
import { listPaymentAttempts } from '../provider-payments/attempt-store.js';
import { qrMessageOf } from '../providers/connectors.js';
import { descriptorOf, isProviderName, providerLabel } from '../providers/registry.js';
import { returnFromProvider } from '../provider-payments/return-from-provider.js';
import { startProviderAttempt } from '../provider-payments/start-attempt.js';
import { drawAhead } from '../payment-links/qr-code.js';
import { registerQrRoutes } from './qr.routes.js';

const PIDX = /^[\w-]{1,64}$/;
/** An attempt token as issued (base64url); anything else names no attempt, and never reaches the store. */
const ATTEMPT = /^[\w-]{1,64}$/;

/** A query parameter given once; a repeated one names nothing (''), a missing one is undefined. */
function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return value === undefined || typeof value === 'string' ? value : '';
}

/** The pidx the address names, in its path (`/pay/<pidx>/…`) or its query (`/pay/…?pidx=`). */
function pidxOf(request: FastifyRequest): string {
  return (request.params as { pidx?: string }).pidx ?? queryValue(request, 'pidx') ?? '';
}

export async function portalPlugin(app: FastifyInstance, { ctx, csrfSecret }: { ctx: AppContext; csrfSecret: Buffer }) {
  const secure = ctx.config.publicUrl.startsWith('https:');

  const send = (reply: FastifyReply, status: number, page: Html, payment?: Payment) =>
    setPageHeaders(reply, { formActionOrigins: payment ? returnOrigins(payment) : [] })
      .code(status)
      .send(page.value);

  /** The payer's language, and this page's address for the language switch: a form's answer comes back to its step's page. */
  const frameOf = (request: FastifyRequest, step?: Step): PayerFrame => {
    const pidx = pidxOf(request);
    const back = request.method === 'GET' ? request.url : PIDX.test(pidx) ? paymentPath(pidx, step?.name === 'otp' ? step.token : undefined) : '/pay';
    return { speech: payerSpeech(request), back };
  };

  type Notice = Omit<Parameters<typeof noticePage>[0], keyof PayerFrame>;
  const notice = (request: FastifyRequest, reply: FastifyReply, status: number, content: Notice) => send(reply, status, noticePage({ ...frameOf(request), ...content }));

  const notFound = (request: FastifyRequest, reply: FastifyReply) => notice(request, reply, 404, { ...payerSpeech(request).t.notices.notFound, tone: 'error' });

  /** The payment of the URL, with the attempt `token` names when it is one of this payment's. */
  async function load(request: FastifyRequest, reply: FastifyReply, token?: string): Promise<Checkout | undefined> {
    const pidx = pidxOf(request);
    const checkout = PIDX.test(pidx) ? await findCheckout(ctx.db, pidx, token !== undefined && ATTEMPT.test(token) ? token : undefined) : undefined;
    if (!checkout) notFound(request, reply);
    return checkout;
  }

  /**
   * The page for a live payment of a merchant that may not take live payments (not approved, or
   * suspended), or undefined. Checked on every step before anything is done, so no MPIN or OTP of
   * such a payment is ever checked and no money moves; the payer is not told the merchant's reason.
   */
  function closedMerchantPage(request: FastifyRequest, reply: FastifyReply, { payment, merchant }: Checkout) {
    if (payment.environment !== 'live' || liveRefusal(merchant.status) === undefined) return undefined;
    const { t } = payerSpeech(request);
    return notice(request, reply, 403, {
      title: t.notices.closedMerchant.title,
      message: t.notices.closedMerchant.message(merchant.name),
      environment: payment.environment,
      link: { href: payment.website_url, text: t.notices.backTo(merchant.name) },
      tone: 'error',
    });
  }

  /**
   * Answers with the page for a payment that cannot take a payment now: true when it did. A boolean,
   * never the reply: an async function returning the reply (a thenable) resolves to undefined, and
   * the step would go on to answer a second time.
   */
  async function unpayablePage(request: FastifyRequest, reply: FastifyReply, { payment, merchant }: Checkout, reason?: PayerError): Promise<boolean> {
    const { t } = payerSpeech(request);
    const environment = payment.environment;
    const status = effectiveStatus(payment, ctx.clock.now());
    const backToShop = { href: payment.website_url, text: t.notices.backTo(merchant.name) };
    const finished = returnStatusOf(payment);
    if (status === 'Expired' || reason?.code === 'payment_expired') {
      notice(request, reply, 410, { ...t.notices.expired, environment, link: backToShop, tone: 'error' });
    } else if (finished) {
      const said = t.notices.finished;
      const message = finished === 'User canceled' ? said.canceled : finished === 'Pending' ? said.pending : said.complete;
      const back = { href: await returnAddress(ctx, { payment, status: finished }), text: said.returnTo(merchant.name) };
      notice(request, reply, 200, { title: said.title, message, environment, link: back, tone: finished === 'Completed' ? 'success' : 'info' });
    } else if (reason?.code === 'order_paid' || (status === 'Initiated' && (await orderPaidElsewhere(ctx.db, payment)))) {
      notice(request, reply, 409, { ...t.notices.orderPaid, environment, link: backToShop });
    } else if (reason?.code === 'not_payable') {
      notice(request, reply, 409, { title: t.notices.notPayable.title, message: t.payerErrors.not_payable, environment, link: backToShop, tone: 'error' });
    } else if (reason?.code === 'link_used_up' || (status === 'Initiated' && (await linkUsedUp(payment)))) {
      notice(request, reply, 409, { title: t.notices.linkUsedUp.title, message: t.payerErrors.link_used_up, environment, link: backToShop, tone: 'error' });
    } else {
      return false;
    }
    return true;
  }

  /**
   * Whether the payment's payment link has taken all the payments it allows: then no MPIN or OTP is
   * asked for it. Payers who started before the last one completed may race to it; the completion
   * decides (completion-store), and the others are told so, uncharged.
   */
  async function linkUsedUp(payment: Payment): Promise<boolean> {
    if (!payment.payment_link) return false;
    const link = await findLinkByIdx(ctx.db, payment.payment_link);
    return link !== undefined && link.max_payments !== null && link.payments_taken >= link.max_payments;
  }

  const page = async (request: FastifyRequest, reply: FastifyReply, loaded: Checkout, step: Step, status = 200, message?: string | StepNote) => {
    const csrf = csrfToken(request, reply, csrfSecret, { binding: loaded.payment.pidx, secure });
    const providers = step.name === 'wallet' ? await offeredFor(ctx, loaded.payment) : [];
    const notice = typeof message === 'string' ? { text: message, tone: 'error' as const } : message;
    return send(reply, status, checkoutPage({ ...frameOf(request, step), ...loaded, now: ctx.clock.now(), step, csrf, message: notice, providers }), loaded.payment);
  };

  /**
   * A notice the hosted page was sent back with (`?notice=`): a provider's payer message only, in the
   * payer's language. Not paid there names the provider the payer comes back from (the payment's
   * latest attempt), and is no error: the payer may well have canceled there. A QR declined in the
   * bank app says so: the payer never left this site.
   */
  const noticeOf = async (request: FastifyRequest, payment: Payment): Promise<StepNote | undefined> => {
    const code = queryValue(request, 'notice');
    if (!code?.startsWith('provider_') || !(payerErrorCodes as readonly string[]).includes(code)) return undefined;
    const { t } = payerSpeech(request);
    if (code !== 'provider_not_paid' && code !== 'provider_checking') return { text: t.payerErrors[code as PayerErrorCode], tone: 'error' };
    const latest = (await listPaymentAttempts(ctx.db, payment.pidx)).at(-1);
    if (!latest) return { text: t.payerErrors[code], tone: 'info' };
    const qr = qrMessageOf(latest.provider, latest.provider_reference) === undefined ? undefined : descriptorOf(latest.provider).qr;
    if (qr && code === 'provider_not_paid') return { text: t.providers.qrDeclined(qr.label), tone: 'info' };
    const named = code === 'provider_not_paid' ? t.providers.notPaidThere : t.providers.notConfirmedThere;
    return { text: named(qr?.label ?? providerLabel(latest.provider)), tone: 'info' };
  };

  /** What the payer is told of a refused step, in their language. */
  function messageFor(request: FastifyRequest, error: PayerError): string {
    const { t } = payerSpeech(request);
    if (error.code === 'wrong_mpin' || error.code === 'wrong_otp') return `${t.payerErrors[error.code]} ${t.payerErrors.attemptsLeft(error.details.attemptsLeft ?? 0)}`;
    if (error.code === 'wallet_locked' && error.details.lockedUntil) {
      return t.payerErrors.lockedFor(Math.max(1, Math.ceil((error.details.lockedUntil.getTime() - ctx.clock.now().getTime()) / 60000)));
    }
    return t.payerErrors[error.code];
  }

  /** MPIN and OTP posts per client IP: a brute force across many payments meets a wall. True when it answered 429 (a boolean: see unpayablePage). */
  const throttled = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (await withinIpLimit(ctx.limiter, request, reply, 'payer', ctx.config.payerAttemptsPerMinute)) return false;
    notice(request, reply, 429, { ...payerSpeech(request).t.notices.tooMany, tone: 'error' });
    return true;
  };

  const csrfRejected = (request: FastifyRequest, reply: FastifyReply) => notice(request, reply, 403, { ...payerSpeech(request).t.notices.formExpired, tone: 'error' });

  // The payer's page in the portal's look while the database is away (or on any server error);
  // a request the parser refused (size, media type) keeps the API's JSON answer.
  app.setErrorHandler((error, request, reply) => {
    const appError = pageError(error, request, reply);
    if (appError.status < 500) return errorHandler(error, request, reply);
    const { t } = payerSpeech(request);
    const pidx = pidxOf(request);
    const again = PIDX.test(pidx) ? { href: paymentPath(pidx), text: t.notices.tryAgain } : undefined;
    return notice(request, reply, appError.status, { ...(appError.code === 'unavailable' ? t.notices.outage : t.notices.failed), link: again, tone: 'error' });
  });

  /** A form field as text, Devanagari digits as the digits they are (a Nepali keyboard types them). */
  const text = (body: unknown, name: string): string => {
    const value = (body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? asciiDigits(value) : '';
  };

  const walletStep = async (request: FastifyRequest, reply: FastifyReply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    if (await unpayablePage(request, reply, loaded)) return reply;
    return closedMerchantPage(request, reply, loaded) ?? page(request, reply, loaded, { name: 'wallet' }, 200, await noticeOf(request, loaded.payment));
  };

  const otpStep = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    const loaded = await load(request, reply, token);
    if (!loaded) return reply;
    if ((await unpayablePage(request, reply, loaded)) || closedMerchantPage(request, reply, loaded)) return reply;
    if (!loaded.attempt || loaded.attempt.ended) return reply.code(303).redirect(paymentPath(loaded.payment.pidx));
    return page(request, reply, loaded, { name: 'otp', token, mobile: loaded.wallet!.mobile });
  };

  // The language switch of every payer page (the hosted page's, a link's, the demo shop's).
  registerLanguageSwitch(app, { config: ctx.config, page: (speech, content) => noticePage({ speech, back: '/pay', ...content, tone: 'success' }).value });

  // The page's address names the payment in its query; with the payment's attempt, the OTP step.
  app.get('/pay', (request, reply) => {
    const token = queryValue(request, 'attempt');
    return token === undefined ? walletStep(request, reply) : otpStep(request, reply, token);
  });
  app.get('/pay/:pidx', walletStep);
  app.get('/pay/:pidx/otp/:token', (request, reply) => otpStep(request, reply, (request.params as { token: string }).token));

  /** A step's form post, at `/pay/<step>?pidx=…` and at `/pay/<pidx>/<step>` of pages served before. */
  const onPost = (step: PostedStep, handler: RouteHandlerMethod) => {
    app.post(`/pay/${step}`, handler);
    app.post(`/pay/:pidx/${step}`, handler);
  };

  onPost('wallet', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    if (!csrfValid(request, csrfSecret, loaded.payment.pidx)) return csrfRejected(request, reply);
    if (await throttled(request, reply)) return reply;
    if (closedMerchantPage(request, reply, loaded)) return reply;
    if ((await linkUsedUp(loaded.payment)) && (await unpayablePage(request, reply, loaded, new PayerError('link_used_up')))) return reply;
    const mobile = text(request.body, 'mobile').trim();
    try {
      const token = await startPaymentAttempt(ctx, loaded, { mobile, mpin: text(request.body, 'mpin') });
      return reply.code(303).redirect(paymentPath(loaded.payment.pidx, token));
    } catch (error) {
      if (!(error instanceof PayerError)) throw error;
      // The SMS gateway failing is ours, not the payer's: 503, and the form as it was, to try again.
      const status = error.code === 'otp_not_sent' ? 503 : 400;
      if (await unpayablePage(request, reply, loaded, error)) return reply;
      return page(request, reply, loaded, { name: 'wallet', mobile }, status, messageFor(request, error));
    }
  });

  onPost('confirm', async (request, reply) => {
    const token = text(request.body, 'attempt');
    const loaded = await load(request, reply, token);
    if (!loaded) return reply;
    if (!csrfValid(request, csrfSecret, loaded.payment.pidx)) return csrfRejected(request, reply);
    if (await throttled(request, reply)) return reply;
    if (closedMerchantPage(request, reply, loaded)) return reply;
    try {
      return reply.code(303).redirect(await returnAddress(ctx, await confirmPayment(ctx, loaded, text(request.body, 'otp'))));
    } catch (error) {
      if (!(error instanceof PayerError)) throw error;
      if (await unpayablePage(request, reply, loaded, error)) return reply;
      if (error.code === 'wrong_otp') return page(request, reply, loaded, { name: 'otp', token, mobile: loaded.wallet!.mobile }, 400, messageFor(request, error));
      return page(request, reply, loaded, { name: 'wallet' }, 400, messageFor(request, error));
    }
  });

  // The payer picks a provider: an attempt starts there and the payer goes to its page.
  onPost('provider', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    if (!csrfValid(request, csrfSecret, loaded.payment.pidx)) return csrfRejected(request, reply);
    if (await throttled(request, reply)) return reply;
    if (closedMerchantPage(request, reply, loaded)) return reply;
    if ((await linkUsedUp(loaded.payment)) && (await unpayablePage(request, reply, loaded, new PayerError('link_used_up')))) return reply;
    const name = text(request.body, 'provider');
    const way = text(request.body, 'way') === 'qr' ? 'qr' : 'page';
    try {
      if (!isProviderName(name)) throw new PayerError('provider_unavailable');
      const redirect = await startProviderAttempt(ctx, loaded, name, way, drawAhead);
      // The QR is shown on Bhuktani's own page.
      if (way === 'qr') return reply.code(303).redirect(redirect.url);
      return setPageHeaders(reply, { formActionOrigins: [new URL(redirect.url).origin, new URL(loaded.payment.return_url).origin] })
        .code(200)
        .send(handoffPage({ ...frameOf(request), payment: loaded.payment, name, redirect }).value);
    } catch (error) {
      if (!(error instanceof PayerError)) throw error;
      // The provider not answering is an outage (503); one not offered is the payer's request (400).
      const status = error.code === 'provider_not_answering' ? 503 : 400;
      if (await unpayablePage(request, reply, loaded, error)) return reply;
      return page(request, reply, loaded, { name: 'wallet' }, status, messageFor(request, error));
    }
  });

  registerQrRoutes(app, ctx, notFound);

  // The provider sends the payer back here; its own server is asked before anything is decided.
  app.get('/pay/return/:provider/*', async (request, reply) => {
    const { provider, '*': rest } = request.params as { provider: string; '*': string };
    const query = Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    // The provider is asked at most once per two seconds an attempt whoever returns; an address that
    // returns more often than a payer would asks nothing more (forged returns in a flood).
    const mayAsk = await withinIpLimit(ctx.limiter, request, reply, 'return', ctx.config.payerAttemptsPerMinute);
    const result = isProviderName(provider) ? await returnFromProvider(ctx, provider, rest.split('/').filter(Boolean), query, { mayAsk }) : ({ kind: 'not-found' } as const);
    if (result.kind === 'not-found') return notFound(request, reply);
    // A page, not a redirect: the provider's page may have sent the payer here by a form post, and a
    // redirect on to the merchant would be held to that page's form-action.
    if (result.kind === 'merchant') {
      const loaded = (await findCheckout(ctx.db, result.back.payment.pidx))!;
      return send(reply, 200, onwardPage({ ...frameOf(request), payment: loaded.payment, merchantName: loaded.merchant.name, url: await returnAddress(ctx, result.back) }), loaded.payment);
    }
    if (result.kind === 'surplus') {
      const loaded = (await findCheckout(ctx.db, result.pidx))!;
      const onwards = result.back ? await returnAddress(ctx, result.back) : loaded.payment.website_url;
      const { t } = payerSpeech(request);
      return send(reply, 200, noticePage({ ...frameOf(request), title: t.providers.alreadyDecided, message: t.payerErrors.provider_surplus, link: { href: onwards, text: t.providers.continue } }), loaded.payment);
    }
    const back = paymentPath(result.pidx);
    return reply.code(303).redirect(result.notice ? `${back}&notice=${result.notice}` : back);
  });

  onPost('cancel', async (request, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    if (!csrfValid(request, csrfSecret, loaded.payment.pidx)) return csrfRejected(request, reply);
    try {
      return reply.code(303).redirect(await returnAddress(ctx, await cancelPayment(ctx, loaded.payment)));
    } catch (error) {
      if (!(error instanceof PayerError)) throw error;
      if (await unpayablePage(request, reply, loaded, error)) return reply;
      return page(request, reply, loaded, { name: 'wallet' }, 400, messageFor(request, error));
    }
  });
}
