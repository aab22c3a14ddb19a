// A person's own security acts, in the log (merchant_team_events) of every team they belong to,
// beside the changes to the team, so that whoever sees a team page sees when someone's two-factor,
// recovery codes, password, sessions or e-mail changed, or where payouts go: a take-over shows. A
// user's acts for their team (its two-factor rule, the settlement bank account) go in that team's log
// only. Each is written in the transaction of the act. Never a secret: the act, and at most which
// way, how many codes are left, or the bank account with its number masked.
import type { Queryable } from '../db/db.js';
import { insertUserEvent } from './merchant-team-store.js';

export const SECURITY_ACTS = [
  'two_factor_on',
  'two_factor_off',
  'recovery_codes_new',
  'recovery_code_used',
  'password_change',
  'password_reset',
  'session_end',
  'logout_everywhere',
  'email_confirmed',
  'team_two_factor_on',
  'team_two_factor_off',
  'bank_account_change',
] as const;
export type SecurityAct = (typeof SECURITY_ACTS)[number];

export const isSecurityAct = (action: string): action is SecurityAct => (SECURITY_ACTS as readonly string[]).includes(action);

/** The person did `act` to their own account, or the user to their team (its two-factor rule, the settlement bank account), now, in `tx`. */
export async function recordSecurityAct(tx: Queryable, options: ({ personId: number } | { userId: number }) & { act: SecurityAct; now: Date; detail?: string }): Promise<void> {
  const { act, detail, now, ...who } = options;
  await insertUserEvent(tx, { ...who, now, action: act, detail });
}
