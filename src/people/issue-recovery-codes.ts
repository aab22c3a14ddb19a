// A new set of recovery codes for an operator (at enrolment, or when they ask): the old set stops
// working in the same transaction; the codes are returned to be shown once.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { Queryable } from '../db/db.js';
import { replaceRecoveryCodes } from './operator-store.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';

export async function issueRecoveryCodes(tx: Queryable, options: { operatorId: number; actor: Actor; now: Date }): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(tx, options.operatorId, codes.map(hashRecoveryCode));
  await appendAudit(tx, { now: options.now, actor: options.actor, action: 'operator.recovery_codes', object: { type: 'operator', id: String(options.operatorId) } });
  return codes;
}
