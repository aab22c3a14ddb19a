// Who of a merchant's team may move money out: request a payout or change the automatic schedule.
// A stand-in until the team's permission table (issue 17) takes it over as `payouts.request`: each
// settlements route names what it does in its config (`config: { settlements: 'payouts.request' }`),
// and the settlements routes' own hook refuses the other roles, pages and forms alike.
import type { MerchantRole } from '../merchants/merchant-user.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a settlements route does: look (every role), or move money out (the roles below). */
    settlements?: 'view' | 'payouts.request';
  }
}

/** Viewers only look; developers build the integration and keep away from the money. */
export const PAYOUT_ROLES: readonly MerchantRole[] = ['owner', 'admin', 'finance'];

export const mayRequestPayouts = (role: MerchantRole): boolean => PAYOUT_ROLES.includes(role);
