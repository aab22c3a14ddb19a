// The owner's setting "require two-factor for the team": each user without it is taken to enrolment
// after the password, and can do nothing else until enrolled (merchant-sessions.ts reads it). Who
// may set it is the permission table's `team.require_two_factor` (the owner).
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { MerchantUser } from '../merchants/merchant-user.js';
import { setRequireTwoFactor } from '../merchants/merchant-user-store.js';

export async function setTeamTwoFactor(ctx: AppContext, options: { user: MerchantUser; required: boolean }): Promise<void> {
  if (options.required && !options.user.totp_enrolled_at) throw new AppError('conflict', { detail: 'Turn on two-factor for yourself first.' });
  await setRequireTwoFactor(ctx.db, options.user.merchant_id, options.required);
}
