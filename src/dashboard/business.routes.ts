// GET /dashboard/business (the "Go live" page) and its form: the merchant's business details and
// settlement bank account, and the application to go live. Only the session's own merchant. The
// owner is told by e-mail where payouts will go.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { applyForLive } from '../merchants/apply-for-live.js';
import { maskedAccountNumber } from '../merchants/bank-account.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { notifyOwner } from '../people/owner-notice.js';
import { findBusinessDetails } from '../merchants/business-details-store.js';
import { businessPage, type BusinessView } from './business-page.js';
import { formExpired, frameOf } from './dashboard-pages.js';
import { doing, field, fieldMessages, formVerified, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';

const FIELDS = ['legal_name', 'business_type', 'pan_number', 'address', 'contact_person', 'phone', 'website', 'bank_name', 'branch', 'account_name', 'account_number'] as const;
/** Left empty, these are not given at all (rather than given blank). */
const OPTIONAL = new Set(['website']);

export function registerBusiness(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, extra: Partial<BusinessView> = {}, status = 200) {
    const { merchant } = sessionOf(request);
    const view: BusinessView = {
      details: await findBusinessDetails(ctx.db, merchant.id),
      bankAccount: await findBankAccount(ctx.db, merchant.id),
      ...extra,
    };
    return sendPage(reply, businessPage(frameOf(deps, request, reply, 'business'), view), status);
  }

  app.get('/business', doing('business.manage'), (request, reply) => show(request, reply));

  app.post('/business', doing('business.manage'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    const values = Object.fromEntries(FIELDS.map((name) => [name, field(request, name)]));
    const application = Object.fromEntries(Object.entries(values).filter(([name, value]) => !(OPTIONAL.has(name) && value.trim() === '')));
    try {
      await applyForLive(ctx, { merchantIdx: session.merchant.idx, application });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'validation_error') return show(request, reply, { values, errors: fieldMessages(error), message: 'Please correct the fields marked below.' }, 400);
      if (error.code === 'conflict') return show(request, reply, { message: error.message }, 409);
      throw error;
    }
    const bank = await findBankAccount(ctx.db, session.merchant.id);
    if (bank) {
      const lines = [`Payouts go to ${bank.accountName}, ${bank.bankName} (${bank.branch}), account ${maskedAccountNumber(bank.accountNumber)}.`];
      await notifyOwner(ctx, { merchantId: session.merchant.id, merchantName: session.merchant.name, what: 'The settlement bank account was set', by: session.user.email, lines }, request.log);
    }
    return reply.code(303).redirect('/dashboard/business');
  });
}
