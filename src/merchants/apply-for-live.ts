// A merchant applies to go live: its business details and settlement bank
// account, saved with the move to `applied` in one transaction, so the operators never see an
// application without its details. A rejected merchant corrects them and applies again.
import type { AppContext } from '../context.js';
import { AppError, type FieldErrors } from '../http/errors.js';
import { moveMerchant } from './approval-state-machine.js';
import { bankAccountFrom, bankAccountRequest } from './bank-account.js';
import { validateNewAccount } from '../settlements/account-checks.js';
import { saveBankAccount } from './bank-account-store.js';
import { businessDetailsRequest, normalPanNumber, normalPhone } from './business-details.js';
import { saveBusinessDetails } from './business-details-store.js';
import type { ApprovalStatus, Merchant } from './merchant.js';
import { findMerchantByIdx } from './merchant-store.js';

const ALREADY: Partial<Record<ApprovalStatus, string>> = {
  applied: 'You have applied already; your application is being reviewed.',
  approved: 'Your business is approved already.',
  suspended: 'Your merchant account is suspended; contact support.',
};

/** Every failing field of both parts at once, in the contract's shape. */
function parseApplication(input: Record<string, unknown>) {
  const details = businessDetailsRequest.parse(input);
  const bank = bankAccountRequest.parse(input);
  if (details.ok && bank.ok) return { details: details.value, bank: bank.value };
  const fields = { ...(details.ok ? {} : details.error), ...(bank.ok ? {} : bank.error) } as FieldErrors;
  throw new AppError('validation_error', { fields });
}

export async function applyForLive(ctx: AppContext, input: { merchantIdx: string; application: Record<string, unknown> }): Promise<Merchant> {
  const { details, bank } = parseApplication(input.application);
  const now = ctx.clock.now();
  // NPI's validation, where a rail is NPI: an account it refuses is refused here, with its reason.
  const applicant = await findMerchantByIdx(ctx.db, input.merchantIdx);
  if (applicant) await validateNewAccount(ctx, applicant.id, bankAccountFrom(bank, now));
  return ctx.db.transaction(async (tx) => {
    const moved = await moveMerchant(tx, input.merchantIdx, 'apply', { now, reason: null });
    if (!moved) {
      const current = await findMerchantByIdx(tx, input.merchantIdx);
      if (!current) throw new AppError('not_found');
      throw new AppError('conflict', { detail: ALREADY[current.status] ?? `You cannot apply while ${current.status}.` });
    }
    const merchantId = moved.merchant.id;
    await saveBusinessDetails(tx, merchantId, {
      legalName: details.legal_name!,
      businessType: details.business_type!,
      panNumber: normalPanNumber(details.pan_number!),
      address: details.address!,
      contactPerson: details.contact_person!,
      phone: normalPhone(details.phone!),
      website: details.website ?? '',
      updatedAt: now,
    });
    await saveBankAccount(tx, merchantId, bankAccountFrom(bank, now));
    return moved.merchant;
  });
}
