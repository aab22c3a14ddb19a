// An operator freezes a payer wallet (suspected fraud, a lost phone) so it cannot pay, and unfreezes
// it. Sandbox wallets are shared by every merchant's tests, so nobody may freeze them for the others.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { Wallet } from './wallet.js';
import { findWalletByIdx, setWalletFrozen } from './wallet-store.js';

export interface FreezeWalletInput {
  actor: Actor;
  walletIdx: string;
  reason: string;
}

/** One transaction: the conditional update and its audit entry. */
async function move(ctx: AppContext, input: FreezeWalletInput, freeze: boolean): Promise<Wallet> {
  const reason = input.reason.trim();
  if (!reason) throw new AppError('validation_error', { fields: { reason: ['Give the reason; it is kept in the audit log.'] } });
  const wallet = await findWalletByIdx(ctx.db, input.walletIdx);
  if (!wallet) throw new AppError('not_found');
  if (wallet.sandbox) throw new AppError('bad_request', { detail: 'Sandbox wallets are shared by every merchant’s tests and cannot be frozen.' });
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const moved = await setWalletFrozen(tx, wallet.id, freeze ? { at: now, reason } : null);
    if (!moved) throw new AppError('conflict', { detail: freeze ? 'This wallet is already frozen.' : 'This wallet is not frozen.' });
    await appendAudit(tx, {
      now,
      actor: input.actor,
      action: freeze ? 'wallet.freeze' : 'wallet.unfreeze',
      object: { type: 'wallet', id: wallet.idx },
      environment: wallet.environment,
      reason,
      before: { frozen: !freeze },
      after: { frozen: freeze },
    });
    return moved;
  });
}

export function freezeWallet(ctx: AppContext, input: FreezeWalletInput): Promise<Wallet> {
  return move(ctx, input, true);
}

export function unfreezeWallet(ctx: AppContext, input: FreezeWalletInput): Promise<Wallet> {
  return move(ctx, input, false);
}
