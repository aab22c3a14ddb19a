// A new set of recovery codes for an operator or a merchant user (at enrolment, or when they ask):
// the old set stops working in the same transaction; the codes are returned to be shown once. The
// audit log records operators' acts (a merchant user's own security settings are not operator acts).
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { Queryable } from '../db/db.js';
import { type RecoveryAccountKind, replaceRecoveryCodes } from './recovery-code-store.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';

export async function issueRecoveryCodes(tx: Queryable, options: { kind: RecoveryAccountKind; accountId: number; actor?: Actor; now: Date }): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(tx, options.kind, options.accountId, codes.map(hashRecoveryCode));
  if (options.actor) await appendAudit(tx, { now: options.now, actor: options.actor, action: 'operator.recovery_codes', object: { type: 'operator', id: String(options.accountId) } });
  return codes;
}
