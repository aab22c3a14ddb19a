// A provider attempt's life, like a payment's and a payout's: one table of
// moves, each made by one conditional UPDATE that records its event on the payment's timeline in the
// same statement, so two instances settling one attempt have one winner.
//
//   Started ──pay──────▶ Paid       the provider confirmed the money; the payment completed from it
//      │    ──surplus──▶ Surplus    confirmed, but the payment was no longer payable: owed back
//      │    ──fail─────▶ Failed     the provider says no money was taken
//      ├─doubt─▶ Unknown ─(pay | surplus | fail | escalate)
//      └─escalate─▶ Escalated ─(pay | surplus | fail), by an operator; reopen ─▶ Unknown (ask again)
import type { Queryable } from '../db/db.js';
import { Statement } from '../db/statement.js';
import type { Environment } from '../environment.js';
import type { ProviderName } from '../providers/registry.js';

export const attemptStates = ['Started', 'Unknown', 'Paid', 'Surplus', 'Failed', 'Escalated'] as const;
export type AttemptState = (typeof attemptStates)[number];

const open: readonly AttemptState[] = ['Started', 'Unknown', 'Escalated'];

export const attemptMoves = {
  pay: { from: open, to: 'Paid' },
  surplus: { from: open, to: 'Surplus' },
  fail: { from: open, to: 'Failed' },
  doubt: { from: ['Started'], to: 'Unknown' },
  escalate: { from: ['Started', 'Unknown'], to: 'Escalated' },
  /** An operator has the job ask again. */
  reopen: { from: ['Escalated'], to: 'Unknown' },
} as const satisfies Record<string, { from: readonly AttemptState[]; to: AttemptState }>;

export type AttemptMove = keyof typeof attemptMoves;

/** States the reconciliation job still asks the provider about. */
export const watchedStates: readonly AttemptState[] = ['Started', 'Unknown'];
export const isSettled = (state: AttemptState) => state === 'Paid' || state === 'Surplus' || state === 'Failed';

export interface Attempt {
  id: number;
  idx: string;
  pidx: string;
  environment: Environment;
  provider: ProviderName;
  amount: number;
  state: AttemptState;
  /** What the connector kept of the attempt, as JSON of its provider's `reference` schema (read back through it by providers/connectors.ts). */
  provider_reference: unknown;
  provider_transaction_id: string | null;
  provider_fee: number;
  transaction_id: string | null;
  checks: number;
  next_check_at: Date | null;
  lease_until: Date | null;
  last_answer: string | null;
  created_at: Date;
  updated_at: Date;
}

export const attemptColumns =
  'id, idx, pidx, environment, provider, amount, state, provider_reference, provider_transaction_id, provider_fee, transaction_id, checks, next_check_at, lease_until, last_answer, created_at, updated_at';

export interface MoveFields {
  /** What the provider said, in a line (kept on the attempt and in the event). */
  answer: string;
  transactionId?: string;
  providerTransactionId?: string;
  providerFee?: number;
  /** When the reconciliation job asks next (for moves to a state it watches). */
  nextCheckAt?: Date;
}

/** Makes `move` on the attempt if its state allows it; the moved attempt, or null when another won. */
export async function moveAttempt(db: Queryable, attempt: Pick<Attempt, 'id' | 'pidx' | 'idx' | 'provider'>, move: AttemptMove, fields: MoveFields, now: Date): Promise<Attempt | null> {
  const rule = attemptMoves[move];
  const s = new Statement();
  const at = s.param(now);
  const sets = [`state = ${s.param(rule.to)}`, `last_answer = ${s.param(fields.answer.slice(0, 500))}`, `updated_at = ${at}`, 'lease_until = NULL'];
  sets.push(`next_check_at = ${s.param(watchedStates.includes(rule.to) ? (fields.nextCheckAt ?? now) : null)}`);
  if (fields.transactionId !== undefined) sets.push(`transaction_id = ${s.param(fields.transactionId)}`);
  if (fields.providerTransactionId !== undefined) sets.push(`provider_transaction_id = ${s.param(fields.providerTransactionId)}`);
  if (fields.providerFee !== undefined) sets.push(`provider_fee = ${s.param(fields.providerFee)}`);
  s.with('moved', `UPDATE provider_attempts SET ${sets.join(', ')} WHERE id = ${s.param(attempt.id)} AND state = ANY(${s.param(rule.from)}::text[]) RETURNING ${attemptColumns}`);
  const detail = s.param(JSON.stringify({ attempt: attempt.idx, provider: attempt.provider, answer: fields.answer.slice(0, 200) }));
  s.with('event', `INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, ${at}, ${s.param(`attempt_${move}`)}, ${detail} FROM moved`);
  const [row] = await db.query<Attempt>(s.text(`SELECT ${attemptColumns} FROM moved`), s.params);
  return row ?? null;
}
