// GET /dashboard/business (the "Go live" page) and its forms: the merchant's business details and
// settlement bank account, and the application to go live; once approved, the bank account alone
// too. Only the session's own merchant. The owner is told by e-mail where payouts will go.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { applyForLive } from '../merchants/apply-for-live.js';
import { bankAccountLine, OPTIONAL_BANK_FIELDS, payoutsGoToLine } from '../merchants/bank-account.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { changeBankAccount } from '../merchants/change-bank-account.js';
import { notifyOwner } from '../people/owner-notice.js';
import { findBusinessDetails } from '../merchants/business-details-store.js';
import { UNVERIFIED_MESSAGE } from '../people/merchant-user-email.js';
import { businessPage, type BusinessView } from './business-page.js';
import { stepUp, stepUpField } from './step-up.js';
import { formExpired, frameOf } from './dashboard-pages.js';
import { doing, field, fieldMessages, formVerified, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';

const BANK_FIELDS = ['bank_name', 'branch', 'account_name', 'account_number', 'bank_code', 'branch_code'] as const;
const FIELDS = ['legal_name', 'business_type', 'pan_number', 'address', 'contact_person', 'phone', 'website', ...BANK_FIELDS] as const;
const DONE: Record<string, string> = { bank: 'Bank account saved. Payouts requested from now on go to it; your account’s owner is told by e-mail.' };
/** Left empty, these are not given at all (rather than given blank). */
const OPTIONAL = new Set(['website', ...OPTIONAL_BANK_FIELDS]);
/** What the form gave, without the optional fields left empty. */
const given = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).filter(([name, value]) => !(OPTIONAL.has(name) && value.trim() === '')));

export function registerBusiness(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, extra: Partial<BusinessView> & { stepUpError?: string } = {}, status = 200) {
    const { merchant } = sessionOf(request);
    const view: BusinessView = {
      details: await findBusinessDetails(ctx.db, merchant.id),
      bankAccount: await findBankAccount(ctx.db, merchant.id),
      stepUp: stepUpField(ctx, sessionOf(request), extra.stepUpError),
      unverified: !sessionOf(request).user.email_verified_at,
      done: DONE[queryText(request, 'done')],
      ...extra,
    };
    return sendPage(reply, businessPage(frameOf(deps, request, reply, 'business'), view), status);
  }

  app.get('/business', doing('business.manage'), (request, reply) => show(request, reply));

  app.post('/business', doing('business.manage'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    const values = Object.fromEntries(FIELDS.map((name) => [name, field(request, name)]));
    const application = given(values);
    if (!session.user.email_verified_at) return show(request, reply, { values, message: UNVERIFIED_MESSAGE }, 403);
    // The application carries the settlement bank account: the user proves who they are again.
    const refusal = await stepUp(ctx, request);
    if (refusal) return show(request, reply, { values, message: refusal.message, stepUpError: refusal.message }, refusal.status);
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
      await notifyOwner(ctx, { merchantId: session.merchant.id, merchantName: session.merchant.name, what: 'The settlement bank account was set', by: session.user.email, lines: [payoutsGoToLine(bank)] }, request.log);
    }
    return reply.code(303).redirect('/dashboard/business');
  });

  // An approved merchant's bank account: where its live payouts go, so asked as the application is.
  app.post('/business/bank-account', doing('business.manage'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    const bankValues = Object.fromEntries(BANK_FIELDS.map((name) => [name, field(request, name)]));
    if (!session.user.email_verified_at) return show(request, reply, { bankValues, message: UNVERIFIED_MESSAGE }, 403);
    const refusal = await stepUp(ctx, request);
    if (refusal) return show(request, reply, { bankValues, message: refusal.message, stepUpError: refusal.message }, refusal.status);
    let changed: Awaited<ReturnType<typeof changeBankAccount>>;
    try {
      changed = await changeBankAccount(ctx, { merchantId: session.merchant.id, userId: session.user.id, account: given(bankValues) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'validation_error') return show(request, reply, { bankValues, bankErrors: fieldMessages(error), message: 'Please correct the fields marked below.' }, 400);
      if (error.code === 'conflict') return show(request, reply, { message: error.message }, 409);
      throw error;
    }
    const lines = [payoutsGoToLine(changed.after), ...(changed.before ? [`Before: ${bankAccountLine(changed.before)}.`] : []), 'Payouts already on their way keep the account they were requested with.'];
    await notifyOwner(ctx, { merchantId: session.merchant.id, merchantName: session.merchant.name, what: 'The settlement bank account was changed', by: session.user.email, lines }, request.log);
    return reply.code(303).redirect('/dashboard/business?done=bank#bank-account');
  });
}
