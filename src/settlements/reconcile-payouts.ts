// Payouts against NPI's books for one day: NPI's transaction reports by date (both rails) beside the
// payouts Bhuktani posted that day, matched by instruction id (each payout's own). A difference is a
// transfer one side holds and the other does not, another amount, or another outcome: NPI credited
// and Bhuktani does not count it Paid, NPI failed it and Bhuktani does not count it Failed.
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { AppError } from '../http/errors.js';
import type { NpiReportEntry } from '../payout-rails/npi/transformers.js';
import { transfersBetween, transfersByInstruction } from './npi-transfer-store.js';
import { findPayoutRail, npiConnectorOf } from './payout-rail-setup.js';

export interface PayoutDifference {
  instructionId: string;
  problem: string;
  bhuktani?: { idx: string; state: string; amount: number };
  npi?: { status: string; amount: number; detail: string };
}

export interface PayoutReconciliation {
  date: string;
  environment: Environment;
  npiEntries: number;
  transfers: number;
  matched: number;
  differences: PayoutDifference[];
}

/** NCHL's day (its `recDate`) is Nepal's: from 00:00 at UTC+5:45. */
const nepalDay = (date: string) => {
  const from = new Date(`${date}T00:00:00+05:45`);
  return { from, to: new Date(from.getTime() + 24 * 3600 * 1000) };
};

/** What Bhuktani's state says NPI should say of a payout. */
const agrees = (state: string, npi: NpiReportEntry['status']) =>
  (npi === 'paid' && state === 'Paid') || (npi === 'failed' && state === 'Failed') || (npi === 'pending' && state === 'Processing');

export async function reconcilePayouts(ctx: AppContext, input: { environment: Environment; date: string }): Promise<PayoutReconciliation> {
  const { environment, date } = input;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new AppError('validation_error', { fields: { date: ['Give the day as YYYY-MM-DD.'] } });
  const rail = await findPayoutRail(ctx, environment);
  if (rail.rail !== 'npi') throw new AppError('conflict', { detail: `The ${environment} payout rail is the bank file: there are no NPI books to reconcile with.` });
  const connector = npiConnectorOf(ctx, rail.setup);
  const entries: NpiReportEntry[] = [];
  for (const r of ['cips', 'ips'] as const) {
    const report = await connector.reportByDate(r, { from: date, to: date });
    if (report.kind === 'unknown') throw new AppError('unavailable', { detail: `NPI's ${r === 'cips' ? 'connectIPS' : 'NCHL-IPS'} report of ${date} could not be had: ${report.detail}` });
    entries.push(...report.entries);
  }
  const { from, to } = nepalDay(date);
  const ours = await transfersBetween(ctx.db, environment, from, to);
  // NPI's entries for payouts posted another day (posted again after midnight) are ours too.
  const known = new Set(ours.map((t) => t.instruction_id));
  ours.push(...(await transfersByInstruction(ctx.db, environment, entries.map((e) => e.reference.instructionId).filter((id) => !known.has(id)))));
  const byInstruction = new Map(ours.map((t) => [t.instruction_id, t]));
  const differences: PayoutDifference[] = [];
  const seen = new Set<string>();
  let matched = 0;
  for (const e of entries) {
    const id = e.reference.instructionId;
    const npi = { status: e.status, amount: e.amount, detail: e.detail };
    if (seen.has(id)) {
      differences.push({ instructionId: id, problem: 'NPI lists this instruction twice', npi });
      continue;
    }
    seen.add(id);
    const t = byInstruction.get(id);
    if (!t) {
      differences.push({ instructionId: id, problem: 'NPI holds a transfer no payout of Bhuktani made', npi });
      continue;
    }
    const bhuktani = { idx: t.idx, state: t.payout_state, amount: t.amount };
    if (e.amount !== t.amount) differences.push({ instructionId: id, problem: `NPI moved ${e.amount} paisa, the payout is ${t.amount}`, bhuktani, npi });
    else if (!agrees(t.payout_state, e.status)) differences.push({ instructionId: id, problem: `NPI says ${e.status}, the payout is ${t.payout_state}`, bhuktani, npi });
    else matched++;
  }
  for (const t of ours) {
    if (seen.has(t.instruction_id) || t.status === 'unsent' || t.created_at < from || t.created_at >= to) continue;
    differences.push({ instructionId: t.instruction_id, problem: 'NPI has no record of this posted payout', bhuktani: { idx: t.idx, state: t.payout_state, amount: t.amount } });
  }
  return { date, environment, npiEntries: entries.length, transfers: ours.length, matched, differences };
}
