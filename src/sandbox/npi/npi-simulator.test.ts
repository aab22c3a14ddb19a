// The NPI simulator driven over HTTP as a member drives NPI, with NCHL's published bodies
// (fixtures/npi-published.ts, each with its source) signed again by a key pair made here: NCHL's
// own signatures cannot be verified without its test key. Time is a clock the tests move.
import Fastify, { type FastifyInstance } from 'fastify';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/test-app.js';
import { cryptoIds, ManualClock } from '../../clock.js';
import type { Db } from '../../db/db.js';
import { tokenString } from '../../protocols/npi/token-string.js';
import { CIPS_REQUEST, CIPS_RESPONSE, E007_RESPONSE, IPS_REQUEST, VALIDATION_RESPONSE } from './fixtures/npi-published.js';
import { balances, entriesOf, settlementAccount } from './npi-books.js';
import { registerNpiSimulator, type NpiMember } from './npi-simulator.js';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const member: NpiMember = {
  clientId: 'bhuktani',
  clientSecret: 'client-secret',
  // A user of this run's own: the books are each member's, so reruns on a shared store never meet.
  username: `BHUKTANI${cryptoIds.random(6)}@1701`,
  password: 'api-password',
  certificate: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
};
const clock = new ManualClock(new Date('2026-11-28T06:00:00Z'));
let db: Db;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDb();
  app = Fastify();
  registerNpiSimulator(app, { prefix: '/sandbox/npi', db, clock, ids: cryptoIds, member, ipsStepSeconds: 60 });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const basic = (id = member.clientId, secret = member.clientSecret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const tokenCall = (form: Record<string, string>, authorization = basic()) =>
  app.inject({ method: 'POST', url: '/sandbox/npi/oauth/token', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

async function accessToken(): Promise<string> {
  const answer = await tokenCall({ grant_type: 'password', username: member.username, password: member.password });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().access_token;
}

/** A call with a fresh access token (a moved clock expires the old one). */
const call = async (path: string, body: unknown, token?: string) =>
  app.inject({ method: 'POST', url: `/sandbox/npi${path}`, headers: { authorization: `Bearer ${token ?? (await accessToken())}`, 'content-type': 'application/json' }, payload: typeof body === 'string' ? body : JSON.stringify(body) });

type Body = { [name: string]: unknown };
const rupeesToPaisa = (value: unknown) => Math.round(Number(value) * 100);

/** `body` signed as a member signs it: the token string of NPI §3 under the test's private key. */
function signed<B extends Body>(rail: 'cips' | 'ips', body: B, privateKey: KeyObject = keys.privateKey): B {
  const [batchName, listName] = rail === 'cips' ? ['cipsBatchDetail', 'cipsTransactionDetailList'] : ['nchlIpsBatchDetail', 'nchlIpsTransactionDetailList'];
  const b = body[batchName] as Record<string, string>;
  const list = body[listName] as Record<string, string>[];
  const text = tokenString(
    rail,
    { batchId: b.batchId, debtorAgent: b.debtorAgent, debtorBranch: b.debtorBranch, debtorAccount: b.debtorAccount, batchAmount: rupeesToPaisa(b.batchAmount), batchCrncy: b.batchCrncy, categoryPurpose: b.categoryPurpose },
    list.map((t) => ({ instructionId: t.instructionId, creditorAgent: t.creditorAgent, creditorBranch: t.creditorBranch, creditorAccount: t.creditorAccount, amount: rupeesToPaisa(t.amount) })),
    member.username,
  );
  return { ...body, token: sign('sha256', Buffer.from(text), privateKey).toString('base64') };
}

let serial = 0;
/** NCHL's real-time sample with ids of its own, to `creditorAccount`. */
function cipsBody(creditorAccount = CIPS_REQUEST.cipsTransactionDetailList[0].creditorAccount, amount: number | string = 200.25) {
  const batchId = `KHA-${++serial}-${cryptoIds.random(3)}`;
  return signed('cips', {
    ...CIPS_REQUEST,
    cipsBatchDetail: { ...CIPS_REQUEST.cipsBatchDetail, batchId, batchAmount: amount },
    cipsTransactionDetailList: [{ ...CIPS_REQUEST.cipsTransactionDetailList[0], instructionId: `${batchId}-1`, creditorAccount, amount }],
  });
}

/** NCHL's two-transaction batch sample with ids of its own; `second` the second creditor's account. */
function ipsBody(second = IPS_REQUEST.nchlIpsTransactionDetailList[1].creditorAccount) {
  const batchId = `T${++serial}${cryptoIds.random(3)}`;
  return signed('ips', {
    ...IPS_REQUEST,
    nchlIpsBatchDetail: { ...IPS_REQUEST.nchlIpsBatchDetail, batchId },
    nchlIpsTransactionDetailList: IPS_REQUEST.nchlIpsTransactionDetailList.map((t, i) => ({ ...t, instructionId: `${batchId}-${i + 1}`, endToEndId: `${batchId}-${i + 1}`, ...(i === 1 ? { creditorAccount: second } : {}) })),
  });
}

const keysOf = (value: object) => Object.keys(value).sort();

describe('the NPI simulator: tokens', () => {
  it('the password grant gives an access and a refresh token; the refresh grant a new access token', async () => {
    const first = await tokenCall({ grant_type: 'password', username: member.username, password: member.password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ token_type: 'bearer', expires_in: 300, access_token: expect.any(String), refresh_token: expect.any(String), scope: expect.any(String) });
    const renewed = await tokenCall({ grant_type: 'refresh_token', refresh_token: first.json().refresh_token });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().access_token).not.toBe(first.json().access_token);
    expect((await call('/api/validatebankaccount', { bankId: '0401', accountId: '08110000000001', accountName: 'Ram Thapa' }, renewed.json().access_token)).statusCode).toBe(200);
  });

  it('refuses other client credentials (401) and a wrong password or refresh token (400)', async () => {
    expect((await tokenCall({ grant_type: 'password', username: member.username, password: member.password }, basic('bhuktani', 'wrong'))).statusCode).toBe(401);
    const wrongPassword = await tokenCall({ grant_type: 'password', username: member.username, password: 'wrong' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error).toBe('invalid_grant');
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: 'not-one' })).statusCode).toBe(400);
  });

  it('an access token expires after 300 s: 401 invalid_token; a refresh token after 12 h: 400', async () => {
    const first = (await tokenCall({ grant_type: 'password', username: member.username, password: member.password })).json();
    const validation = { bankId: '0401', accountId: '08110000000001', accountName: 'Ram Thapa' };
    clock.advance(299);
    expect((await call('/api/validatebankaccount', validation, first.access_token)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await call('/api/validatebankaccount', validation, first.access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe('invalid_token');
    expect((await call('/api/validatebankaccount', validation, 'never-issued')).json().error).toBe('invalid_token');
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).statusCode).toBe(200);
    clock.advance(12 * 3600);
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).statusCode).toBe(400);
  });
});

describe('the NPI simulator: account validation of the sandbox accounts', () => {
  const validate = async (accountId: string, accountName: string) => {
    const answer = await call('/api/validatebankaccount', { bankId: '0401', accountId, accountName });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  it('…0001 holds the name given: 000 and 100, in the fields of NPI’s sample answer', async () => {
    const body = await validate('08110000000001', 'Manisha Shrestha');
    expect(keysOf(body)).toEqual(keysOf(VALIDATION_RESPONSE));
    expect(body).toMatchObject({ responseCode: '000', matchPercentate: 100, accountName: null, currency: 'NPR', userName: null });
  });

  it('…0002 holds another person’s name: 523 and a low score; a near spelling of that name 999 and its score', async () => {
    const other = await validate('08110000000002', 'Manisha Shrestha');
    expect(other.responseCode).toBe('523');
    expect(other.matchPercentate).toBeLessThan(50);
    const near = await validate('08110000000002', 'Sabitri Adhikari');
    expect(near.responseCode).toBe('999');
    expect(near.matchPercentate).toBeGreaterThanOrEqual(50);
    expect(near.matchPercentate).toBeLessThan(100);
  });

  it('…0003 is closed: refused; …0004 and any other account match in full', async () => {
    const closed = await validate('08110000000003', 'Manisha Shrestha');
    expect(closed.responseCode).not.toMatch(/^(000|999)$/);
    expect(closed.responseMessage).toMatch(/closed/i);
    for (const account of ['08110000000004', '08110000004512']) expect(await validate(account, 'Manisha Shrestha')).toMatchObject({ responseCode: '000', matchPercentate: 100 });
  });

  it('a request without its fields is NPI’s E007, field by field', async () => {
    const answer = await call('/api/validatebankaccount', { bankId: '0401' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().responseCode).toBe('E007');
    expect(answer.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual(['accountId', 'accountName']);
  });
});

describe('the NPI simulator: real-time posting (postcipsbatch)', () => {
  it('NCHL’s sample request is paid at once: debit 000, credit 000, in the fields of NCHL’s sample answer, and the books moved', async () => {
    const body = cipsBody();
    const answer = await call('/api/postcipsbatch', body);
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json();
    expect(keysOf(result.cipsBatchResponse)).toEqual(keysOf(CIPS_RESPONSE.cipsBatchResponse));
    expect(keysOf(result.cipsTxnResponseList[0])).toEqual(keysOf(CIPS_RESPONSE.cipsTxnResponseList[0]));
    expect(result.cipsBatchResponse).toMatchObject({ responseCode: '000', debitStatus: '000', batchId: body.cipsBatchDetail.batchId });
    expect(result.cipsTxnResponseList[0]).toMatchObject({ responseCode: '000', creditStatus: '000', instructionId: body.cipsTransactionDetailList[0].instructionId });
    expect((await entriesOf(db, result.cipsBatchResponse.id)).map((e) => [e.kind, e.amount])).toEqual([
      ['debit', 20025],
      ['credit', 20025],
    ]);
  });

  it.each(['08110000000004', '08110000000003'])('%s: the credit fails after the debit, and the debit comes back (credit 114, reversal 000)', async (account) => {
    const answer = await call('/api/postcipsbatch', cipsBody(account));
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json();
    expect(result.cipsBatchResponse.debitStatus).toBe('000');
    expect(result.cipsTxnResponseList[0].creditStatus).toBe('114');
    const entries = await entriesOf(db, result.cipsBatchResponse.id);
    expect(entries.map((e) => [e.kind, e.to_account])).toEqual([
      ['debit', settlementAccount],
      ['reversal', `1701:${CIPS_REQUEST.cipsBatchDetail.debtorAccount}`],
    ]);
    const report = (await call('/api/getcipstxnbyinstructionid', { batchId: result.cipsBatchResponse.batchId, instructionId: result.cipsTxnResponseList[0].instructionId })).json();
    expect(report).toMatchObject({ creditStatus: '114', reasonCode: '114', reversalStatus: '000', cipsBatchDetail: { debitStatus: '000' } });
  });

  it('above connectIPS’s NPR 2 million between banks is E007; a wrong signature E003; nothing is booked for either', async () => {
    const over = await call('/api/postcipsbatch', cipsBody(undefined, '2000000.01'));
    expect(over.statusCode).toBe(400);
    expect(over.json().responseCode).toBe('E007');
    expect(over.json().fieldErrors[0].field).toBe('cipsTransactionDetailList[0].amount');
    expect((await call('/api/postcipsbatch', cipsBody(undefined, '2000000.00'))).statusCode).toBe(200);

    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = signed('cips', cipsBody(), other.privateKey);
    const refused = await call('/api/postcipsbatch', forged);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ responseCode: 'E003', responseDescription: 'INVALID TOKEN' });
    const altered = cipsBody();
    const tampered = { ...altered, cipsTransactionDetailList: [{ ...altered.cipsTransactionDetailList[0], creditorAccount: '08110000009999' }] };
    expect((await call('/api/postcipsbatch', tampered)).json().responseCode).toBe('E003');
    expect(await call('/api/getcipstxnlistbybatchid', { batchId: forged.cipsBatchDetail.batchId }).then((a) => a.json())).toEqual({});
    // A refused posting does not take its batch id: the same ids, signed by the member, go through.
    expect((await call('/api/postcipsbatch', signed('cips', forged))).statusCode).toBe(200);
  });

  it('a batch id posted again is NPI’s 99, never a second debit', async () => {
    const body = cipsBody();
    const first = (await call('/api/postcipsbatch', body)).json();
    const again = await call('/api/postcipsbatch', body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ responseCode: '99', responseDescription: 'DUPLICATE BATCH TRANSACTION' });
    expect((await entriesOf(db, first.cipsBatchResponse.id)).filter((e) => e.kind === 'debit')).toHaveLength(1);
  });
});

describe('the NPI simulator: batches (postnchlipsbatch)', () => {
  it('NCHL’s two-transaction sample is debited at once, then each credit moves ENTR → GEN → SENT → ACTC → ACSP → ACSC; a …0004 credit ends RJCT and comes back', async () => {
    const body = ipsBody('08110000000004');
    const answer = await call('/api/postnchlipsbatch', body);
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json();
    expect(result.cipsBatchResponse).toMatchObject({ responseCode: '000', debitStatus: '000' });
    expect(result.cipsTxnResponseList.map((t: { creditStatus: string; responseMessage: string }) => [t.creditStatus, t.responseMessage])).toEqual([
      ['ENTR', 'PENDING FOR POSTING IN NCHL-IPS'],
      ['ENTR', 'PENDING FOR POSTING IN NCHL-IPS'],
    ]);
    const seen: string[][] = [];
    for (let step = 0; step < 6; step++) {
      const report = (await call('/api/getnchlipstxnlistbybatchid', { batchId: body.nchlIpsBatchDetail.batchId })).json();
      seen.push(report.nchlIpsTransactionDetailList.map((t: { creditStatus: string }) => t.creditStatus));
      clock.advance(60);
    }
    expect(seen).toEqual([
      ['ENTR', 'ENTR'],
      ['GEN', 'GEN'],
      ['SENT', 'SENT'],
      ['ACTC', 'ACTC'],
      ['ACSP', 'ACSP'],
      ['ACSC', 'RJCT'],
    ]);
    const rejected = (await call('/api/getnchlipstxnlistbyinstructionid', { batchId: body.nchlIpsBatchDetail.batchId, instructionId: body.nchlIpsTransactionDetailList[1].instructionId })).json();
    expect(rejected).toMatchObject({ creditStatus: 'RJCT', reasonCode: '502', reasonDesc: 'Account Not Found', reversalStatus: '000', ipsTxnId: expect.stringMatching(/^2501\d{6}[A-Z]{3}.{3}$/) });
    expect(rejected.nchlIpsBatchDetail).toMatchObject({ batchId: body.nchlIpsBatchDetail.batchId, batchAmount: 20, debitStatus: '000' });
    expect((await entriesOf(db, result.cipsBatchResponse.id)).map((e) => [e.kind, e.amount])).toEqual([
      ['debit', 2000],
      ['credit', 1500],
      ['reversal', 500],
    ]);
    expect((await balances(db, member.username))[settlementAccount] ?? 0).toBe(0);
  });

  it('answers NPI’s E007 sample for a category purpose it does not take, and refuses a batch to the debtor’s own bank', async () => {
    const body = ipsBody();
    const purpose = await call('/api/postnchlipsbatch', signed('ips', { ...body, nchlIpsBatchDetail: { ...body.nchlIpsBatchDetail, categoryPurpose: 'XXXX' } }));
    expect(purpose.statusCode).toBe(400);
    expect(purpose.json()).toEqual(E007_RESPONSE);
    const onUs = { ...body, nchlIpsTransactionDetailList: body.nchlIpsTransactionDetailList.map((t) => ({ ...t, creditorAgent: '2501' })) };
    expect((await call('/api/postnchlipsbatch', signed('ips', onUs))).json().fieldErrors.map((e: { field: string }) => e.field)).toEqual([
      'nchlIpsTransactionDetailList[0].creditorAgent',
      'nchlIpsTransactionDetailList[1].creditorAgent',
    ]);
  });

  it('takes 10,000 transactions in one batch, not 10,001; an instruction id of an earlier batch is E007 and nothing is debited', async () => {
    const batchId = `BIG${++serial}${cryptoIds.random(3)}`;
    const transactions = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...IPS_REQUEST.nchlIpsTransactionDetailList[0], instructionId: `${batchId}-${i}`, endToEndId: `${batchId}-${i}`, amount: '1.00' }));
    const batch = (count: number, id = batchId) => signed('ips', { ...IPS_REQUEST, nchlIpsBatchDetail: { ...IPS_REQUEST.nchlIpsBatchDetail, batchId: id, batchCount: count, batchAmount: count }, nchlIpsTransactionDetailList: transactions(count) });
    const tooMany = await call('/api/postnchlipsbatch', batch(10_001));
    expect(tooMany.json().fieldErrors).toEqual([{ field: 'nchlIpsTransactionDetailList', message: 'A batch holds at most 10000 transactions.' }]);
    const full = await call('/api/postnchlipsbatch', batch(10_000));
    expect(full.statusCode, full.body.slice(0, 300)).toBe(200);
    expect(full.json().cipsTxnResponseList).toHaveLength(10_000);
    const reused = await call('/api/postnchlipsbatch', batch(1, `${batchId}R`));
    expect(reused.statusCode).toBe(400);
    expect(reused.json().responseCode).toBe('E007');
    expect((await call('/api/getnchlipstxnlistbybatchid', { batchId: `${batchId}R` })).json()).toEqual({});
  });

  it('a body that is not JSON is E007, not a bare error', async () => {
    const answer = await call('/api/postnchlipsbatch', '{"nchlIpsBatchDetail":');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().responseCode).toBe('E007');
  });

  it('a batch id posted again is 99; the books hold one debit', async () => {
    const body = ipsBody();
    const first = (await call('/api/postnchlipsbatch', body)).json();
    expect((await call('/api/postnchlipsbatch', body)).json().responseCode).toBe('99');
    expect((await entriesOf(db, first.cipsBatchResponse.id)).filter((e) => e.kind === 'debit')).toHaveLength(1);
  });
});

describe('the NPI simulator: reports', () => {
  it('by batch, by instruction and by date answer what the books hold; an unknown id an empty object', async () => {
    const body = cipsBody();
    const posted = (await call('/api/postcipsbatch', body)).json();
    const byBatch = (await call('/api/getcipstxnlistbybatchid', { batchId: body.cipsBatchDetail.batchId })).json();
    expect(byBatch).toMatchObject({ id: posted.cipsBatchResponse.id, batchId: body.cipsBatchDetail.batchId, batchAmount: 200.25, debitStatus: '000', debitReasonDesc: 'SUCCESS', rcreUserId: member.username });
    expect(byBatch.cipsTransactionDetailList).toEqual([expect.objectContaining({ batchId: posted.cipsBatchResponse.id, instructionId: body.cipsTransactionDetailList[0].instructionId, amount: 200.25, creditStatus: '000', addenda1: 8965 })]);
    expect(byBatch.rcreTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);

    const byInstruction = (await call('/api/getcipstxnbyinstructionid', { batchId: body.cipsBatchDetail.batchId, instructionId: body.cipsTransactionDetailList[0].instructionId })).json();
    expect(byInstruction).toMatchObject({ id: posted.cipsTxnResponseList[0].id, creditStatus: '000', cipsBatchDetail: { batchId: body.cipsBatchDetail.batchId } });

    const day = byBatch.recDate;
    const byDate = (await call('/api/getcipstxnlistbydate', { txnDateFrom: day, txnDateTo: day })).json();
    expect(byDate.map((b: { cipsBatchDetail: { batchId: string } }) => b.cipsBatchDetail.batchId)).toContain(body.cipsBatchDetail.batchId);
    expect(byDate.every((b: object) => keysOf(b).join() === 'cipsBatchDetail,cipsTransactionDetailList')).toBe(true);
    expect((await call('/api/getnchlipstxnlistbydate', { txnDateFrom: '2001-01-01', txnDateTo: '2001-01-02' })).json()).toEqual([]);

    expect((await call('/api/getcipstxnlistbybatchid', { batchId: 'never-posted' })).json()).toEqual({});
    // A real-time batch is not found among the batches of NCHL-IPS.
    expect((await call('/api/getnchlipstxnlistbybatchid', { batchId: body.cipsBatchDetail.batchId })).json()).toEqual({});
  });

  it('a report without its ids is E007; without a token 401', async () => {
    expect((await call('/api/getcipstxnlistbydate', { txnDateFrom: 'yesterday' })).json().responseCode).toBe('E007');
    const anonymous = await app.inject({ method: 'POST', url: '/sandbox/npi/api/getcipstxnlistbybatchid', payload: { batchId: 'x' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the NPI simulator: the member’s certificate and accounts', () => {
  it('debits only the accounts NCHL whitelisted for the member (read each time from its set-up): another is E004', async () => {
    const whitelisted = Fastify();
    registerNpiSimulator(whitelisted, { prefix: '/npi', db, clock, ids: cryptoIds, member: async () => ({ ...member, debtorAccounts: [{ bankId: '1701', accountId: '00100000000018' }] }) });
    await whitelisted.ready();
    const access = (await whitelisted.inject({ method: 'POST', url: '/npi/oauth/token', headers: { authorization: basic() }, payload: { grant_type: 'password', username: member.username, password: member.password } })).json().access_token;
    const post = (body: object) => whitelisted.inject({ method: 'POST', url: '/npi/api/postcipsbatch', headers: { authorization: `Bearer ${access}` }, payload: body });
    const body = cipsBody();
    const refused = await post(body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ responseCode: 'E004', responseDescription: 'INVALID ACCOUNT' });
    expect((await post(signed('cips', { ...body, cipsBatchDetail: { ...body.cipsBatchDetail, debtorAccount: '00100000000018' } }))).statusCode).toBe(200);
    await whitelisted.close();
  });

  it('verifies tokens with the public key of a certificate (PEM) as well as with a bare key', async () => {
    const pair = forge.pki.rsa.generateKeyPair(2048);
    const certificate = forge.pki.createCertificate();
    certificate.publicKey = pair.publicKey;
    certificate.serialNumber = '01';
    certificate.validity.notBefore = new Date('2026-01-01');
    certificate.validity.notAfter = new Date('2027-01-01');
    certificate.setSubject([{ name: 'commonName', value: member.username }]);
    certificate.setIssuer([{ name: 'commonName', value: member.username }]);
    certificate.sign(pair.privateKey, forge.md.sha256.create());
    const other = Fastify();
    registerNpiSimulator(other, { prefix: '/npi', db, clock, ids: cryptoIds, member: { ...member, certificate: forge.pki.certificateToPem(certificate) } });
    await other.ready();
    const { createPrivateKey } = await import('node:crypto');
    const privateKey = createPrivateKey(forge.pki.privateKeyToPem(pair.privateKey));
    const access = (await other.inject({ method: 'POST', url: '/npi/oauth/token', headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=password&username=${encodeURIComponent(member.username)}&password=${member.password}` })).json().access_token;
    const post = (body: unknown) => other.inject({ method: 'POST', url: '/npi/api/postcipsbatch', headers: { authorization: `Bearer ${access}` }, payload: body as object });
    expect((await post(signed('cips', cipsBody(), privateKey))).statusCode).toBe(200);
    expect((await post(cipsBody())).json().responseCode).toBe('E003');
    await other.close();
  });
});
