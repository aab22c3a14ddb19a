// The owner's setting "require two-factor for the team": each user without it is taken to enrolment
// after the password, and can do nothing else until enrolled (merchant-sessions.ts reads it). Who
// may set it is the permission table's `team.require_two_factor` (the owner). A change goes in the
// team's log; setting it as it is changes nothing and logs nothing.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { MerchantUser } from '../merchants/merchant-user.js';
import { setRequireTwoFactor } from '../merchants/merchant-user-store.js';
import { recordSecurityAct } from './security-acts.js';

export async function setTeamTwoFactor(ctx: AppContext, options: { user: MerchantUser; required: boolean }): Promise<void> {
  if (options.required && !options.user.totp_enrolled_at) throw new AppError('conflict', { detail: 'Turn on two-factor for yourself first.' });
  await ctx.db.transaction(async (tx) => {
    if (!(await setRequireTwoFactor(tx, options.user.merchant_id, options.required))) return;
    await recordSecurityAct(tx, { userId: options.user.id, act: options.required ? 'team_two_factor_on' : 'team_two_factor_off', now: ctx.clock.now() });
  });
}
