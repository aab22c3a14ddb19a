// An approved merchant adds or changes its settlement bank account: live payouts requested
// from then on go to it (a payout keeps the account it was requested with). The account and the act
// in the team's log are one transaction; the route asks step-up before and tells the owner after.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { parseOrThrow } from '../http/parse-fields.js';
import { recordSecurityAct } from '../people/security-acts.js';
import { bankAccountFrom, bankAccountLine, bankAccountRequest, type BankAccount } from './bank-account.js';
import { validateNewAccount } from '../settlements/account-checks.js';
import { saveBankAccount } from './bank-account-store.js';
import { findMerchantById } from './merchant-store.js';

/** Before approval the account comes with the application to go live (apply-for-live.ts), for the operators to review. */
const NOT_YET = 'Your bank account is part of your application to go live: it can be changed here once your business is approved.';

export async function changeBankAccount(
  ctx: AppContext,
  input: { merchantId: number; userId: number; account: Record<string, unknown> },
): Promise<{ before?: BankAccount; after: BankAccount }> {
  const after = bankAccountFrom(parseOrThrow(bankAccountRequest, input.account), ctx.clock.now());
  const current = await findMerchantById(ctx.db, input.merchantId);
  // NPI's validation, where a rail is NPI: an account it refuses is refused here, with its reason.
  if (current?.status === 'approved') await validateNewAccount(ctx, current.id, after);
  return ctx.db.transaction(async (tx) => {
    const merchant = await findMerchantById(tx, input.merchantId);
    if (!merchant) throw new AppError('not_found');
    if (merchant.status !== 'approved') throw new AppError('conflict', { detail: merchant.status === 'suspended' ? 'Your merchant account is suspended; contact support.' : NOT_YET });
    const before = await saveBankAccount(tx, merchant.id, after);
    await recordSecurityAct(tx, { userId: input.userId, act: 'bank_account_change', now: after.updatedAt, detail: bankAccountLine(after) });
    return { before, after };
  });
}
