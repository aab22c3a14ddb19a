// A run of `ledger verify` that someone asked for (an operator's button, the CLI): its result is
// kept, so the console shows when the ledger was last proven and what was broken, and audited.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { Db, Queryable } from '../db/db.js';
import { type InvariantResult, verifyLedger } from './verify-ledger.js';

export interface LedgerVerification {
  verifiedAt: Date;
  actorLabel: string;
  passed: boolean;
  /** The invariants that did not hold, with their first offending rows. */
  broken: InvariantResult[];
}

export async function runLedgerVerification(ctx: { db: Db; clock: { now(): Date } }, options: { actor: Actor }): Promise<{ passed: boolean; results: InvariantResult[] }> {
  const results = await verifyLedger(ctx.db);
  const broken = results.filter((r) => !r.holds);
  const passed = broken.length === 0;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>('INSERT INTO ledger_verifications (verified_at, actor_label, operator_id, passed, broken) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
      now,
      options.actor.label,
      options.actor.kind === 'operator' ? options.actor.id : null,
      passed,
      JSON.stringify(broken),
    ]);
    await appendAudit(tx, { now, actor: options.actor, action: 'ledger.verify', object: { type: 'ledger', id: `verification:${row.id}` }, after: { passed, broken: broken.map((b) => b.invariant) } });
  });
  return { passed, results };
}

export async function lastLedgerVerification(db: Queryable): Promise<LedgerVerification | undefined> {
  const [row] = await db.query<{ verified_at: Date; actor_label: string; passed: boolean; broken: InvariantResult[] }>(
    'SELECT verified_at, actor_label, passed, broken FROM ledger_verifications ORDER BY id DESC LIMIT 1',
  );
  return row && { verifiedAt: row.verified_at, actorLabel: row.actor_label, passed: row.passed, broken: row.broken };
}
