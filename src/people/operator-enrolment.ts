// An invited operator's second step: their app is set up from the secret (shown only while not yet
// enrolled), one code from it confirms, and the recovery codes are issued.
import type { AppContext } from '../context.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { checkOperatorCode } from './operator-sign-in.js';
import { findOperatorSecrets } from './operator-store.js';
import { openTotpSecret } from './totp-seal.js';
import { totpUri } from './totp.js';

/** The secret and its URI, or undefined once the operator is enrolled (it is never shown again). */
export async function enrolmentSecret(ctx: AppContext, operatorId: number): Promise<{ secret: string; uri: string } | undefined> {
  const secrets = await findOperatorSecrets(ctx.db, { id: operatorId });
  if (!secrets || secrets.totpEnrolledAt) return undefined;
  const secret = await openTotpSecret(ctx, ctx.db, 'operator', secrets.totpSecretSealed);
  return { secret, uri: totpUri(secret, secrets.email) };
}

/** Confirms a code from the new app (throws SignInError when wrong) and returns the recovery codes, shown once. */
export async function confirmEnrolment(ctx: AppContext, options: { operatorId: number; email: string; code: string }): Promise<string[]> {
  await checkOperatorCode(ctx, { operatorId: options.operatorId, code: options.code, allowRecovery: false });
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => issueRecoveryCodes(tx, { kind: 'operator', accountId: options.operatorId, actor: { kind: 'operator', id: options.operatorId, label: options.email }, now }));
}
