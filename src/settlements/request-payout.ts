// A merchant asks for its available money: the payout is written Requested and
// the amount moves from the merchant's account to clearing, in one transaction under the merchant's
// debit lock, so racing payouts and refunds never spend the same money twice.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { postPayoutJournal } from '../ledger/payout-journal.js';
import { liveRefusal } from '../merchants/approval-state-machine.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { findMerchantById } from '../merchants/merchant-store.js';
import { holdCutoff } from './balance.js';
import { findPayoutRail } from './payout-rail-setup.js';
import type { Payout } from './payout.js';
import { insertPayout, lockSettlementAccount, settleRecords, type Owner } from './payout-store.js';
import { settlementBalance } from './settlement-balance.js';

/** A live account without NCHL's bank code while live pays through NPI. */
export const NO_BANK_CODE = 'Add NCHL’s 4-digit code of your bank to your settlement account in the dashboard, on the Business page (/dashboard/business): live payouts go through NCHL’s payment interface, which routes by it.';

/** An approved merchant without an account: the dashboard's Business page has the form. */
export const NO_BANK_ACCOUNT = 'Add your settlement bank account in the dashboard, on the Business page (/dashboard/business), before requesting a live payout.';

export interface RequestPayoutInput extends Owner {
  /** Paisa; undefined: all that is available. */
  amount?: number;
  /** 'api', 'schedule', or the dashboard user's e-mail. */
  requestedBy: string;
  /** More work in the payout's transaction, under the debit lock (the schedule claims its period); throwing rolls the payout back. */
  inTransaction?: (tx: Queryable, payout: Payout) => Promise<void>;
}

export async function requestPayout(ctx: AppContext, input: RequestPayoutInput): Promise<Payout> {
  const owner: Owner = { merchantId: input.merchantId, environment: input.environment };
  const merchant = await findMerchantById(ctx.db, owner.merchantId);
  if (!merchant) throw new AppError('not_found');
  const bank = await findBankAccount(ctx.db, owner.merchantId);
  if (owner.environment === 'live') {
    const refused = liveRefusal(merchant.status);
    if (refused) throw new AppError('forbidden', { detail: refused });
    if (!bank) throw new AppError('bad_request', { detail: NO_BANK_ACCOUNT });
    // Through NPI a payout is routed by NCHL's code of the bank: without it the money would only wait.
    if (!bank.bankCode && (await findPayoutRail(ctx, 'live')).rail === 'npi') throw new AppError('bad_request', { detail: NO_BANK_CODE });
  }
  if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount <= 0)) {
    throw new AppError('validation_error', { fields: { amount: ['Amount must be a positive whole number of paisa.'] } });
  }
  const now = ctx.clock.now();
  const idx = ctx.ids.random(16);
  return ctx.db.transaction(async (tx) => {
    await lockSettlementAccount(tx, owner, now);
    const { available } = await settlementBalance(ctx, owner, tx);
    if (available <= 0) throw new AppError('bad_request', { detail: 'No balance is available for a payout yet.' });
    const amount = input.amount ?? available;
    if (amount > available) {
      throw new AppError('validation_error', { fields: { amount: [`Amount exceeds the available balance of ${available} paisa.`] } });
    }
    const payout = await insertPayout(tx, owner, { idx, amount, bank, availableBefore: available, requestedBy: input.requestedBy, at: now });
    await postPayoutJournal(ctx, tx, payout, 'payout', now);
    await settleRecords(tx, payout, holdCutoff(now, ctx.config.settlementHoldHours));
    await input.inTransaction?.(tx, payout);
    return payout;
  });
}
