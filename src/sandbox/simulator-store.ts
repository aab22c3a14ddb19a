// The simulators' own payments (the sandbox's providers): what each was asked
// to take, and the outcome the developer picked on its page. Deterministic: an outcome, once picked,
// answers the same way every time (pending_then_paid counts the status checks it has answered).
import type { Queryable } from '../db/db.js';

export const simulatedOutcomes = ['paid', 'canceled', 'pending_then_paid', 'never_answers'] as const;
export type SimulatedOutcome = (typeof simulatedOutcomes)[number];

export interface Simulation {
  provider: string;
  reference: string;
  amount: number;
  details: Record<string, string>;
  outcome: 'open' | SimulatedOutcome;
  status_checks: number;
  refunded: number;
  transaction_id: string | null;
  created_at: Date;
}

const columns = 'provider, reference, amount, details, outcome, status_checks, refunded, transaction_id, created_at';

/**
 * Whether `reference` names a live payment's attempt. A simulator is the sandbox's: it refuses one,
 * as a provider's sandbox knows nothing of its production (the published test merchants' keys let
 * anyone sign a request for any reference).
 */
export async function namesLivePayment(db: Queryable, reference: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM provider_attempts WHERE idx = $1 AND environment = 'live'`, [reference]);
  return rows.length > 0;
}

/** Stores a new simulated payment; false when the reference exists already (a form posted twice). */
export async function insertSimulation(db: Queryable, s: Pick<Simulation, 'provider' | 'reference' | 'amount' | 'details' | 'created_at'>): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO provider_simulations (provider, reference, amount, details, outcome, created_at) VALUES ($1, $2, $3, $4, 'open', $5)
     ON CONFLICT (provider, reference) DO NOTHING RETURNING reference`,
    [s.provider, s.reference, s.amount, JSON.stringify(s.details), s.created_at],
  );
  return rows.length > 0;
}

export async function findSimulation(db: Queryable, provider: string, reference: string): Promise<Simulation | undefined> {
  const [row] = await db.query<Simulation>(`SELECT ${columns} FROM provider_simulations WHERE provider = $1 AND reference = $2`, [provider, reference]);
  return row;
}

export async function findSimulationByTransaction(db: Queryable, provider: string, transactionId: string): Promise<Simulation | undefined> {
  const [row] = await db.query<Simulation>(`SELECT ${columns} FROM provider_simulations WHERE provider = $1 AND transaction_id = $2`, [provider, transactionId]);
  return row;
}

/** A simulated payment by a detail of its own (a provider's own key for it); a scan, for the sandbox's few rows. */
export async function findSimulationByDetail(db: Queryable, provider: string, name: string, value: string): Promise<Simulation | undefined> {
  const [row] = await db.query<Simulation>(`SELECT ${columns} FROM provider_simulations WHERE provider = $1 AND details ->> $2 = $3 LIMIT 1`, [provider, name, value]);
  return row;
}

/**
 * Picks the outcome of an open simulated payment, and adds `details` (how it was decided) in the
 * same move, so a second pick changes neither; the payment as it is now.
 */
export async function pickOutcome(db: Queryable, provider: string, reference: string, outcome: SimulatedOutcome, transactionId: string, details: Record<string, string> = {}): Promise<Simulation | undefined> {
  await db.query(
    `UPDATE provider_simulations SET outcome = $3, transaction_id = CASE WHEN $3 = 'canceled' THEN NULL ELSE $4 END, details = details || $5::jsonb
     WHERE provider = $1 AND reference = $2 AND outcome = 'open'`,
    [provider, reference, outcome, transactionId, JSON.stringify(details)],
  );
  return findSimulation(db, provider, reference);
}

/** Adds to a simulated payment's details (how it was paid). */
export async function addSimulationDetails(db: Queryable, provider: string, reference: string, details: Record<string, string>): Promise<void> {
  await db.query('UPDATE provider_simulations SET details = details || $3::jsonb WHERE provider = $1 AND reference = $2', [provider, reference, JSON.stringify(details)]);
}

/** Counts a status check; the count including this one. */
export async function countStatusCheck(db: Queryable, provider: string, reference: string): Promise<number> {
  const [row] = await db.query<{ status_checks: number }>('UPDATE provider_simulations SET status_checks = status_checks + 1 WHERE provider = $1 AND reference = $2 RETURNING status_checks', [provider, reference]);
  return row?.status_checks ?? 0;
}

/** Refunds `amount` of a paid simulated payment if that much is left; whether it did. */
export async function refundSimulation(db: Queryable, provider: string, reference: string, amount: number): Promise<boolean> {
  const rows = await db.query('UPDATE provider_simulations SET refunded = refunded + $3 WHERE provider = $1 AND reference = $2 AND refunded + $3 <= amount RETURNING reference', [provider, reference, amount]);
  return rows.length > 0;
}

/** What a simulated payment's status check says: `paid` once its outcome allows, per the checks answered. */
export function simulatedStatus(simulation: Simulation, checks: number): 'open' | 'paid' | 'canceled' | 'undecided' | 'silent' {
  switch (simulation.outcome) {
    case 'pending_then_paid':
      return checks <= 2 ? 'undecided' : 'paid';
    case 'never_answers':
      return 'silent';
    default:
      return simulation.outcome;
  }
}
