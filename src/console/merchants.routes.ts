// The console's merchants: list and search, one merchant's page, and the operators' decisions,
// each through the merchants domain's use cases (one transaction with its audit entry).
import { lagging } from '../db/db.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listAudit } from '../audit/audit-store.js';
import { AppError } from '../http/errors.js';
import { merchantBalance } from '../ledger/merchant-balance.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { findBusinessDetails } from '../merchants/business-details-store.js';
import { changeMerchantFee } from '../merchants/change-merchant-fee.js';
import { approveMerchant, reactivateMerchant, rejectMerchant, suspendMerchant } from '../merchants/decide-merchant.js';
import { listSecretKeys } from '../merchants/list-secret-keys.js';
import { approvalStatuses, type ApprovalStatus } from '../merchants/merchant.js';
import { listMerchants } from '../merchants/merchant-search.js';
import { findMerchantByIdx } from '../merchants/merchant-store.js';
import { recentRecords } from '../transactions/transaction-store.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { mayUse } from '../people/operator-permissions.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { merchantListBody, merchantPageBody } from './merchants-pages.js';
import { searchTerm } from './payments.routes.js';
import { errorText } from './wallets.routes.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

const DONE: Record<string, string> = {
  approve: 'The merchant is approved: its live key works now.',
  reject: 'The merchant is rejected; it sees the reason and may apply again.',
  suspend: 'The merchant is suspended: its live calls are refused.',
  reactivate: 'The merchant is active again.',
  fee: 'The fee is changed; it applies to new payments.',
};

export function registerConsoleMerchants(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const timeZone = ctx.config.timeZone;

  app.get('/merchants', { config: { permission: 'read' } }, async (request, reply) => {
    const { operator } = operatorOf(request);
    const raw = queryText(request, 'status');
    const status = (approvalStatuses as readonly string[]).includes(raw) ? (raw as ApprovalStatus) : undefined;
    const term = searchTerm(request, 'q');
    const merchants = await listMerchants(lagging(ctx.db), { status, term: term || undefined, limit: 100 });
    const body = merchantListBody({ term, status: status ?? '', merchants, timeZone });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Merchants', operator, csrf: formToken(deps, request, reply), body, active: 'merchants' }));
  });

  async function merchantPage(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const merchant = await findMerchantByIdx(ctx.db, (request.params as { idx: string }).idx);
    if (!merchant) return notFound(deps, request, reply, 'merchant');
    const csrf = formToken(deps, request, reply);
    const body = merchantPageBody({
      merchant,
      business: await findBusinessDetails(ctx.db, merchant.id),
      bank: await findBankAccount(ctx.db, merchant.id),
      keys: await listSecretKeys(ctx, { merchantId: merchant.id }),
      balances: {
        live: await merchantBalance(ctx.db, { merchantId: merchant.id, environment: 'live' }),
        test: await merchantBalance(ctx.db, { merchantId: merchant.id, environment: 'test' }),
      },
      recent: {
        live: await recentRecords(ctx.db, { merchantId: merchant.id, environment: 'live', limit: 10 }),
        test: await recentRecords(ctx.db, { merchantId: merchant.id, environment: 'test', limit: 10 }),
      },
      audit: await listAudit(ctx.db, { objectType: 'merchant', objectId: merchant.idx, limit: 20 }),
      mayDecide: mayUse(operator.role, 'merchants.decide'),
      csrf,
      timeZone,
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: merchant.name, operator, csrf, body, active: 'merchants' }), status);
  }

  app.get('/merchants/:idx', { config: { permission: 'read' } }, (request, reply) => merchantPage(request, reply));

  const decisions = {
    approve: approveMerchant,
    reject: rejectMerchant,
    suspend: suspendMerchant,
    reactivate: reactivateMerchant,
    fee: (c: typeof ctx, d: { actor: ReturnType<typeof actorOf>; merchantIdx: string; reason: string }, feeBps: string) => changeMerchantFee(c, { ...d, feeBps }),
  };

  for (const [verb, decide] of Object.entries(decisions)) {
    app.post(`/merchants/:idx/${verb}`, { config: { permission: 'merchants.decide' } }, async (request, reply) => {
      if (!formVerified(deps, request)) return formExpired(deps, request, reply);
      const merchantIdx = (request.params as { idx: string }).idx;
      try {
        await decide(ctx, { actor: actorOf(request), merchantIdx, reason: field(request, 'reason').slice(0, 500) }, field(request, 'fee_bps').trim());
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'not_found') throw error;
        return merchantPage(request, reply, 400, errorText(error));
      }
      return reply.code(303).redirect(`/console/merchants/${encodeURIComponent(merchantIdx)}?done=${verb}`);
    });
  }
}
