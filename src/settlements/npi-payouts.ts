// Payouts through NCHL's NPI, one run of the payout rail's job for one environment:
//  1. accounts: a Requested payout's account NPI has not validated is asked (account-checks.ts);
//  2. claim: each Requested payout whose account may be paid gets its NPI ids and goes Processing, in
//     one transaction, before anything is sent: real time (connectIPS) within its limit, else (or
//     when the operator sends in batches) in the next NCHL-IPS batch (one per NPI_BATCH_SECONDS in
//     live, up to 10,000);
//  3. post: each batch not yet sent is posted under its ids; a refusal NPI gives before taking
//     anything fails the payouts it concerns, a token or key problem waits for an operator;
//  4. ask: each batch NPI may hold is asked of its report by batch id. Only there, with the amounts
//     checked, does a payout become Paid; a final failure fails it (its money back to the balance).
//     NPI holding no such batch puts it back to post under the same ids; undecided after
//     MAX_CHECKS asks, or a debit timed out (999), it goes to the operators' queue.
// Every move is the payout state machine's, with its journal, in the transaction that records NPI's
// word; a lease keeps two instances from posting or asking about one batch at once.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { NpiConnector } from '../payout-rails/npi/npi-connector.js';
import type { NpiPosting, NpiRail, NpiTransactionOutcome } from '../payout-rails/npi/transformers.js';
import { cipsLimits, ipsMaxTransactions } from '../protocols/npi/codes.js';
import { accountWaits, checkAccount, creditorBank, SANDBOX_CREDITOR } from './account-checks.js';
import { checkKey, checksOfMerchants, type AccountCheckRow, type AccountKey } from './account-check-store.js';
import { applyPayoutMove } from './move-payout.js';
import { decideTransfer, dueBatches, insertTransfer, lastBatchAt, leaseBatch, noteTransfer, type NpiTransferRow } from './npi-transfer-store.js';
import type { Payout } from './payout.js';
import type { NpiRailSetup } from './payout-rail-setup.js';
import { listRequestedPayouts, lockRequestedPayouts, setWaitingReason } from './npi-payouts-store.js';

/** How many Requested payouts one run takes: a whole NCHL-IPS batch. */
const CLAIM = ipsMaxTransactions;
/** Batches posted or asked about per run. */
const BATCHES = 50;
/**
 * How long an instance holds a batch it posts or asks about: one call's timeout and a margin. Most
 * acts take well under a second; one that outlives its lease (a token renewed, then the call) may meet
 * another instance posting the same batch, which is safe (the same ids: NPI refuses the second as a
 * duplicate, and the reports decide), and an instance killed mid-act holds its batches no longer.
 */
const leaseMs = (ctx: AppContext) => ctx.config.providerTimeoutMs + 5_000;
/** Asks of the reports before an undecided transfer goes to the operators (about an hour of backing off). */
export const MAX_CHECKS = 12;
/** NPI holding no batch this long after its posting: it never arrived, and goes again under its ids. */
const NOT_FOUND_GRACE_MS = 30_000;

/** The next ask: 5 s, doubling, at most 10 minutes. */
const backoff = (checks: number) => Math.min(5_000 * 2 ** checks, 600_000);

export interface NpiRun {
  environment: Environment;
  connector: NpiConnector;
  setup: NpiRailSetup;
  /** Live: at most one NCHL-IPS batch per this many seconds; test: every run. */
  batchSeconds: number;
}

/** A sandbox account that always holds the name asked with it: a test payout without an account goes there. */
export const sandboxAccountOf = (merchantId: number) => `${String(merchantId).padStart(10, '0')}0001`;

type Claimable = Payout & { merchant_name: string };
interface Creditor {
  agent: string;
  branch: string;
  account: string;
  name: string;
}

/** The account a payout goes to, as NPI is asked about it: a test payout without one goes to the sandbox's. */
const accountOf = (p: Claimable, bankCode: string): AccountKey => ({
  merchantId: p.merchant_id,
  environment: p.environment,
  bankCode,
  accountNumber: p.account_number ?? sandboxAccountOf(p.merchant_id),
  accountName: p.account_name ?? p.merchant_name,
});

/** Where the payout goes, or why it cannot go yet. */
function creditorOf(p: Claimable, checks: Map<string, AccountCheckRow>): Creditor | { waits: string } {
  const agent = creditorBank(p.environment, p.bank_code);
  if (!agent) return { waits: 'The settlement account names no NCHL bank code: add it on the Business page (4 digits, from your bank), then request the payout again.' };
  const account = accountOf(p, agent);
  const check = checks.get(checkKey(account));
  const waits = accountWaits(check);
  if (waits) return { waits };
  const branch = p.branch_code ?? check?.branch_code ?? (p.environment === 'test' ? SANDBOX_CREDITOR.branch : undefined);
  if (!branch) return { waits: 'The settlement account names no NCHL branch code, and NPI gave none: add it on the Business page, then request the payout again.' };
  return { agent, branch, account: account.accountNumber, name: account.accountName.slice(0, 140) };
}

/** 1. Asks NPI about the accounts of Requested payouts it has not validated (or did not answer for). */
async function checkAccounts(ctx: AppContext, run: NpiRun): Promise<void> {
  const payouts = await listRequestedPayouts(ctx.db, run.environment, CLAIM);
  const checks = await checksOfMerchants(ctx.db, run.environment, [...new Set(payouts.map((p) => p.merchant_id))]);
  const asked = new Set<string>();
  const askAgainBefore = ctx.clock.now().getTime() - 30_000;
  for (const p of payouts) {
    const bankCode = creditorBank(run.environment, p.bank_code);
    if (!bankCode) continue;
    const account = accountOf(p, bankCode);
    const key = checkKey(account);
    const check = checks.get(key);
    if (asked.has(key) || (check && (check.outcome !== 'unknown' || check.checked_at.getTime() > askAgainBefore))) continue;
    asked.add(key);
    await checkAccount(ctx, run.connector, account);
  }
}

/** 2. Gives each Requested payout that may go its NPI ids and moves it to Processing; the rest say why they wait. */
async function claim(ctx: AppContext, run: NpiRun): Promise<number> {
  const now = ctx.clock.now();
  const last = run.batchSeconds > 0 ? await lastBatchAt(ctx.db, run.environment) : null;
  const batchDue = !last || now.getTime() - last.getTime() >= run.batchSeconds * 1000;
  const debtorBank = run.setup.settings.debtor_bank;
  const batchesOnly = run.setup.settings.send === 'batches';
  return ctx.db.transaction(async (tx) => {
    const payouts = await lockRequestedPayouts(tx, run.environment, CLAIM);
    const checks = await checksOfMerchants(tx, run.environment, [...new Set(payouts.map((p) => p.merchant_id))]);
    let batch: { id: string; count: number } | undefined;
    let moved = 0;
    for (const p of payouts) {
      const creditor = creditorOf(p, checks);
      if ('waits' in creditor) {
        await wait(tx, p, creditor.waits, now);
        continue;
      }
      const onUs = creditor.agent === debtorBank;
      // NCHL-IPS carries interbank transfers only: one to the debtor's own bank goes in real time.
      const rail: NpiRail = p.amount <= (onUs ? cipsLimits.onUs : cipsLimits.offUs) && (onUs || !batchesOnly) ? 'cips' : 'ips';
      if (rail === 'ips' && onUs) {
        await wait(tx, p, 'Over connectIPS’s limit within one bank, which NCHL-IPS does not carry: request smaller payouts.', now);
        continue;
      }
      if (rail === 'ips' && !batchDue) {
        await wait(tx, p, `Goes in the next NCHL-IPS batch (one every ${Math.round(run.batchSeconds / 60)} minutes).`, now);
        continue;
      }
      let batchId: string;
      if (rail === 'cips') batchId = `R${ctx.ids.random(11).slice(0, 15)}`;
      else {
        if (!batch || batch.count === ipsMaxTransactions) batch = { id: `B${ctx.ids.random(11).slice(0, 15)}`, count: 0 };
        batch.count++;
        batchId = batch.id;
      }
      await insertTransfer(
        tx,
        { payout_id: p.id, environment: run.environment, rail, batch_id: batchId, instruction_id: p.idx, end_to_end_id: p.idx, amount: p.amount, creditor_agent: creditor.agent, creditor_branch: creditor.branch, creditor_account: creditor.account, creditor_name: creditor.name },
        now,
      );
      await applyPayoutMove(ctx, tx, p, { name: 'process' }, now);
      moved++;
    }
    return moved;
  });
}

async function wait(tx: Queryable, p: Payout, reason: string, now: Date) {
  if (p.waiting_reason !== reason) await setWaitingReason(tx, p.id, reason, now);
}

/** NPI's final word on a transfer, with the payout's move, in one transaction; false when another had decided it. */
async function decide(ctx: AppContext, t: NpiTransferRow, outcome: NpiTransactionOutcome & { status: 'paid' | 'failed' }, asked: 'posting' | 'report'): Promise<boolean> {
  const now = ctx.clock.now();
  const r = outcome.reference;
  const reference = `NPI ${r.rail === 'cips' ? 'connectIPS' : 'NCHL-IPS'} ${r.batchId}/${r.instructionId}${r.nchlTransactionId != null ? ` (NCHL ${r.nchlTransactionId})` : ''}`;
  return ctx.db.transaction(async (tx) => {
    if (!(await decideTransfer(tx, t.payout_id, { status: outcome.status, detail: outcome.detail, reference, said: asked }, now))) return false;
    const move = outcome.status === 'paid' ? ({ name: 'pay', reference } as const) : ({ name: 'fail', reason: outcome.detail } as const);
    return (await applyPayoutMove(ctx, tx, { id: t.payout_id }, move, now)) !== null;
  });
}

const isFinal = (o: NpiTransactionOutcome): o is NpiTransactionOutcome & { status: 'paid' | 'failed' } => o.status === 'paid' || o.status === 'failed';
/** NCHL: a debit timed out (999) is confirmed with the bank before anything else; only an operator can. */
const forOperators = (o: NpiTransactionOutcome) => o.detail.includes('debit ISO time-out');

/** 3. Posts a batch not yet sent, under its ids. */
async function post(ctx: AppContext, run: NpiRun, transfers: NpiTransferRow[]): Promise<number> {
  const [first] = transfers;
  const batch = {
    batchId: first.batch_id,
    transactions: transfers.map((t) => ({
      instructionId: t.instruction_id,
      endToEndId: t.end_to_end_id,
      amount: t.amount,
      creditorAgent: t.creditor_agent,
      creditorBranch: t.creditor_branch,
      creditorName: t.creditor_name,
      creditorAccount: t.creditor_account,
    })),
  };
  const posting: NpiPosting = first.rail === 'cips' ? await run.connector.postRealTime(batch) : await run.connector.postBatch(batch);
  const now = ctx.clock.now();
  const later = (posts: number) => new Date(now.getTime() + backoff(posts));
  let decided = 0;
  switch (posting.kind) {
    case 'answered':
      for (const outcome of posting.transactions) {
        const t = transfers.find((x) => x.instruction_id === outcome.reference.instructionId)!;
        if (outcome.status === 'failed') {
          if (await decide(ctx, t, { ...outcome, status: 'failed' }, 'posting')) decided++;
          continue;
        }
        // A posting's success carries no amount: the report by batch, which does, makes it Paid, at once.
        const detail = outcome.status === 'paid' ? `${outcome.detail}; the amount confirmed by NPI’s report` : outcome.detail;
        await noteTransfer(ctx.db, t.payout_id, { status: 'sent', detail, nextAt: outcome.status === 'paid' ? now : later(0), posted: true, needsOperator: forOperators(outcome) }, now);
      }
      return decided;
    case 'refused':
      // E004 and E007 are the batch's own fields: NPI took nothing, and the payouts fail with its reason.
      if (posting.code === 'E004' || posting.code === 'E007') {
        for (const t of transfers) {
          const reason = `NPI refused the payout before moving money: ${posting.message} (${posting.code})`;
          if (await decide(ctx, t, { status: 'failed', detail: reason, reference: { rail: t.rail, batchId: t.batch_id, instructionId: t.instruction_id } }, 'posting')) decided++;
        }
        return decided;
      }
      // The member's access (E001's address, E003's token, a refused bearer): nothing moved, an operator mends it.
      for (const t of transfers) {
        await noteTransfer(ctx.db, t.payout_id, { status: 'unsent', detail: `NPI refused the posting: ${posting.message} (${posting.code}); posted again under the same ids once mended`, nextAt: later(t.posts), posted: true, needsOperator: true }, now);
      }
      return 0;
    case 'not-sent':
      for (const t of transfers) {
        await noteTransfer(ctx.db, t.payout_id, { status: 'unsent', detail: `Not sent: ${posting.reason}`, nextAt: later(t.posts), posted: true, needsOperator: t.posts + 1 >= MAX_CHECKS }, now);
      }
      return 0;
    case 'unknown':
      for (const t of transfers) await noteTransfer(ctx.db, t.payout_id, { status: 'sent', detail: posting.detail, nextAt: later(0), posted: true }, now);
      return 0;
  }
}

/** 4. Asks NPI's report what came of a batch it may hold. */
async function ask(ctx: AppContext, run: NpiRun, transfers: NpiTransferRow[]): Promise<number> {
  const [first] = transfers;
  const report = await run.connector.reportByBatch(first.rail, { batchId: first.batch_id, transactions: transfers.map((t) => ({ instructionId: t.instruction_id, amount: t.amount })) });
  const now = ctx.clock.now();
  let decided = 0;
  if (report.kind === 'found') {
    for (const t of transfers) {
      const outcome = report.transactions.find((o) => o.reference.instructionId === t.instruction_id)!;
      if (isFinal(outcome)) {
        if (await decide(ctx, t, outcome, 'report')) decided++;
        continue;
      }
      const checks = t.checks + 1;
      await noteTransfer(ctx.db, t.payout_id, { status: 'sent', detail: outcome.detail, nextAt: new Date(now.getTime() + backoff(checks)), checked: true, needsOperator: checks >= MAX_CHECKS || forOperators(outcome) }, now);
    }
    return decided;
  }
  for (const t of transfers) {
    const checks = t.checks + 1;
    if (report.kind === 'not-found' && now.getTime() - (t.posted_at ?? t.created_at).getTime() >= NOT_FOUND_GRACE_MS) {
      // NPI never took it: the same batch goes again; NPI refuses its id should the first arrive after all.
      await noteTransfer(ctx.db, t.payout_id, { status: 'unsent', detail: `${report.detail}: posted again under the same ids`, nextAt: now, checked: true }, now);
    } else {
      await noteTransfer(ctx.db, t.payout_id, { status: 'sent', detail: report.detail, nextAt: new Date(now.getTime() + backoff(checks)), checked: true, needsOperator: checks >= MAX_CHECKS }, now);
    }
  }
  return 0;
}

/** One run for one environment: resolves to how many payouts moved (to Processing, Paid or Failed). */
export async function runNpiPayouts(ctx: AppContext, run: NpiRun): Promise<number> {
  await checkAccounts(ctx, run);
  let moved = await claim(ctx, run);
  for (const [status, act] of [
    ['unsent', post],
    ['sent', ask],
  ] as const) {
    for (const batchId of await dueBatches(ctx.db, run.environment, status, ctx.clock.now(), BATCHES)) {
      const transfers = await leaseBatch(ctx.db, batchId, status, ctx.clock.now(), leaseMs(ctx));
      if (transfers.length > 0) moved += await act(ctx, run, transfers);
    }
  }
  return moved;
}
