// The dashboard's payment links: the list and the create form, one link with its payments, its
// counter card, and deactivate / activate. Creating and switching a link is `links.manage`; seeing
// them is `view`. The form is read into the API's fields and checked by the same rules
// (payment-link-request.ts), amounts typed in rupees.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '../http/errors.js';
import { formatRupees, parseRupees } from '../http/money.js';
import { formatNumber } from '../language/amounts.js';
import { liveRefusal } from '../merchants/approval-state-machine.js';
import { createPaymentLink } from '../payment-links/create-payment-link.js';
import { MAX_PAYMENTS_LIMIT, paymentLinkRequest, type PaymentLinkInput } from '../payment-links/payment-link-request.js';
import { findOwnLink, linkTotals, listLinkPayments, listLinks } from '../payment-links/payment-link-store.js';
import { setPaymentLinkActive } from '../payment-links/set-payment-link-active.js';
import { MIN_AMOUNT_PAISA } from '../payments/payment.js';
import { formExpired, frameOf, notFound } from './dashboard-pages.js';
import { doing, field, formVerified, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { linkDetailsPage } from './link-details-page.js';
import { linkPrintPage } from './link-print-page.js';
import { linksPage, type LinksView } from './links-page.js';

const PAGE_SIZE = 20;
const PAYMENTS_LISTED = 50;
const FORM_FIELDS = ['name', 'description', 'pricing', 'amount', 'min_amount', 'max_amount', 'expires_on', 'max_payments'] as const;

/** The create form as the API's fields, and the messages of the amounts it could not read (typed in rupees, said in rupees). */
function linkFields(values: Record<string, string | string[]>, maxAmountPaisa: number): { body: Record<string, unknown>; errors: Record<string, string> } {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string).trim() : '');
  const errors: Record<string, string> = {};
  const body: Record<string, unknown> = { name: text('name'), ask: [values.ask ?? []].flat() };
  if (!text('name')) errors.name = 'Say what the payer pays for.';
  if (text('description')) body.description = text('description');
  if (text('expires_on')) body.expires_on = text('expires_on');
  if (text('max_payments')) body.max_payments = text('max_payments');
  const rupees = (name: string) => {
    if (!text(name)) return void (errors[name] = 'Enter an amount in rupees.');
    const paisa = parseRupees(text(name));
    if (paisa === undefined) errors[name] = 'Enter an amount in rupees, for example 1500 or 1,500.50.';
    else if (paisa < MIN_AMOUNT_PAISA) errors[name] = `At least ${formatRupees(MIN_AMOUNT_PAISA)}.`;
    else if (paisa > maxAmountPaisa) errors[name] = `At most ${formatRupees(maxAmountPaisa)}.`;
    else body[name] = paisa;
  };
  if (text('pricing') === 'range') {
    rupees('min_amount');
    rupees('max_amount');
    if (!errors.min_amount && !errors.max_amount && (body.min_amount as number) > (body.max_amount as number)) errors.max_amount = 'The most must be at least the least.';
  } else {
    rupees('amount');
  }
  return { body, errors };
}

/** What the form says of a field the link's rules refuse, in the merchant's words (the API's name its fields and their types). */
const FORM_WORDS: Record<string, string> = {
  name: 'Keep it to 120 characters or fewer.',
  description: 'Keep it to 1,000 characters or fewer.',
  expires_on: 'Choose a day: today or a later one.',
  max_payments: `A whole number from 1 to ${formatNumber(MAX_PAYMENTS_LIMIT, 'en')}, or leave it empty for no limit.`,
  ask: 'Choose from the list.',
};

const formMessages = (fields: FieldErrors) =>
  Object.fromEntries(Object.entries(fields).map(([name, messages]) => [name, FORM_WORDS[name] ?? (Array.isArray(messages) && typeof messages[0] === 'string' ? messages[0] : 'Choose from the list.')]));

export function registerLinks(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const request = paymentLinkRequest({ maxAmountPaisa: ctx.config.maxAmountPaisa, timeZone: ctx.config.timeZone, now: () => ctx.clock.now() });

  async function list(req: FastifyRequest, reply: FastifyReply, extra: Partial<LinksView> = {}, status = 200) {
    const session = sessionOf(req);
    const page = /^[1-9]\d{0,5}$/.test(queryText(req, 'page')) ? Number(queryText(req, 'page')) : 1;
    const { links } = await listLinks(ctx.db, { merchantId: session.merchant.id, environment: session.environment }, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
    const shown = links.slice(0, PAGE_SIZE);
    const view: LinksView = { links: shown, totals: await linkTotals(ctx.db, shown.map((l) => l.idx)), now: ctx.clock.now(), page, hasNext: links.length > PAGE_SIZE, ...extra };
    return sendPage(reply, linksPage(frameOf(deps, req, reply, 'links'), view), status);
  }

  app.get('/links', doing('view'), (req, reply) => list(req, reply));

  app.post('/links', doing('links.manage'), async (req, reply) => {
    if (!formVerified(deps, req)) return formExpired(deps, req, reply);
    const session = sessionOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values: Record<string, string | string[]> = Object.fromEntries(FORM_FIELDS.map((name) => [name, field(req, name)]));
    values.ask = [body.ask ?? []].flat().filter((a): a is string => typeof a === 'string');
    const refusal = session.environment === 'live' ? liveRefusal(session.merchant.status) : undefined;
    if (refusal) return list(req, reply, { values, message: refusal }, 403);
    const read = linkFields(values, ctx.config.maxAmountPaisa);
    const parsed = request.parse(read.body);
    if (!parsed.ok || Object.keys(read.errors).length) {
      // An amount the form could not read, or a name left empty, is said as such, not as the API's "Give amount …".
      const errors = { ...(parsed.ok ? {} : formMessages(parsed.error as FieldErrors)), ...read.errors };
      return list(req, reply, { values, errors, message: 'Check the fields marked below.' }, 400);
    }
    const link = await createPaymentLink(ctx, {
      owner: { merchantId: session.merchant.id, environment: session.environment },
      input: parsed.value as PaymentLinkInput,
      createdBy: session.user.email,
    });
    return reply.code(303).redirect(`/dashboard/links/${encodeURIComponent(link.idx)}?created=1`);
  });

  /** The session's link of the address; undefined (the page not found sent) when it is not one. */
  async function ownLink(req: FastifyRequest, reply: FastifyReply) {
    const session = sessionOf(req);
    const { idx } = req.params as { idx: string };
    const link = /^[A-Za-z0-9]{1,64}$/.test(idx) ? await findOwnLink(ctx.db, { merchantId: session.merchant.id, environment: session.environment }, idx) : undefined;
    if (!link) notFound(deps, req, reply);
    return link;
  }

  app.get('/links/:idx', doing('view'), async (req, reply) => {
    const link = await ownLink(req, reply);
    if (!link) return reply;
    const done = queryText(req, 'created') ? 'Payment link created. Share its address or its QR code.' : queryText(req, 'done') === 'deactivated' ? 'Link deactivated: its page says it takes no payments.' : queryText(req, 'done') === 'activated' ? 'Link activated.' : undefined;
    const view = {
      link,
      totals: (await linkTotals(ctx.db, [link.idx])).get(link.idx)!,
      payments: await listLinkPayments(ctx.db, link.idx, PAYMENTS_LISTED),
      listed: PAYMENTS_LISTED,
      publicUrl: ctx.config.publicUrl,
      now: ctx.clock.now(),
      done,
    };
    return sendPage(reply, linkDetailsPage(frameOf(deps, req, reply, 'links'), view));
  });

  app.get('/links/:idx/print', doing('view'), async (req, reply) => {
    const link = await ownLink(req, reply);
    if (!link) return reply;
    return sendPage(reply, linkPrintPage({ link, publicUrl: ctx.config.publicUrl }));
  });

  for (const [verb, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    app.post(`/links/:idx/${verb}`, doing('links.manage'), async (req, reply) => {
      if (!formVerified(deps, req)) return formExpired(deps, req, reply);
      const session = sessionOf(req);
      const { idx } = req.params as { idx: string };
      const owner = { merchantId: session.merchant.id, environment: session.environment };
      const link = await setPaymentLinkActive(ctx, { owner, idx, active }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return undefined;
        throw error;
      });
      if (!link) return notFound(deps, req, reply);
      return reply.code(303).redirect(`/dashboard/links/${encodeURIComponent(link.idx)}?done=${verb}d`);
    });
  }
}
