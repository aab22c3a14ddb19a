// The NPI connector (src/payout-rails/npi/) against NPI's simulator (src/sandbox/npi/): two halves
// written apart from NCHL's pages, neither reading the other, meeting over HTTP. The OAuth two-step
// and its renewal, the signed token the simulator verifies with the member's certificate, the
// sandbox accounts' validation, a real-time payout paid, one whose credit fails after the debit, a
// batch settled through NCHL-IPS's states as the reports tell it, and a batch posted twice that moves
// money once. Time is a clock the test moves.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoIds, ManualClock } from '../src/clock.js';
import type { Db } from '../src/db/db.js';
import { testPfx } from '../src/payout-rails/npi/fixtures/test-key.js';
import { npiConnector, type NpiBatch, type NpiConnector } from '../src/payout-rails/npi/npi-connector.js';
import { checkNpiKey } from '../src/payout-rails/npi/npi-key.js';
import type { Transport } from '../src/providers/provider-http.js';
import { balances, settlementAccount } from '../src/sandbox/npi/npi-books.js';
import { registerNpiSimulator } from '../src/sandbox/npi/npi-simulator.js';
import { openTestDb } from './test-app.js';

const BASE = 'http://npi.sandbox.invalid/sandbox/npi';
const clock = new ManualClock(new Date('2026-11-28T06:00:00Z'));
const pfx = testPfx();
const member = {
  clientId: 'bhuktani',
  clientSecret: 'client-secret',
  // A user of this run's own: the simulator's books are each member's.
  username: `BHUKTANI${cryptoIds.random(6)}@1701`,
  password: 'api-password',
  certificate: pfx.publicKeyPem,
};
const debtor = { agent: '1701', branch: '1', account: '00100000000018', name: 'Bhuktani Settlement' };
let db: Db;
let app: FastifyInstance;
let npi: NpiConnector;
const asked: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  app = Fastify();
  registerNpiSimulator(app, { prefix: '/sandbox/npi', db, clock, ids: cryptoIds, member, ipsStepSeconds: 60 });
  await app.ready();
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    asked.push(url.pathname.replace('/sandbox/npi', ''));
    const answer = await app.inject({ method: request.method as 'POST', url: url.pathname + url.search, headers: request.headers, payload: request.body });
    return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
  };
  const key = checkNpiKey(pfx.pfx, pfx.passphrase, clock.now());
  if (!key.ok) throw new Error(key.reason);
  npi = npiConnector({ credentials: { baseUrl: BASE, clientId: member.clientId, clientSecret: member.clientSecret, username: member.username, password: member.password }, key: key.key, debtor }, transport, clock);
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

let serial = 0;
/** A batch of payouts to `accounts` (their last four digits say what the sandbox does), Rs 100 each unless said. */
function batchTo(accounts: string[], amount = 10_000): NpiBatch {
  const batchId = `BK${cryptoIds.random(8)}${++serial}`;
  return {
    batchId,
    transactions: accounts.map((account, i) => ({
      instructionId: `${batchId}-${i + 1}`,
      endToEndId: `Payout ${batchId}`,
      amount,
      creditorAgent: '0401',
      creditorBranch: '1',
      creditorName: 'Ram Bahadur Thapa',
      creditorAccount: account,
    })),
  };
}

describe('the NPI connector against its simulator', () => {
  it("validates the sandbox's accounts as NPI answers them", async () => {
    expect(await npi.validateAccount({ bankId: '0401', accountId: '01234567890001', accountName: 'Ram Bahadur Thapa' })).toMatchObject({ kind: 'match' });
    expect((await npi.validateAccount({ bankId: '0401', accountId: '01234567890002', accountName: 'Ram Bahadur Thapa' })).kind).toMatch(/^(partial|refused)$/);
    expect(await npi.validateAccount({ bankId: '0401', accountId: '01234567890003', accountName: 'Ram Bahadur Thapa' })).toMatchObject({ kind: 'refused' });
    // The two-step token (password, then refresh) came first, once.
    expect(asked.slice(0, 2)).toEqual(['/oauth/token', '/oauth/token']);
  });

  it('pays in real time, signed as the simulator checks; a credit that fails after the debit is failed, its money returned', async () => {
    const paid = batchTo(['01234567890001']);
    const answer = await npi.postRealTime(paid);
    expect(answer).toMatchObject({ kind: 'answered', transactions: [{ status: 'paid' }] });
    expect(await npi.reportByInstruction('cips', { batchId: paid.batchId, instructionId: paid.transactions[0].instructionId, amount: 10_000 })).toMatchObject({ kind: 'found', transactions: [{ status: 'paid' }] });

    const bounced = batchTo(['01234567890004']);
    expect(await npi.postRealTime(bounced)).toMatchObject({ kind: 'answered', transactions: [{ status: 'failed' }] });
    // Nothing rests in NCHL's settlement account: the failed credit's debit came back.
    expect((await balances(db, member.username))[settlementAccount] ?? 0).toBe(0);
  });

  it("refuses a payout signed with another key than the member's certificate (E003), moving nothing", async () => {
    const other = checkNpiKey(testPfx().pfx, 'test-passphrase', clock.now());
    if (!other.ok) throw new Error(other.reason);
    const transport: Transport = async (request) => {
      const url = new URL(request.url);
      const answer = await app.inject({ method: 'POST', url: url.pathname, headers: request.headers, payload: request.body });
      return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
    };
    const forger = npiConnector({ credentials: { baseUrl: BASE, ...member }, key: other.key, debtor }, transport, clock);
    const before = await balances(db, member.username);
    expect(await forger.postRealTime(batchTo(['01234567890001']))).toMatchObject({ kind: 'refused', code: 'E003' });
    expect(await balances(db, member.username)).toEqual(before);
  });

  it('settles a batch through the reports as its credits move, and a batch posted again moves money once', async () => {
    const batch = batchTo(['01234567890001', '01234567895555', '01234567890004'], 25_000);
    expect(await npi.postBatch(batch)).toMatchObject({ kind: 'answered' });
    const expected = { batchId: batch.batchId, transactions: batch.transactions.map((t) => ({ instructionId: t.instructionId, amount: t.amount })) };
    const before = await npi.reportByBatch('ips', expected);
    expect(before.kind === 'found' && before.transactions.map((t) => t.status)).toEqual(['pending', 'pending', 'pending']);

    // The same batch again (a lost answer retried under the same ids): no second debit.
    const debtorBefore = (await balances(db, member.username))[`${debtor.agent}:${debtor.account}`];
    expect((await npi.postBatch(batch)).kind).not.toBe('answered');
    expect((await balances(db, member.username))[`${debtor.agent}:${debtor.account}`]).toBe(debtorBefore);

    // Past every NCHL-IPS state (and past the access token's 300 s: the connector renews it).
    clock.advance(60 * 6);
    const after = await npi.reportByBatch('ips', expected);
    expect(after.kind === 'found' && after.transactions.map((t) => t.status)).toEqual(['paid', 'paid', 'failed']);
    expect((await balances(db, member.username))[settlementAccount] ?? 0).toBe(0);
  });
});
