// What the console's Providers page shows of each provider and environment:
// attempts and their outcomes, success rate, latency, open unknowns, and the money (receivable,
// fees, refunds due), read for that one page.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { providerNumbersForSql, type ProviderName } from '../providers/registry.js';

export interface ProviderFigures {
  name: ProviderName;
  environment: Environment;
  attempts: number;
  paid: number;
  failed: number;
  surplus: number;
  /** Attempts whose outcome is not known yet (Unknown) or handed to the operators (Escalated). */
  openUnknowns: number;
  escalated: number;
  calls: number;
  failedCalls: number;
  averageMs: number | undefined;
  failuresInARow: number;
  coolingUntil: Date | null;
  /** Paisa the provider owes the operator; what it kept; what is owed back to payers through it. */
  receivable: number;
  fees: number;
  refundsDue: number;
}

export async function providerFigures(db: Queryable): Promise<ProviderFigures[]> {
  const rows = await db.query<Record<string, unknown>>(
    `WITH names AS (
       SELECT n.name, n.number, n.ord, e.environment FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS n (name, number, ord), unnest(ARRAY['test', 'live']) AS e (environment)
     ), attempts AS (
       SELECT provider, environment, count(*) AS attempts, count(*) FILTER (WHERE state = 'Paid') AS paid, count(*) FILTER (WHERE state = 'Failed') AS failed,
              count(*) FILTER (WHERE state = 'Surplus') AS surplus, count(*) FILTER (WHERE state IN ('Unknown', 'Escalated')) AS open_unknowns,
              count(*) FILTER (WHERE state = 'Escalated') AS escalated
         FROM provider_attempts GROUP BY provider, environment
     ), money AS (
       SELECT a.environment, a.owner_id AS number,
              sum(p.amount) FILTER (WHERE a.kind = 'receivable') AS receivable, sum(p.amount) FILTER (WHERE a.kind = 'provider_fee') AS fees,
              sum(p.amount) FILTER (WHERE a.kind = 'refund_due') AS refunds_due
         FROM ledger_accounts a JOIN postings p ON p.account_id = a.id
        WHERE a.kind IN ('receivable', 'provider_fee', 'refund_due') GROUP BY a.environment, a.owner_id
     )
     SELECT n.name, n.environment, coalesce(t.attempts, 0) AS attempts, coalesce(t.paid, 0) AS paid, coalesce(t.failed, 0) AS failed, coalesce(t.surplus, 0) AS surplus,
            coalesce(t.open_unknowns, 0) AS open_unknowns, coalesce(t.escalated, 0) AS escalated,
            coalesce(h.calls, 0) AS calls, coalesce(h.failed_calls, 0) AS failed_calls, coalesce(h.call_ms, 0) AS call_ms, coalesce(h.failures_in_a_row, 0) AS failures_in_a_row, h.cooldown_until,
            -coalesce(m.receivable, 0) AS receivable, -coalesce(m.fees, 0) AS fees, coalesce(m.refunds_due, 0) AS refunds_due
       FROM names n
       LEFT JOIN attempts t ON t.provider = n.name AND t.environment = n.environment
       LEFT JOIN provider_health h ON h.name = n.name AND h.environment = n.environment
       LEFT JOIN money m ON m.number = n.number AND m.environment = n.environment
      ORDER BY n.environment DESC, n.ord`,
    providerNumbersForSql(),
  );
  return rows.map((r) => {
    const calls = Number(r.calls);
    return {
      name: r.name as ProviderName,
      environment: r.environment as Environment,
      attempts: Number(r.attempts),
      paid: Number(r.paid),
      failed: Number(r.failed),
      surplus: Number(r.surplus),
      openUnknowns: Number(r.open_unknowns),
      escalated: Number(r.escalated),
      calls,
      failedCalls: Number(r.failed_calls),
      averageMs: calls ? Math.round(Number(r.call_ms) / calls) : undefined,
      failuresInARow: Number(r.failures_in_a_row),
      coolingUntil: (r.cooldown_until as Date | null) ?? null,
      receivable: Number(r.receivable),
      fees: Number(r.fees),
      refundsDue: Number(r.refunds_due),
    };
  });
}

export interface EscalatedAttempt {
  idx: string;
  pidx: string;
  provider: ProviderName;
  environment: Environment;
  amount: number;
  checks: number;
  last_answer: string | null;
  payment_status: string;
  purchase_order_id: string;
  merchant_name: string;
  created_at: Date;
}

/** Attempts handed to the operators, oldest first. */
export async function listEscalatedAttempts(db: Queryable, limit: number): Promise<EscalatedAttempt[]> {
  return db.query<EscalatedAttempt>(
    `SELECT a.idx, a.pidx, a.provider, a.environment, a.amount, a.checks, a.last_answer, p.status AS payment_status, p.purchase_order_id, m.name AS merchant_name, a.created_at
       FROM provider_attempts a JOIN payments p ON p.pidx = a.pidx JOIN merchants m ON m.id = p.merchant_id
      WHERE a.state = 'Escalated' ORDER BY a.id LIMIT $1`,
    [limit],
  );
}

/** For the overview's "Needs attention": attempts to decide and refunds to make at providers by hand. */
export async function providerAttention(db: Queryable): Promise<{ escalated: number; refundsToMake: number }> {
  const [row] = await db.query<{ escalated: number; refunds: number }>(
    `SELECT (SELECT count(*)::int FROM provider_attempts WHERE state = 'Escalated') AS escalated,
            (SELECT count(*)::int FROM provider_refunds WHERE state = 'Queued' AND next_try_at IS NULL) AS refunds`,
  );
  return { escalated: row.escalated, refundsToMake: row.refunds };
}
