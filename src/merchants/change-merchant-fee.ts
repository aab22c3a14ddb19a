// An operator changes a merchant's fee. It applies to payments initiated from
// now on (within KEY_CACHE_SECONDS, the key cache holding the merchant); existing ones keep theirs.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { integer } from '../http/fields.js';
import type { Merchant } from './merchant.js';
import { updateMerchantFee } from './merchant-store.js';
import { operatorReason } from './operator-reason.js';

const feeBpsField = integer({ required: true, min: 0, max: 10000 });

export async function changeMerchantFee(ctx: AppContext, input: { actor: Actor; merchantIdx: string; feeBps: number | string; reason?: string }): Promise<Merchant> {
  const fee = feeBpsField.parse(input.feeBps);
  if (!fee.ok) throw new AppError('validation_error', { fields: { fee_bps: fee.error } });
  const why = operatorReason(input.reason, false);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const changed = await updateMerchantFee(tx, input.merchantIdx, fee.value);
    if (!changed) throw new AppError('not_found', { detail: `No merchant has idx ${input.merchantIdx}.` });
    const { before, merchant } = changed;
    await appendAudit(tx, {
      now,
      actor: input.actor,
      action: 'merchant.fee',
      object: { type: 'merchant', id: input.merchantIdx },
      reason: why,
      before: { fee_bps: before },
      after: { fee_bps: merchant.fee_bps },
    });
    return merchant;
  });
}
