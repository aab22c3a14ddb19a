// The console's payer wallets: list and search by mobile, create, one wallet's page, top up, freeze.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listAudit } from '../audit/audit-store.js';
import { AppError } from '../http/errors.js';
import { ledgerAccount, walletAccount } from '../ledger/accounts.js';
import { listAccountPostings, walletBalance } from '../ledger/ledger-store.js';
import { createWallet } from '../wallets/create-wallet.js';
import { freezeWallet, unfreezeWallet } from '../wallets/freeze-wallet.js';
import { topupWallet } from '../wallets/topup-wallet.js';
import { findWalletByIdx, listWallets } from '../wallets/wallet-store.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { mayUse } from '../people/operator-permissions.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { environmentOf } from './payments.routes.js';
import { walletListBody, walletPageBody } from './wallets-pages.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

const DONE: Record<string, string> = {
  created: 'The wallet is created. Top it up to let it pay.',
  topup: 'The wallet is topped up.',
  freeze: 'The wallet is frozen: it cannot pay until unfrozen.',
  unfreeze: 'The wallet is unfrozen.',
};

/** An AppError's message for a person, field errors included. */
export function errorText(error: AppError): string {
  const fields = Object.values(error.fields ?? {}).flat().filter((m): m is string => typeof m === 'string');
  return fields.length ? fields.join(' ') : error.message;
}

export function registerConsoleWallets(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const timeZone = ctx.config.timeZone;

  async function listPage(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const mobile = queryText(request, 'mobile').replace(/\D/g, '').slice(0, 10);
    const environment = environmentOf(queryText(request, 'environment'));
    const wallets = await listWallets(ctx.db, { mobile, environment, limit: 50 });
    const csrf = formToken(deps, request, reply);
    const body = walletListBody({ mobile, environment: environment ?? '', wallets, mayCreate: mayUse(operator.role, 'wallets.manage'), csrf, timeZone, error });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Wallets', operator, csrf, body, active: 'wallets' }), status);
  }

  async function walletPage(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const wallet = await findWalletByIdx(ctx.db, (request.params as { idx: string }).idx);
    if (!wallet) return notFound(deps, request, reply, 'wallet');
    const account = await ledgerAccount(ctx.db, ctx.db, walletAccount(wallet.environment, wallet.id));
    const csrf = formToken(deps, request, reply);
    const body = walletPageBody({
      wallet,
      balance: await walletBalance(ctx.db, account),
      history: await listAccountPostings(ctx.db, account, 50),
      audit: await listAudit(ctx.db, { objectType: 'wallet', objectId: wallet.idx, limit: 20 }),
      mayFreeze: mayUse(operator.role, 'wallets.freeze'),
      mayManage: mayUse(operator.role, 'wallets.manage'),
      csrf,
      timeZone,
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: `Wallet ${wallet.mobile}`, operator, csrf, body, active: 'wallets' }), status);
  }

  /** Runs an operator's act on the form's data: 303 to `next` after it, the page again with the reason when refused. */
  async function act(request: FastifyRequest, reply: FastifyReply, run: () => Promise<string>, page: typeof walletPage) {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    let next: string;
    try {
      next = await run();
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'not_found') throw error;
      return page(request, reply, 400, errorText(error));
    }
    return reply.code(303).redirect(next);
  }

  const walletIdx = (request: FastifyRequest) => (request.params as { idx: string }).idx;
  const pageOf = (idx: string, done: string) => `/console/wallets/${encodeURIComponent(idx)}?done=${done}`;

  app.get('/wallets', { config: { permission: 'read' } }, (request, reply) => listPage(request, reply));
  app.get('/wallets/:idx', { config: { permission: 'read' } }, (request, reply) => walletPage(request, reply));

  app.post('/wallets', { config: { permission: 'wallets.manage' } }, (request, reply) =>
    act(request, reply, async () => {
      const input = { mobile: field(request, 'mobile').trim(), name: field(request, 'name').trim(), mpin: field(request, 'mpin'), environment: field(request, 'environment') || 'live' };
      const wallet = await createWallet(ctx, input, { actor: actorOf(request) });
      return pageOf(wallet.idx, 'created');
    }, listPage),
  );

  app.post('/wallets/:idx/topup', { config: { permission: 'wallets.manage' } }, (request, reply) =>
    act(request, reply, async () => {
      const wallet = await findWalletByIdx(ctx.db, walletIdx(request));
      if (!wallet) throw new AppError('not_found');
      const reason = field(request, 'reason').trim();
      if (!reason) throw new AppError('validation_error', { fields: { reason: ['Give the reason for the top-up; it is kept in the audit log.'] } });
      if (wallet.sandbox) throw new AppError('bad_request', { detail: 'Sandbox wallets are topped up by themselves.' });
      const amount = field(request, 'amount').trim();
      await topupWallet(ctx, { mobile: wallet.mobile, amount: /^\d+$/.test(amount) ? Number(amount) : amount, environment: wallet.environment }, { actor: actorOf(request), reason: reason.slice(0, 500) });
      return pageOf(wallet.idx, 'topup');
    }, walletPage),
  );

  for (const [verb, move] of [['freeze', freezeWallet], ['unfreeze', unfreezeWallet]] as const) {
    app.post(`/wallets/:idx/${verb}`, { config: { permission: 'wallets.freeze' } }, (request, reply) =>
      act(request, reply, async () => {
        await move(ctx, { actor: actorOf(request), walletIdx: walletIdx(request), reason: field(request, 'reason').slice(0, 500) });
        return pageOf(walletIdx(request), verb);
      }, walletPage),
    );
  }
}
