// NPI's books (the simulator's own tables) against Bhuktani's payouts: the invariant of payouts
// through NPI. Every payout NPI moved is there once; a Paid one was credited its amount exactly
// once; a Failed one credited nothing, its debit (if any) reversed; nothing NPI credited is a payout
// Bhuktani does not count paid or on its way; and no money stays between debtor and creditor once NPI
// has decided. Read from the simulator's tables, never through the connector.
import type { Queryable } from '../src/db/db.js';

interface Row {
  idx: string;
  state: string;
  amount: number;
  posted: number;
  credited: number;
  reversed: number;
  debited: number;
  final: boolean;
}

export async function npiBooksDiffer(db: Queryable): Promise<string[]> {
  const rows = await db.query<Row>(
    `SELECT p.idx, p.state, p.amount,
            (SELECT count(*)::int FROM npi_sim_transactions s WHERE s.instruction_id = p.idx) AS posted,
            (SELECT coalesce(sum(e.amount), 0) FROM npi_sim_transactions s JOIN npi_sim_entries e ON e.txn = s.id AND e.kind = 'credit' WHERE s.instruction_id = p.idx) AS credited,
            (SELECT coalesce(sum(e.amount), 0) FROM npi_sim_transactions s JOIN npi_sim_entries e ON e.txn = s.id AND e.kind = 'reversal' WHERE s.instruction_id = p.idx) AS reversed,
            (SELECT coalesce(sum(s.amount), 0) FROM npi_sim_transactions s JOIN npi_sim_batches b ON b.id = s.batch
              WHERE s.instruction_id = p.idx AND EXISTS (SELECT FROM npi_sim_entries e WHERE e.batch = b.id AND e.kind = 'debit')) AS debited,
            coalesce((SELECT bool_and(s.credit_status = s.final_status) FROM npi_sim_transactions s WHERE s.instruction_id = p.idx), true) AS final
       FROM payouts p JOIN npi_transfers t ON t.payout_id = p.id ORDER BY p.id`,
  );
  const problems: string[] = [];
  for (const r of rows) {
    if (r.posted > 1) problems.push(`${r.idx}: NPI holds it ${r.posted} times`);
    if (r.state === 'Paid' && r.credited !== r.amount) problems.push(`${r.idx}: Paid ${r.amount}, NPI credited ${r.credited}`);
    if (r.state === 'Failed' && r.credited !== 0) problems.push(`${r.idx}: Failed, yet NPI credited ${r.credited}`);
    if (r.credited > 0 && r.state !== 'Paid' && r.state !== 'Processing') problems.push(`${r.idx}: NPI credited ${r.credited}, Bhuktani says ${r.state}`);
    if (r.final && r.debited - r.reversed - r.credited !== 0) problems.push(`${r.idx}: ${r.debited - r.reversed - r.credited} paisa left between debtor and creditor`);
  }
  const strangers = await db.query<{ instruction_id: string }>(
    `SELECT s.instruction_id FROM npi_sim_transactions s WHERE NOT EXISTS (SELECT FROM npi_transfers t WHERE t.instruction_id = s.instruction_id)
        AND s.member IN (SELECT DISTINCT member FROM npi_sim_transactions s2 JOIN npi_transfers t2 ON t2.instruction_id = s2.instruction_id)`,
  );
  for (const s of strangers) problems.push(`${s.instruction_id}: NPI holds a transfer no payout made`);
  return problems;
}
