// Payouts through NCHL's NPI, as a merchant and an operator meet them: the merchant's settlement
// account validated when saved (the sandbox accounts of src/sandbox/npi/npi-accounts.ts), payouts asked for over the
// API and moved by the payout rails' job through the test environment's NPI (the simulator, over its
// HTTP protocol), and NPI's books held against Bhuktani's after every step. Lost and late answers
// come from a transport between the connector and the simulator.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { npiBooksDiffer } from '../../test/npi-books.js';
import { payerBrowser } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { changeBankAccount } from '../merchants/change-bank-account.js';
import { routeProviderCalls, TransportError, type HttpRequest, type Transport } from '../providers/provider-http.js';
import { listWaitingAccountChecks } from './account-check-store.js';
import { approveAccount } from './account-checks.js';
import { MAX_CHECKS } from './npi-payouts.js';
import { findTransfer, listUndecidedTransfers } from './npi-transfer-store.js';
import { findPayout } from './payout-store.js';
import { sandboxNpiSetup, setPayoutRail } from './payout-rail-setup.js';
import { settlementBalance } from './settlement-balance.js';

let t: TestApp;

beforeAll(async () => {
  // Its own store: the job moves every test payout of the store it runs on.
  t = await startTestApp({ ownDb: true, config: { keyCacheSeconds: 0 } });
});
afterAll(() => t.close());
afterEach(() => routeProviderCalls(t.ctx, undefined));

const SETTLEMENTS = '/api/v2/settlements/';

/** An approved merchant whose settlement account ends in `lastFour` (npi-accounts.ts reads it), paid `amount` in test. */
async function shop(lastFour: string, amount = 50_000) {
  const created = await merchantIn(t.ctx, 'approved');
  const account = { bank_name: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: `01234567890${lastFour}`, bank_code: '0401' };
  await changeBankAccount(t.ctx, { merchantId: created.merchant.id, userId: created.owner.id, account });
  const { body } = await merchantApi(t.app, created.test_secret_key).initiate(validInitiate({ amount }));
  expect((await payerBrowser(t.app).pay(body.pidx, '9800000001')).status).toBe(303);
  const send = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Key ${created.test_secret_key}` }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  return {
    created,
    requestPayout: async (amount?: number) => {
      const answer = await send('POST', SETTLEMENTS, amount === undefined ? {} : { amount });
      expect(answer.status).toBe(201);
      return answer.body as { idx: string; amount: number };
    },
    payout: async (idx: string) => (await send('GET', `${SETTLEMENTS}${idx}/`)).body,
    available: async () => (await settlementBalance(t.ctx, { merchantId: created.merchant.id, environment: 'test' })).available,
  };
}

async function expectBooksAgree() {
  expect(await npiBooksDiffer(t.db)).toEqual([]);
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
}

/** The simulator in process, as the app's own transport reaches it, with `fault` able to step in. */
function throughFault(fault: (request: HttpRequest, forward: Transport) => ReturnType<Transport>) {
  const forward: Transport = async (request) => {
    const url = new URL(request.url);
    const answer = await t.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
    return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
  };
  routeProviderCalls(t.ctx, (request) => fault(request, forward));
}

describe('payouts through NPI (the test environment’s simulator)', () => {
  it('pays a fully matched account in one run, with NPI’s ids as the reference; NPI’s books equal the payouts', async () => {
    const s = await shop('0001');
    const requested = await s.requestPayout(20_000);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Requested', waiting_reason: null });
    await runPayoutRails(t.ctx);
    const paid = await s.payout(requested.idx);
    expect(paid).toMatchObject({ state: 'Paid', amount: 20_000, bank_reference: expect.stringMatching(new RegExp(`^NPI connectIPS R\\w+/${requested.idx} \\(NCHL \\d+\\)$`)) });
    const transfer = await findTransfer(t.db, (await findPayout(t.db, requested.idx))!.id);
    expect(transfer).toMatchObject({ rail: 'cips', status: 'paid', instruction_id: requested.idx, creditor_agent: '0401', creditor_account: '012345678900001', posts: 1 });
    await expectBooksAgree();
  });

  it('waits for an operator where the holder is another; says why; an approval lets it go', async () => {
    const s = await shop('0002');
    const requested = await s.requestPayout(10_000);
    await runPayoutRails(t.ctx);
    const waiting = await s.payout(requested.idx);
    expect(waiting).toMatchObject({ state: 'Requested', waiting_reason: expect.stringMatching(/holder differs.*NPI's match: \d+ of 100.*an operator checks it/) });
    const [check] = (await listWaitingAccountChecks(t.db, 'test')).filter((c) => c.merchant_id === s.created.merchant.id);
    expect(check).toMatchObject({ outcome: 'partial', account_number: '012345678900002', account_name: 'Himalayan Tea House Pvt. Ltd.' });
    await expect(approveAccount(t.ctx, { actor: CLI_ACTOR, checkId: check.id, reason: ' ' })).rejects.toMatchObject({ code: 'validation_error' });
    await approveAccount(t.ctx, { actor: CLI_ACTOR, checkId: check.id, reason: 'The owner sent the bank’s letter: the account is the company’s.' });
    await expect(approveAccount(t.ctx, { actor: CLI_ACTOR, checkId: check.id, reason: 'again' })).rejects.toMatchObject({ code: 'conflict' });
    await runPayoutRails(t.ctx);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Paid', waiting_reason: null });
    const [audit] = await t.db.query<{ action: string; reason: string }>("SELECT action, reason FROM audit_log WHERE object_type = 'bank_account' AND object_id = $1", [String(check.id)]);
    expect(audit).toMatchObject({ action: 'bank_account.approve', reason: expect.stringContaining('letter') });
    await expectBooksAgree();
  });

  it('refuses an account NPI refuses (closed) with NPI’s reason, and keeps the one before', async () => {
    const created = await merchantIn(t.ctx, 'approved');
    const before = await findBankAccount(t.db, created.merchant.id);
    const closed = { bank_name: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: '012345678900003', bank_code: '0401' };
    await expect(changeBankAccount(t.ctx, { merchantId: created.merchant.id, userId: created.owner.id, account: closed })).rejects.toMatchObject({
      code: 'validation_error',
      fields: { account_number: [expect.stringMatching(/^NPI refused this account \(sandbox\): Account is closed\. \(114\)$/)] },
    });
    expect(await findBankAccount(t.db, created.merchant.id)).toEqual(before);
  });

  it('fails a payout whose credit NPI rejects after the debit; the money returns to the balance', async () => {
    const s = await shop('0004');
    const availableBefore = await s.available();
    const requested = await s.requestPayout(15_000);
    await runPayoutRails(t.ctx);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Failed', failure_reason: expect.stringContaining('credit refused (114)'), bank_reference: null });
    expect(await s.available()).toBe(availableBefore);
    await expectBooksAgree();
  });

  it('an answer lost after NPI took the posting: Processing, then Paid from the report; posted once', async () => {
    const s = await shop('0001');
    let lose = true;
    throughFault(async (request, forward) => {
      const answer = await forward(request);
      if (lose && request.url.endsWith('/api/postcipsbatch')) {
        lose = false;
        throw new TransportError('connection reset after the request was sent');
      }
      return answer;
    });
    const requested = await s.requestPayout(12_345);
    await runPayoutRails(t.ctx);
    const payout = (await findPayout(t.db, requested.idx))!;
    expect(payout.state).toBe('Processing');
    expect(await findTransfer(t.db, payout.id)).toMatchObject({ status: 'sent', posts: 1, detail: expect.stringContaining('ask the reports') });
    t.clock.advance(6);
    await runPayoutRails(t.ctx);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Paid' });
    expect(await findTransfer(t.db, payout.id)).toMatchObject({ status: 'paid', posts: 1 });
    await expectBooksAgree();
  });

  it('a posting that never reached NPI goes again under the same ids, once NPI’s report says it holds none', async () => {
    const s = await shop('0001');
    let drop = true;
    throughFault(async (request, forward) => {
      if (drop && request.url.endsWith('/api/postcipsbatch')) {
        drop = false;
        throw new TransportError('no answer within 15000 ms');
      }
      return forward(request);
    });
    const requested = await s.requestPayout(11_000);
    const id = (await findPayout(t.db, requested.idx))!.id;
    await runPayoutRails(t.ctx);
    const first = await findTransfer(t.db, id);
    t.clock.advance(6);
    await runPayoutRails(t.ctx); // NPI has no such batch yet: too soon to say it never arrived
    expect(await findTransfer(t.db, id)).toMatchObject({ status: 'sent', checks: 1 });
    t.clock.advance(31);
    await runPayoutRails(t.ctx); // none, 37 s after its posting: it goes again in the next run
    expect(await findTransfer(t.db, id)).toMatchObject({ status: 'unsent', detail: expect.stringContaining('posted again under the same ids') });
    await runPayoutRails(t.ctx);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Paid' });
    expect(await findTransfer(t.db, id)).toMatchObject({ status: 'paid', batch_id: first!.batch_id, instruction_id: requested.idx, posts: 2 });
    await expectBooksAgree();
  });

  it('never pays on a report for another amount: undecided, then in the operators’ queue', async () => {
    const s = await shop('0001');
    throughFault(async (request, forward) => {
      const answer = await forward(request);
      if (!request.url.includes('txnlistbybatchid')) return answer;
      // NPI's report, for twice the amount.
      return { ...answer, text: answer.text.replace(/"amount":\s*"?(\d+)(\.\d+)?"?/g, (_, rupees: string) => `"amount":${Number(rupees) * 2}.00`).replace(/"batchAmount":\s*"?(\d+)(\.\d+)?"?/g, (_, rupees: string) => `"batchAmount":${Number(rupees) * 2}.00`) };
    });
    const requested = await s.requestPayout(13_000);
    const id = (await findPayout(t.db, requested.idx))!.id;
    for (let ask = 0; ask < MAX_CHECKS; ask++) {
      await runPayoutRails(t.ctx);
      t.clock.advance(601);
    }
    expect((await findPayout(t.db, requested.idx))!.state).toBe('Processing');
    expect(await findTransfer(t.db, id)).toMatchObject({ status: 'sent', needs_operator: true, detail: expect.stringContaining('not 13000 paisa') });
    expect((await listUndecidedTransfers(t.db, 'test')).map((u) => u.payout_id)).toContain(id);
    routeProviderCalls(t.ctx, undefined);
    await runPayoutRails(t.ctx);
    expect(await s.payout(requested.idx)).toMatchObject({ state: 'Paid' });
    await expectBooksAgree();
  });

  it('sends in NCHL-IPS batches when the operator chooses: one batch for the run, pending until NCHL-IPS credits it', async () => {
    const sandbox = await sandboxNpiSetup(t.ctx);
    await setPayoutRail(t.ctx, { actor: CLI_ACTOR, environment: 'test', rail: 'npi', values: { ...sandbox.settings, ...sandbox.credentials, send: 'batches' } });
    try {
      const s = await shop('0001', 100_000);
      const other = await shop('0004', 100_000);
      const idxs = [(await s.requestPayout(10_000)).idx, (await s.requestPayout(20_000)).idx, (await other.requestPayout(30_000)).idx];
      await runPayoutRails(t.ctx);
      const transfers = await Promise.all(idxs.map(async (idx) => findTransfer(t.db, (await findPayout(t.db, idx))!.id)));
      expect(new Set(transfers.map((x) => x!.batch_id)).size).toBe(1);
      expect(transfers.map((x) => [x!.rail, x!.status])).toEqual(idxs.map(() => ['ips', 'sent']));
      for (const idx of idxs) expect((await findPayout(t.db, idx))!.state).toBe('Processing');
      // NCHL-IPS's sessions (ENTR, GEN, SENT, ACTC, ACSP, then ACSC or RJCT), a second each in the sandbox.
      for (let round = 0; round < 4; round++) {
        t.clock.advance(20);
        await runPayoutRails(t.ctx);
      }
      expect(await Promise.all(idxs.map(async (idx) => (await findPayout(t.db, idx))!.state))).toEqual(['Paid', 'Paid', 'Failed']);
      expect((await findPayout(t.db, idxs[0]))!.bank_reference).toMatch(/^NPI NCHL-IPS B\w+\//);
      await expectBooksAgree();
    } finally {
      await t.db.query("DELETE FROM payout_rails WHERE environment = 'test'");
    }
  });

  it('several instances running the job at once post each payout once and pay it once', async () => {
    const s = await shop('0001', 100_000);
    const idxs: string[] = [];
    for (let i = 0; i < 6; i++) idxs.push((await s.requestPayout(1_000 + i)).idx);
    for (let round = 0; round < 2; round++) await Promise.all([0, 1, 2, 3].map(() => runPayoutRails(t.ctx)));
    for (const idx of idxs) expect(await s.payout(idx)).toMatchObject({ state: 'Paid' });
    const journals = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journals j JOIN payouts p ON p.id = j.payout_id WHERE p.idx = ANY($1) AND j.kind = 'payout_paid'`,
      [idxs],
    );
    expect(journals[0].n).toBe(6);
    await expectBooksAgree();
  });
});
