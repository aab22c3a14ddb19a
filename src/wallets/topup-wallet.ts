import { CLI_ACTOR, type Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { environments } from '../environment.js';
import { AppError } from '../http/errors.js';
import { choice, integer, object, text } from '../http/fields.js';
import { parseOrThrow } from '../http/parse-fields.js';
import { fundingAccount, ledgerAccount, walletAccount } from '../ledger/accounts.js';
import { walletBalance } from '../ledger/ledger-store.js';
import { postJournal } from '../ledger/post-journal.js';
import type { Wallet } from './wallet.js';
import { findWallet } from './wallet-store.js';

export const topupRequest = object({
  mobile: text({ required: true }),
  amount: integer({ required: true, min: 1, description: 'Paisa.' }),
  environment: choice(environments),
});

/** Moves `amount` from the environment's funding account into the wallet: one balanced journal. */
export async function fundWallet(ctx: AppContext, tx: Queryable, wallet: Wallet, amount: number): Promise<void> {
  const from = await ledgerAccount(ctx.db, tx, fundingAccount(wallet.environment));
  const to = await ledgerAccount(ctx.db, tx, walletAccount(wallet.environment, wallet.id));
  await postJournal(tx, {
    environment: wallet.environment,
    kind: 'topup',
    pidx: null,
    at: ctx.clock.now(),
    postings: [
      { accountId: from, amount: -amount },
      { accountId: to, amount, wallet: true },
    ],
  });
}

/** Tops up a (non-sandbox) wallet: the journal and the audit entry, as `actor`'s act, in one transaction. */
export async function topupWallet(ctx: AppContext, input: unknown, options: { actor: Actor; reason?: string } = { actor: CLI_ACTOR }): Promise<{ wallet: Wallet; balance: number }> {
  const request = parseOrThrow(topupRequest, input);
  const wallet = await findWallet(ctx.db, request.environment ?? 'test', request.mobile!);
  if (!wallet) throw new AppError('validation_error', { fields: { mobile: ['No wallet with this mobile number in this environment.'] } });
  if (request.amount! > ctx.config.maxAmountPaisa * 1000) throw new AppError('validation_error', { fields: { amount: ['Top-up is too large.'] } });
  return ctx.db.transaction(async (tx) => {
    await fundWallet(ctx, tx, wallet, request.amount!);
    const balance = await walletBalance(tx, await ledgerAccount(ctx.db, tx, walletAccount(wallet.environment, wallet.id)));
    await appendAudit(tx, {
      now: ctx.clock.now(),
      actor: options.actor,
      action: 'wallet.topup',
      object: { type: 'wallet', id: wallet.idx },
      environment: wallet.environment,
      reason: options.reason,
      before: { balance: balance - request.amount! },
      after: { balance, amount: request.amount! },
    });
    return { wallet, balance };
  });
}
