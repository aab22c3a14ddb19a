// `bhuktani payout export` and `bhuktani payout mark`, run as real processes on one data directory:
// the bank file, each payout exported once, no file no move, the marks with their audit entries.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { runCli, tempDir } from '../../test/processes.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { listAudit } from '../audit/audit-store.js';
import { loadConfig } from '../config.js';
import { openDb } from '../db/open.js';
import type { Db } from '../db/db.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { saveBankAccount } from '../merchants/bank-account-store.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { settlementBalance } from '../settlements/settlement-balance.js';

const PROCESS_TIMEOUT = 300_000;

const dir = tempDir('bhuktani-payout-');
const env = { DATA_DIR: dir.path };
afterAll(() => dir.remove());

/** The data directory's store with a test app on it, between commands (a command holds its lock while it runs). */
async function withApp<T>(work: (t: TestApp, db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(loadConfig({ DATA_DIR: dir.path }), 'command');
  const t = await startTestApp({ db });
  try {
    return await work(t, db);
  } finally {
    await t.close();
    await db.close();
  }
}

let merchantId: number;
let liveKey: string;
let testPayout: string;

async function livePayouts(amounts: number[]): Promise<string[]> {
  return withApp(async (t) => {
    const idxs: string[] = [];
    for (const amount of amounts) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${liveKey}` }, payload: { amount } });
      expect(answer.statusCode, answer.body).toBe(201);
      idxs.push(answer.json().idx);
    }
    return idxs;
  });
}

const state = (idx: string) => withApp(async (_t, db) => (await db.query<{ state: string }>('SELECT state FROM payouts WHERE idx = $1', [idx]))[0].state);

beforeAll(async () => {
  expect((await runCli(['migrate'], env)).code).toBe(0);
  await withApp(async (t) => {
    const created = await newMerchant(t.ctx);
    merchantId = created.merchant.id;
    liveKey = created.live_secret_key;
    await saveBankAccount(t.db, merchantId, { bankName: 'Nabil Bank', branch: 'Thamel, Kathmandu', accountName: 'Tea House, Pvt.', accountNumber: '0012345678901', updatedAt: new Date() });
    const wallet = await operatorWallet(t.ctx, { balance: 1_000_000 });
    const { body } = await merchantApi(t.app, liveKey).initiate(validInitiate({ amount: 100_000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, wallet)).status).toBe(303);
    // A test payout, which the operator's export leaves to the sandbox bank.
    const { body: testPaid } = await merchantApi(t.app, created.test_secret_key).initiate(validInitiate({ amount: 10_000 }));
    await payerBrowser(t.app).pay(testPaid.pidx);
    const test = await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${created.test_secret_key}` }, payload: {} });
    expect(test.statusCode).toBe(201);
    testPayout = test.json().idx;
  });
}, PROCESS_TIMEOUT);

describe('bhuktani payout export|mark', () => {
  it(
    'exports the live Requested payouts once, as the bank file; marks one paid and one failed, audited',
    async () => {
      const [first, second] = await livePayouts([50_000, 12_345]);
      const out = join(dir.path, 'batch-1.csv');
      const exported = await runCli(['payout', 'export', '--out', out], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toContain('Exported 2 payouts (Rs. 623.45), now Processing, to');
      expect(readFileSync(out, 'utf8')).toBe(
        'bank,branch,account_name,account_number,amount,reference\r\n' +
          `Nabil Bank,"Thamel, Kathmandu","Tea House, Pvt.",0012345678901,500.00,${first}\r\n` +
          `Nabil Bank,"Thamel, Kathmandu","Tea House, Pvt.",0012345678901,123.45,${second}\r\n`,
      );
      // Exported once: the next batch is empty (to standard output without --out).
      const again = await runCli(['payout', 'export'], env);
      expect([again.code, again.stdout, again.stderr.trim()]).toEqual([0, 'bank,branch,account_name,account_number,amount,reference\r\n', 'Exported 0 payouts (Rs. 0.00), now Processing.']);

      const paid = await runCli(['payout', 'mark', first, '--paid', '--reference', 'NABIL-778812'], env);
      expect([paid.code, paid.stdout]).toEqual([0, `Payout ${first} (Rs. 500.00) is now Paid.\n`]);
      const twice = await runCli(['payout', 'mark', first, '--failed', '--reason', 'Too late'], env);
      expect([twice.code, twice.stderr]).toEqual([1, `bhuktani: Payout ${first} is Paid; only a Requested or Processing payout can be marked failed.\n`]);
      const failed = await runCli(['payout', 'mark', second, '--failed', '--reason', 'Account name does not match'], env);
      expect(failed.code, failed.stderr).toBe(0);

      await withApp(async (t, db) => {
        const [paidEntry] = await listAudit(db, { objectId: first, limit: 5 });
        expect(paidEntry).toMatchObject({ actor: { kind: 'cli' }, action: 'payout.mark_paid', before: { state: 'Processing' }, after: { state: 'Paid', bank_reference: 'NABIL-778812' } });
        const [failedEntry, exportEntry] = await listAudit(db, { objectId: second, limit: 5 });
        expect(failedEntry).toMatchObject({ action: 'payout.mark_failed', reason: 'Account name does not match', after: { state: 'Failed' } });
        expect(exportEntry).toMatchObject({ action: 'payout.export', before: { state: 'Requested' }, after: { state: 'Processing' } });
        // 97,000 paid in; 50,000 left for the bank; the failed 12,345 came back.
        expect(await settlementBalance(t.ctx, { merchantId, environment: 'live' })).toEqual({ pending: 0, available: 47_000, clearing: 0 });
        expect((await verifyLedger(db)).filter((r) => !r.holds)).toEqual([]);
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'no file, no move: an --out that exists already exports nothing',
    async () => {
      const [idx] = await livePayouts([1_000]);
      const out = join(dir.path, 'taken.csv');
      writeFileSync(out, 'the last batch\n');
      const refused = await runCli(['payout', 'export', '--out', out], env);
      expect([refused.code, refused.stderr]).toEqual([1, `bhuktani: ${out} exists already: give a new file to --out (nothing was exported).\n`]);
      expect(readFileSync(out, 'utf8')).toBe('the last batch\n');
      expect(await state(idx)).toBe('Requested');
      const next = join(dir.path, 'batch-2.csv');
      expect((await runCli(['payout', 'export', '--out', next], env)).code).toBe(0);
      expect(existsSync(next)).toBe(true);
      expect(await state(idx)).toBe('Processing');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'leaves test payouts to the sandbox, as the console does: no mark, no audit entry',
    async () => {
      for (const args of [['--paid', '--reference', 'R-1'], ['--failed', '--reason', 'Closed']]) {
        const refused = await runCli(['payout', 'mark', testPayout, ...args], env);
        expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', 'bhuktani: Test payouts are paid by the sandbox; operators mark live payouts only.\n']);
      }
      expect(await state(testPayout)).toBe('Requested');
      expect(await withApp((_t, db) => listAudit(db, { objectId: testPayout, limit: 5 }))).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'usage mistakes are answered at once; an unknown payout is not found',
    async () => {
      for (const args of [['mark'], ['mark', 'x', '--paid'], ['mark', 'x', '--failed'], ['mark', 'x', '--paid', '--failed', '--reference', 'r'], ['mark', 'x', '--reference', 'r']]) {
        const answer = await runCli(['payout', ...args], env);
        expect(answer.code, args.join(' ')).toBe(2);
        expect(answer.stderr).toContain('usage: bhuktani payout mark IDX --paid --reference REF | --failed --reason TEXT');
      }
      const unknown = await runCli(['payout', 'mark', 'no-such-payout', '--paid', '--reference', 'R'], env);
      expect([unknown.code, unknown.stderr]).toEqual([1, 'bhuktani: Not found.\n']);
    },
    PROCESS_TIMEOUT,
  );
});

describe('bhuktani payout reconcile', () => {
  it(
    "compares a day of NPI's books with the payouts: exit 0 when they agree, 1 with each difference",
    async () => {
      const { paid, other, day } = await withApp(async (t) => {
        const created = await newMerchant(t.ctx);
        const { body } = await merchantApi(t.app, created.test_secret_key).initiate(validInitiate({ amount: 40_000 }));
        expect((await payerBrowser(t.app).pay(body.pidx)).status).toBe(303);
        const ask = async (amount: number) => {
          const answer = await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${created.test_secret_key}` }, payload: { amount } });
          expect(answer.statusCode, answer.body).toBe(201);
          return answer.json().idx as string;
        };
        const idxs = [await ask(10_000), await ask(20_000)];
        await runPayoutRails(t.ctx);
        const rows = await t.db.query<{ state: string; at: Date }>('SELECT p.state, t.created_at AS at FROM payouts p JOIN npi_transfers t ON t.payout_id = p.id WHERE p.idx = ANY($1)', [idxs]);
        expect(rows.map((r) => r.state)).toEqual(['Paid', 'Paid']);
        return { paid: idxs[0], other: idxs[1], day: new Date(rows[0].at.getTime() + 345 * 60_000).toISOString().slice(0, 10) };
      });
      const agree = await runCli(['payout', 'reconcile', '--date', day, '--env', 'test'], env);
      expect(agree.code, agree.stderr).toBe(0);
      expect(agree.stdout).toMatch(/0 differences\.\n$/);

      // What a bug (or a hand in the database) would do: a payout NPI paid, counted Failed.
      await withApp((_t, db) => db.query("UPDATE payouts SET state = 'Failed', paid_at = NULL, bank_reference = NULL, failed_at = now(), failure_reason = 'x' WHERE idx = $1", [other]));
      const differs = await runCli(['payout', 'reconcile', '--date', day, '--env', 'test', '--json'], env);
      expect(differs.code, differs.stderr).toBe(1);
      const result = JSON.parse(differs.stdout);
      expect(result.differences).toEqual([{ instructionId: other, problem: 'NPI says paid, the payout is Failed', bhuktani: { idx: other, state: 'Failed', amount: 20_000 }, npi: expect.objectContaining({ status: 'paid', amount: 20_000 }) }]);
      expect(result.differences.map((d: { instructionId: string }) => d.instructionId)).not.toContain(paid);

      const live = await runCli(['payout', 'reconcile', '--date', day], env);
      expect([live.code, live.stderr]).toEqual([1, 'bhuktani: The live payout rail is the bank file: there are no NPI books to reconcile with.\n']);
      for (const args of [[], ['--date', 'yesterday'], ['--date', day, '--env', 'prod']]) {
        const refused = await runCli(['payout', 'reconcile', ...args], env);
        expect(refused.code, args.join(' ')).toBe(args[1] === 'yesterday' ? 1 : 2);
      }
    },
    PROCESS_TIMEOUT,
  );
});
