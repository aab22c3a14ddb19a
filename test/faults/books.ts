// The invariants of a run, read from the books on both sides: the providers' (what each simulator
// took and refunded: provider_simulations, written by the providers' own app on a store without
// faults), Bhuktani's (payments, attempts, refunds owed at providers, links, the ledger), the
// merchant's (the lookups it gets, the callbacks and webhooks it received) and the network's (the
// calls the providers' boundary saw). Each break is a sentence naming what broke and where.
import { CLI_ACTOR } from '../../src/audit/audit-entry.js';
import type { Queryable } from '../../src/db/db.js';
import { verifyLedger } from '../../src/ledger/verify-ledger.js';
import { npiBooksDiffer } from '../npi-books.js';
import { reconcileReport } from '../../src/provider-payments/settlement-report.js';
import { descriptorOf, providerNames } from '../../src/providers/registry.js';
import { LOOKUP_PATH } from '../api-client.js';
import type { Driver } from './operations.js';
import type { World } from './world.js';

/** What a provider's simulator recorded of one payment. */
interface Simulation {
  provider: string;
  reference: string;
  amount: number;
  outcome: string;
  refunded: number;
  transaction_id: string | null;
}

/** The payer paid at the provider (whatever its status check says yet). */
const paidThere = (s: Simulation | undefined) => s !== undefined && s.outcome !== 'open' && s.outcome !== 'canceled';

interface AttemptRow {
  idx: string;
  pidx: string;
  provider: string;
  state: string;
  amount: number;
  /** As the store keeps it: the provider's fields, as JSON. */
  provider_reference: unknown;
  transaction_id: string | null;
}

/** The reference a provider's books name an attempt by: Khalti's own pidx, the others' our attempt idx. */
const referenceOf = (a: Pick<AttemptRow, 'provider' | 'idx' | 'provider_reference'>) => (a.provider === 'khalti' ? ((a.provider_reference as { pidx?: string } | null)?.pidx ?? '') : a.idx);

async function simulations(db: Queryable): Promise<Map<string, Simulation>> {
  const rows = await db.query<Simulation>('SELECT provider, reference, amount, outcome, refunded, transaction_id FROM provider_simulations');
  return new Map(rows.map((r) => [`${r.provider}:${r.reference}`, { ...r, amount: Number(r.amount), refunded: Number(r.refunded) }]));
}

/** Checked after every step: what holds at any moment, faults or not. */
export async function stepBreaks(world: World): Promise<string[]> {
  const breaks: string[] = [];
  const sims = await simulations(world.db);
  const merchant = world.merchant.merchant.id;
  // Nothing is held by a request the provider did not confirm: a Pending payment's attempt was paid there.
  const held = await world.db.query<AttemptRow & { status: string }>(
    `SELECT a.idx, a.pidx, a.provider, a.state, a.amount, a.provider_reference, a.transaction_id, p.status
       FROM payments p JOIN provider_attempts a ON a.transaction_id = p.transaction_id
      WHERE p.merchant_id = $1 AND p.status = 'Pending'`,
    [merchant],
  );
  for (const a of held) {
    const sim = sims.get(`${a.provider}:${referenceOf(a)}`);
    if (!paidThere(sim)) breaks.push(`payment ${a.pidx} is held Pending by ${a.provider} attempt ${a.idx}, which the provider's books show ${sim ? sim.outcome : 'never started'}`);
  }
  // A payment link's places are the payments that hold one.
  const links = await world.db.query<{ idx: string; payments_taken: number; holding: number }>(
    `SELECT l.idx, l.payments_taken, count(p.pidx) FILTER (WHERE p.status IN ('Completed', 'Pending', 'Refunded', 'Partially refunded')) AS holding
       FROM payment_links l LEFT JOIN payments p ON p.payment_link = l.idx WHERE l.merchant_id = $1 GROUP BY l.idx, l.payments_taken`,
    [merchant],
  );
  for (const l of links) if (Number(l.payments_taken) !== Number(l.holding)) breaks.push(`link ${l.idx} counts ${l.payments_taken} places taken, but ${l.holding} payments hold one`);
  // NPI's books (the simulator's) against the payouts: none paid twice, none paid that NPI did not credit.
  for (const found of await npiBooksDiffer(world.db)) breaks.push(`NPI: ${found}`);
  return breaks;
}

/** Checked once the run is drained (no faults, the held requests delivered, the jobs run until nothing is due). */
export async function finalBreaks(world: World, driver: Driver): Promise<string[]> {
  const breaks = await stepBreaks(world);
  const db = world.db;
  const sims = await simulations(db);
  const merchant = world.merchant.merchant.id;

  for (const failed of (await verifyLedger(db)).filter((r) => !r.holds)) breaks.push(`ledger verify: ${failed.invariant}: ${JSON.stringify(failed.violations.slice(0, 2))}`);

  // Every payout NPI moved is decided after the drain, or in the operators' queue with NPI's last word.
  const undecided = await db.query<{ idx: string; state: string; detail: string | null }>(
    `SELECT p.idx, p.state, t.detail FROM payouts p JOIN npi_transfers t ON t.payout_id = p.id
      WHERE p.merchant_id = $1 AND p.state = 'Processing' AND NOT t.needs_operator`,
    [merchant],
  );
  for (const u of undecided) breaks.push(`payout ${u.idx} is still Processing after the drain, and not in the operators' queue (NPI: ${u.detail})`);

  // Each provider's books equal Bhuktani's attempts: paid there exactly when paid (or owed back) here.
  const attempts = await db.query<AttemptRow>(
    `SELECT a.idx, a.pidx, a.provider, a.state, a.amount, a.provider_reference, a.transaction_id
       FROM provider_attempts a JOIN payments p ON p.pidx = a.pidx WHERE p.merchant_id = $1`,
    [merchant],
  );
  const known = new Set(attempts.map((a) => `${a.provider}:${referenceOf(a)}`));
  // What the operators' settlement reconciliation must find: money a provider took that Bhuktani did
  // not collect. Only the documented gap may leave one (docs/fonepay.md: a Fonepay web checkout
  // paid by a payer who never came back has no trace id to ask by), and only with the operators.
  const uncollected = new Set<string>();
  for (const a of attempts) {
    const sim = sims.get(`${a.provider}:${referenceOf(a)}`);
    const paid = paidThere(sim);
    if (paid && !['Paid', 'Surplus'].includes(a.state)) uncollected.add(`${a.provider}:${a.idx}`);
    const unaskable = a.provider === 'fonepay' && a.provider_reference === null && a.state === 'Failed';
    if (paid && !['Paid', 'Surplus', 'Escalated'].includes(a.state) && !unaskable) breaks.push(`${a.provider} took ${sim!.amount} for attempt ${a.idx}, which Bhuktani holds ${a.state} after the drain`);
    if (!paid && ['Paid', 'Surplus'].includes(a.state)) breaks.push(`attempt ${a.idx} is ${a.state} at Bhuktani, but ${a.provider}'s books show ${sim ? sim.outcome : 'nothing'}`);
    if (paid && sim!.amount !== Number(a.amount)) breaks.push(`attempt ${a.idx} is for ${a.amount}, ${a.provider} took ${sim!.amount}`);
    if (['Started', 'Unknown'].includes(a.state)) breaks.push(`attempt ${a.idx} (${a.provider}) is still ${a.state} after the drain`);
  }
  for (const [key, sim] of sims) if (paidThere(sim) && !known.has(key)) breaks.push(`${sim.provider} took ${sim.amount} for ${sim.reference}, an attempt Bhuktani does not know`);
  const attemptOf = new Map(attempts.map((a) => [`${a.provider}:${referenceOf(a)}`, a.idx]));
  breaks.push(...(await settlementDifferences(world, [...sims.values()].filter(paidThere), uncollected, attemptOf)));

  // Every Completed payment through a provider has its provider's confirmation, for its amount.
  const completed = await db.query<{ pidx: string; amount: number; state: string | null; provider: string | null; idx: string | null; provider_reference: unknown; payer_mobile: string | null }>(
    `SELECT p.pidx, p.amount, a.state, a.provider, a.idx, a.provider_reference, p.payer_mobile
       FROM payments p LEFT JOIN provider_attempts a ON a.transaction_id = p.transaction_id
      WHERE p.merchant_id = $1 AND p.status IN ('Completed', 'Refunded', 'Partially refunded')`,
    [merchant],
  );
  for (const p of completed) {
    if (p.payer_mobile !== null) continue;
    if (p.state !== 'Paid') {
      breaks.push(`payment ${p.pidx} is completed with no paid attempt (${p.state ?? 'none'})`);
      continue;
    }
    const sim = sims.get(`${p.provider}:${referenceOf({ provider: p.provider!, idx: p.idx!, provider_reference: p.provider_reference })}`);
    if (!paidThere(sim) || sim!.amount !== Number(p.amount)) breaks.push(`payment ${p.pidx} completed through ${p.provider} without its confirmation for ${p.amount}`);
  }

  // Refunds: none made twice at a provider, none marked made that was not, none left undecided.
  const refunds = await db.query<{ idx: string; provider: string; provider_reference: unknown; made: number; with_operators: number; due: number }>(
    `SELECT a.idx, a.provider, a.provider_reference,
            coalesce(sum(r.amount) FILTER (WHERE r.state = 'Refunded'), 0) AS made,
            coalesce(sum(r.amount) FILTER (WHERE r.state = 'Queued' AND r.next_try_at IS NULL), 0) AS with_operators,
            coalesce(sum(r.amount) FILTER (WHERE r.state = 'Queued' AND r.next_try_at IS NOT NULL), 0) AS due
       FROM provider_attempts a JOIN payments p ON p.pidx = a.pidx LEFT JOIN provider_refunds r ON r.attempt_id = a.id
      WHERE p.merchant_id = $1 AND a.state IN ('Paid', 'Surplus') GROUP BY a.idx, a.provider, a.provider_reference`,
    [merchant],
  );
  for (const r of refunds) {
    const there = sims.get(`${r.provider}:${referenceOf(r)}`)?.refunded ?? 0;
    const [made, withOperators, due] = [Number(r.made), Number(r.with_operators), Number(r.due)];
    if (due > 0) breaks.push(`attempt ${r.idx}: refunds of ${due} are still being tried after the drain`);
    if (there < made) breaks.push(`attempt ${r.idx}: Bhuktani marked ${made} refunded, ${r.provider} refunded ${there}`);
    if (there > made + withOperators) breaks.push(`attempt ${r.idx}: ${r.provider} refunded ${there}, more than the ${made + withOperators} Bhuktani owes back (a refund made twice)`);
  }

  // Every merchant's lookup agrees with the store the ledger was verified against.
  const front = world.front;
  for (const handle of driver.payments) {
    const answer = await front.inject({ method: 'POST', url: LOOKUP_PATH, headers: { authorization: `Key ${world.merchant.test_secret_key}` }, payload: { pidx: handle.pidx } });
    const body = answer.json() as { status: string; total_amount: number; refunded_amount: number; transaction_id: string | null };
    const [row] = await db.query<{ status: string; refunded_amount: number; transaction_id: string | null; expires_at: Date }>('SELECT status, refunded_amount, transaction_id, expires_at FROM payments WHERE pidx = $1', [handle.pidx]);
    const stored = row.status === 'Initiated' && row.expires_at <= world.clock.now() ? 'Expired' : row.status;
    if (body.status !== stored || body.total_amount !== handle.amount || body.refunded_amount !== Number(row.refunded_amount)) {
      breaks.push(`lookup of ${handle.pidx} says ${body.status}, ${body.total_amount}, refunded ${body.refunded_amount}; the store ${stored}, ${handle.amount}, refunded ${row.refunded_amount}`);
    }
    // The callbacks the merchant got name one transaction, the payment's own.
    const ids = new Set(handle.callbacks.filter((c) => c.transaction_id).map((c) => c.transaction_id));
    if (ids.size > 1 || (ids.size === 1 && !ids.has(row.transaction_id ?? ''))) breaks.push(`the callbacks of ${handle.pidx} named ${[...ids].join(', ')}; its transaction is ${row.transaction_id}`);
    if (handle.callbacks.some((c) => c.status === 'Completed') && !['Completed', 'Refunded', 'Partially refunded'].includes(row.status)) breaks.push(`a callback said ${handle.pidx} was Completed; it is ${row.status}`);
  }

  // Webhooks: each event with one id, whatever was delivered twice; each completion and refund delivered.
  const received = world.webhooks.received;
  const idsOf = (type: string, pidx: string) => new Set(received.filter((e) => e.type === type && e.data.pidx === pidx).map((e) => e.id));
  const paidPayments = await db.query<{ pidx: string; refunds: number }>(
    `SELECT p.pidx, (SELECT count(*) FROM transactions t WHERE t.pidx = p.pidx AND t.type = 'Refund') AS refunds
       FROM payments p WHERE p.merchant_id = $1 AND p.status IN ('Completed', 'Refunded', 'Partially refunded')`,
    [merchant],
  );
  for (const p of paidPayments) {
    const completions = idsOf('payment.completed', p.pidx).size;
    if (completions !== 1) breaks.push(`payment ${p.pidx}: ${completions} distinct payment.completed events reached the merchant`);
    const refundEvents = idsOf('refund.completed', p.pidx).size;
    if (refundEvents !== Number(p.refunds)) breaks.push(`payment ${p.pidx}: ${refundEvents} refund.completed events for ${p.refunds} refunds`);
  }
  return breaks;
}

/**
 * Each provider's settlement report, written from its books (what it took, by the key its report
 * names), reconciled by Bhuktani as an operator does (`bhuktani provider reconcile`): it must find
 * exactly the money Bhuktani did not collect, and nothing else.
 */
async function settlementDifferences(world: World, paid: Simulation[], uncollected: Set<string>, attemptOf: Map<string, string>): Promise<string[]> {
  const breaks: string[] = [];
  for (const name of providerNames) {
    const { settlementReport: columns } = descriptorOf(name);
    const rows = paid.filter((s) => s.provider === name).map((s) => `${columns.keyField === 'idx' ? s.reference : s.transaction_id},${(s.amount / 100).toFixed(2)}`);
    const csv = [`${columns.key[0]},${columns.amount[0]}`, ...rows].join('\n');
    const { differences } = await reconcileReport(world.providers.ctx, { actor: CLI_ACTOR, name, environment: 'test', fileName: `${name}.csv`, csv });
    const found = new Set<string>();
    for (const d of differences) {
      const sim = paid.find((s) => s.provider === name && (s.transaction_id === d.key || s.reference === d.key));
      const attempt = d.ledger?.attempt ?? (sim && attemptOf.get(`${name}:${sim.reference}`));
      const expected = (d.problem === 'not collected in the ledger' || d.problem === 'not in the ledger') && attempt !== undefined && uncollected.has(`${name}:${attempt}`);
      if (expected) found.add(`${name}:${attempt}`);
      else breaks.push(`${name}'s settlement report: ${d.key} ${d.problem}`);
    }
    for (const key of uncollected) if (key.startsWith(`${name}:`) && !found.has(key)) breaks.push(`${name} took money for attempt ${key.slice(name.length + 1)} that Bhuktani did not collect, and its settlement reconciliation did not find it`);
  }
  return breaks;
}

/**
 * A provider's status is asked at most once per attempt per two seconds, whoever asks (returns, the
 * QR page's wait, the reconciliation job): the calls the boundary saw for references the payer
 * never paid (a paid one's refunds are checked by the same address). NPI's reports are not payments'
 * status checks: a posting's success is confirmed by the report at once, and a batch NPI never took is
 * posted again and confirmed in the same moment, each by design (docs/settlements.md); its asks back
 * off on their own.
 */
export function askedTooOften(world: World, paidReferences: Set<string>): string[] {
  const last = new Map<string, number>();
  const breaks: string[] = [];
  for (const call of world.boundary.calls) {
    if (call.kind !== 'status' || !call.reference || call.provider === 'npi') continue;
    const key = `${call.provider}:${call.reference}`;
    if (paidReferences.has(key)) continue;
    const before = last.get(key);
    const at = call.at.getTime();
    if (before !== undefined && at - before < 2000) breaks.push(`${call.provider} was asked about ${call.reference} twice within ${at - before} ms`);
    last.set(key, at);
  }
  return [...new Set(breaks)];
}

export async function paidReferences(world: World): Promise<Set<string>> {
  const sims = await simulations(world.db);
  return new Set([...sims.entries()].filter(([, s]) => paidThere(s)).map(([key]) => key));
}
