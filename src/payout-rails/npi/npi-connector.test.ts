// The NPI connector's behaviour beyond NCHL's examples: the tokens in time (a clock the tests move),
// renewal on NPI's 401 and 400, the operator's key refused at set-up with its reason, requests NPI
// would refuse never sent, and hostile answers: each lost, late, malformed or foreign one is unknown,
// never failed, never posted again.
import { describe, expect, it } from 'vitest';
import { answering } from '../../../test/connector-harness.js';
import { TransportError, type HttpAnswer, type HttpRequest, type Transport } from '../../providers/provider-http.js';
import { cipsLimits } from '../../protocols/npi/codes.js';
import { REAL_TIME, REPORT_CASES } from './fixtures/npi-spec.js';
import { BASE_URL, npiTransport, testSetup } from './fixtures/harness.js';
import { testPfx } from './fixtures/test-key.js';
import { npiConnector, type NpiBatch, type NpiTransfer } from './npi-connector.js';
import { checkNpiKey } from './npi-key.js';
import { meaningOf } from './transformers.js';

const transfer = (overrides: Partial<NpiTransfer> = {}): NpiTransfer => ({
  instructionId: 'PO-1-1',
  endToEndId: 'Bhuktani payout PO-1',
  amount: 150_000,
  creditorAgent: '0401',
  creditorBranch: '81',
  creditorName: 'Ram Bahadur',
  creditorAccount: '08110017501011',
  ...overrides,
});
const single: NpiBatch = { batchId: 'PO-1', transactions: [transfer()] };
const paidAnswer = {
  cipsBatchResponse: { responseCode: '000', responseMessage: 'SUCCESS', batchId: 'PO-1', debitStatus: '000', id: 7 },
  cipsTxnResponseList: [{ responseCode: '000', responseMessage: 'SUCCESS', id: 9, instructionId: 'PO-1-1', creditStatus: '000' }],
};

/** A transport answering each call with the next of `answers` (a body, or a raw answer, or a thrown error). */
function scripted(...answers: (HttpAnswer | Error)[]): { asked: HttpRequest[]; transport: Transport } {
  const asked: HttpRequest[] = [];
  return {
    asked,
    transport: async (request) => {
      asked.push(request);
      const next = answers.shift() ?? { status: 599, contentType: 'text/plain', text: 'script ran out' };
      if (next instanceof Error) throw next;
      return next;
    },
  };
}
const json = (body: unknown, status = 200): HttpAnswer => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

function harness(api: Transport) {
  const { setup, clock } = testSetup();
  const npi = npiTransport(api);
  return { connector: npiConnector(setup, npi.transport, clock), clock, tokens: npi.tokens, apiCalls: npi.apiCalls };
}

describe('OAuth2 tokens', () => {
  it('asks with the client as HTTP Basic and the user in a form body', async () => {
    const { connector, tokens } = harness(answering(paidAnswer).transport);
    await connector.postRealTime(single);
    const basic = `Basic ${Buffer.from('member-client:member-secret').toString('base64')}`;
    expect(tokens.grants).toEqual([
      { fields: { grant_type: 'password', username: 'LAXMI@1701', password: 'api-password' }, authorization: basic, contentType: 'application/x-www-form-urlencoded' },
      { fields: { grant_type: 'refresh_token', refresh_token: 'R1' }, authorization: basic, contentType: 'application/x-www-form-urlencoded' },
    ]);
  });

  it('keeps the access token while it lasts, and renews it by the refresh grant before it expires', async () => {
    const { connector, tokens, apiCalls, clock } = harness(answering(paidAnswer).transport);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    clock.advance(200);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    expect(tokens.grants).toHaveLength(2);
    // 299 s given: renewed in its last 30 s, before NPI would answer 401.
    clock.advance(70);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    expect(tokens.grants.map((g) => g.fields.grant_type)).toEqual(['password', 'refresh_token', 'refresh_token']);
    expect(apiCalls.map((c) => c.headers?.authorization)).toEqual(['Bearer A2', 'Bearer A2', 'Bearer A3']);
  });

  it('takes a new refresh token by the password grant before the 12 hours are out', async () => {
    const { connector, tokens, clock } = harness(answering(paidAnswer).transport);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    clock.advance(12 * 60 * 60 - 200);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    expect(tokens.grants.map((g) => [g.fields.grant_type, g.fields.refresh_token])).toEqual([['password', undefined], ['refresh_token', 'R1'], ['password', undefined], ['refresh_token', 'R3']]);
  });

  it('calls made together share one renewal', async () => {
    const { connector, tokens, apiCalls } = harness(answering([]).transport);
    await Promise.all([1, 2, 3].map(() => connector.reportByDate('ips', { from: '2026-06-01', to: '2026-06-01' })));
    expect(tokens.grants).toHaveLength(2);
    expect(apiCalls.map((c) => c.headers?.authorization)).toEqual(['Bearer A2', 'Bearer A2', 'Bearer A2']);
  });

  it('on a 401 renews the access token and sends the very same request once more', async () => {
    const api = scripted(json({ error: 'invalid_token', error_description: 'Access token expired' }, 401), json(paidAnswer));
    const { connector, tokens } = harness(api.transport);
    const posting = await connector.postRealTime(single);
    expect(posting.kind === 'answered' && posting.transactions[0].status).toBe('paid');
    expect(api.asked.map((r) => r.headers?.authorization)).toEqual(['Bearer A2', 'Bearer A3']);
    expect(api.asked[1].body).toBe(api.asked[0].body);
    expect(tokens.grants.map((g) => g.fields.grant_type)).toEqual(['password', 'refresh_token', 'refresh_token']);
  });

  it('a second 401 is a refusal, not a third try', async () => {
    const api = scripted(json({ error: 'invalid_token' }, 401), json({ error: 'invalid_token' }, 401));
    const { connector } = harness(api.transport);
    expect(await connector.postRealTime(single)).toMatchObject({ kind: 'refused', code: '401' });
    expect(api.asked).toHaveLength(2);
  });

  it('a 400 from the refresh grant (refresh token expired early) goes back to the password grant', async () => {
    const api = answering(paidAnswer);
    const { connector, tokens, clock } = harness(api.transport);
    await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
    clock.advance(290);
    tokens.answer.refresh_token = { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid refresh token' } };
    const posting = await connector.postRealTime(single);
    expect(tokens.grants.map((g) => g.fields.grant_type)).toEqual(['password', 'refresh_token', 'refresh_token', 'password', 'refresh_token']);
    expect(api.asked.at(-1)?.headers?.authorization).toBe('Bearer A4');
    expect(posting.kind === 'answered' && posting.transactions[0].status).toBe('paid');
  });

  it('no token to be had: the posting is not sent, and says so', async () => {
    const api = answering(paidAnswer);
    const { setup, clock } = testSetup();
    const down: Transport = async (request) => {
      if (request.url.endsWith('/oauth/token')) throw new TransportError('no answer (ECONNREFUSED)');
      return api.transport(request);
    };
    const posting = await npiConnector(setup, down, clock).postRealTime(single);
    expect(posting).toEqual({ kind: 'not-sent', reason: "no access token: NPI's token endpoint: no answer (ECONNREFUSED)" });
    expect(api.asked).toHaveLength(0);
  });

  it('a password grant without a refresh token is no token', async () => {
    const api = answering(paidAnswer);
    const { connector, tokens } = harness(api.transport);
    tokens.answer.password = { status: 200, body: { access_token: 'P', expires_in: 299 } };
    expect(await connector.postRealTime(single)).toMatchObject({ kind: 'not-sent' });
    expect(api.asked).toHaveLength(0);
  });
});

describe('the operator’s key (checkNpiKey)', () => {
  const now = new Date('2026-06-01T00:00:00Z');

  it('opens a PKCS#12 with its passphrase, while its certificate is valid', () => {
    const { pfx, passphrase } = testPfx();
    const checked = checkNpiKey(pfx, passphrase, now);
    expect(checked.ok && checked.key.subject).toBe('CN=BHUKTANI@9999, O=Bhuktani test member');
  });

  it.each([
    ['a wrong passphrase', () => checkNpiKey(testPfx().pfx, 'wrong', now), 'wrong passphrase'],
    ['a file that is no PKCS#12', () => checkNpiKey(Buffer.from('-----BEGIN PRIVATE KEY-----'), 'x', now), 'not a PKCS#12'],
    ['an expired certificate', () => checkNpiKey(testPfx({ to: new Date('2026-05-31T00:00:00Z') }).pfx, 'test-passphrase', now), 'expired on 2026-05-31'],
    ['a certificate not yet valid', () => checkNpiKey(testPfx({ from: new Date('2026-07-01T00:00:00Z') }).pfx, 'test-passphrase', now), 'valid only from 2026-07-01'],
    ['a key without its certificate', () => checkNpiKey(testPfx({ withCertificate: false }).pfx, 'test-passphrase', now), 'no certificate'],
  ])('refuses %s, with the reason', (_what, check, reason) => {
    const checked = check();
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toContain(reason);
  });
});

describe('requests NPI would refuse are never sent', () => {
  it.each([
    ['two transactions on the real-time rail', 'cips', { ...single, transactions: [transfer(), transfer({ instructionId: 'PO-1-2' })] }, 'exactly one'],
    ['over connectIPS’s interbank limit', 'cips', { ...single, transactions: [transfer({ amount: cipsLimits.offUs + 1 })] }, 'interbank limit of 2000000.00'],
    ['a bank code that is not four digits', 'cips', { ...single, transactions: [transfer({ creditorAgent: '401' })] }, 'creditorAgent'],
    ['an account number with a comma (the token’s separator)', 'cips', { ...single, transactions: [transfer({ creditorAccount: '0811,0017' })] }, 'creditorAccount'],
    ['a branch code over four characters', 'cips', { ...single, transactions: [transfer({ creditorBranch: '00081' })] }, 'creditorBranch'],
    ['a batchId over 20 characters', 'cips', { ...single, batchId: 'P'.repeat(21) }, 'batchId'],
    ['no amount', 'cips', { ...single, transactions: [transfer({ amount: 0 })] }, 'positive'],
    ['a same-bank transfer on NCHL-IPS', 'ips', { ...single, transactions: [transfer({ creditorAgent: '1701' })] }, 'interbank transfers only'],
    ['10,001 transactions in a batch', 'ips', { ...single, transactions: Array.from({ length: 10_001 }, (_, i) => transfer({ instructionId: `PO-1-${i}` })) }, '1 to 10000'],
    ['one instructionId twice', 'ips', { ...single, transactions: [transfer(), transfer()] }, 'share an instructionId'],
  ] as const)('%s', async (_what, rail, batch, reason) => {
    const api = answering(paidAnswer);
    const { connector, tokens } = harness(api.transport);
    const posting = await (rail === 'cips' ? connector.postRealTime(batch) : connector.postBatch(batch));
    expect(posting.kind).toBe('not-sent');
    expect(posting.kind === 'not-sent' && posting.reason).toContain(reason);
    expect(api.asked).toHaveLength(0);
    expect(tokens.grants).toHaveLength(0);
  });

  it('a same-bank transfer may go over the interbank limit, up to the same-bank one', async () => {
    const api = answering({ ...paidAnswer });
    const { connector } = harness(api.transport);
    await connector.postRealTime({ ...single, transactions: [transfer({ creditorAgent: '1701', amount: cipsLimits.offUs + 1 })] });
    expect(api.asked).toHaveLength(1);
    expect(api.asked[0].body).toContain('"amount":2000000.01');
  });

  it('an account to validate with a bank code NPI does not use is refused before asking', async () => {
    const api = answering({});
    const { connector } = harness(api.transport);
    expect(await connector.validateAccount({ bankId: 'NABIL', accountId: '0811', accountName: 'Ram' })).toMatchObject({ kind: 'refused', code: 'invalid' });
    expect(api.asked).toHaveLength(0);
  });
});

describe('hostile answers to a posting: unknown, never failed, never posted again', () => {
  const html = { status: 200, contentType: 'text/html', text: '<html><body>Gateway</body></html>' };
  const cases: [string, HttpAnswer | Error, string][] = [
    ['HTML', html, 'text/html, not JSON'],
    ['an empty body', { status: 200, contentType: 'application/json', text: '' }, 'empty body'],
    ['JSON that is cut off', { status: 200, contentType: 'application/json', text: '{"cipsBatchResponse":{' }, 'not valid JSON'],
    ['no answer at all', new TransportError('no answer within 30000 ms'), 'no answer within 30000 ms'],
    ['a 502 from a proxy', { status: 502, contentType: 'text/html', text: '<html>Bad Gateway</html>' }, '502'],
    ['E999', json({ responseCode: 'E999', responseDescription: 'ERROR', fieldErrors: [] }, 500), 'E999'],
    ['another batch’s answer', json({ ...paidAnswer, cipsBatchResponse: { ...paidAnswer.cipsBatchResponse, batchId: 'PO-2' } }), 'another batch'],
    ['an answer for an instruction not posted', json({ ...paidAnswer, cipsTxnResponseList: [{ ...paidAnswer.cipsTxnResponseList[0], instructionId: 'PO-9-1' }] }), 'not in batch PO-1'],
    ['a debit status of another type', json({ ...paidAnswer, cipsBatchResponse: { ...paidAnswer.cipsBatchResponse, debitStatus: 0 } }), 'debitStatus'],
    ['a credit status NPI does not publish', json({ ...paidAnswer, cipsTxnResponseList: [{ ...paidAnswer.cipsTxnResponseList[0], creditStatus: 'SETTLED' }] }), 'does not publish'],
  ];

  it.each(cases)('%s', async (_what, answer, reason) => {
    const api = scripted(answer);
    const { connector } = harness(api.transport);
    const posting = await connector.postRealTime(single);
    const details = posting.kind === 'unknown' ? [posting.detail] : posting.kind === 'answered' ? posting.transactions.map((t) => t.detail) : [];
    expect(posting.kind === 'unknown' || (posting.kind === 'answered' && posting.transactions.every((t) => t.status === 'unknown'))).toBe(true);
    expect(details.join(' ')).toContain(reason);
    expect(api.asked).toHaveLength(1);
  });

  it('an answer that leaves out one of the batch’s transactions leaves that one unknown', async () => {
    const batch: NpiBatch = { batchId: 'PO-1', transactions: [transfer(), transfer({ instructionId: 'PO-1-2' })] };
    const answer = { ...paidAnswer, cipsTxnResponseList: [{ ...paidAnswer.cipsTxnResponseList[0], creditStatus: 'ENTR' }] };
    const { connector } = harness(answering(answer).transport);
    const posting = await connector.postBatch(batch);
    expect(posting.kind === 'answered' && posting.transactions.map((t) => t.status)).toEqual(['pending', 'unknown']);
  });
});

describe('NPI’s statuses, debit and credit together', () => {
  it.each([
    ['000', '000', 'paid'],
    ['000', 'ACSC', 'paid'],
    ['000', 'DEFER', 'pending'],
    ['000', '999', 'pending'],
    ['000', 'ENTR', 'pending'],
    ['000', 'GEN', 'pending'],
    ['000', 'SENT', 'pending'],
    ['000', 'ACTC', 'pending'],
    ['000', 'ACSP', 'pending'],
    ['000', 'RJCT', 'failed'],
    ['000', '1001', 'failed'],
    ['000', '114', 'failed'],
    ['000', '-01', 'failed'],
    ['000', null, 'unknown'],
    ['000', '1000', 'unknown'],
    ['ENTR', null, 'pending'],
    ['999', '1000', 'unknown'],
    ['1001', '1000', 'failed'],
    ['1000', '1000', 'failed'],
    ['907', '1000', 'failed'],
    ['907', '000', 'unknown'],
    ['OK', '000', 'unknown'],
    [null, '000', 'unknown'],
  ] as const)('debit %s, credit %s: %s', (debit, credit, status) => {
    expect(meaningOf(debit, credit).status).toBe(status);
  });
});

describe('reports', () => {
  const caseI = REPORT_CASES.cases['I (CIPS debit/credit success)'].body;
  const { cipsBatchDetail, ...record } = caseI;
  /** By batch: NCHL prints no example; the shape a production client reads (the batch, its transactions inside). */
  const byBatch = { ...cipsBatchDetail, cipsTransactionDetailList: [record] };
  const expected = { batchId: 'MACHHA-REV1', transactions: [{ instructionId: 'MACHHA-REV-3', amount: 1000 }] };

  it('by batch: each posted transaction with its outcome and NCHL’s ids', async () => {
    const { connector } = harness(answering(byBatch).transport);
    expect(await connector.reportByBatch('cips', expected)).toEqual({
      kind: 'found',
      transactions: [{ status: 'paid', detail: 'NPI: credited (000)', reference: { rail: 'cips', batchId: 'MACHHA-REV1', instructionId: 'MACHHA-REV-3', nchlBatchId: 1357, nchlTransactionId: 1340 } }],
    });
  });

  it.each([
    ['another batch', { ...byBatch, batchId: 'MACHHA-REV2' }, 'another batch'],
    ['another amount for the batch', { ...byBatch, batchAmount: 100.0 }, 'not 1000 paisa'],
    ['another amount for the transaction', { ...byBatch, batchAmount: undefined, cipsTransactionDetailList: [{ ...record, amount: '100.00' }] }, 'not 1000 paisa'],
    ['an instruction Bhuktani did not post', { ...byBatch, cipsTransactionDetailList: [record, { ...record, instructionId: 'X-1' }] }, 'did not post'],
  ])('by batch, %s: nothing marked paid', async (_what, body, reason) => {
    const { connector } = harness(answering(body).transport);
    const report = await connector.reportByBatch('cips', expected);
    const details = report.kind === 'found' ? report.transactions.map((t) => `${t.status}: ${t.detail}`) : [`${report.kind}: ${report.detail}`];
    expect(details.every((d) => d.startsWith('unknown'))).toBe(true);
    expect(details.join(' ')).toContain(reason);
  });

  it('by batch, a transaction missing from the report is unknown; with the batch’s total off, all are', async () => {
    const twice = { batchId: 'MACHHA-REV1', transactions: [...expected.transactions, { instructionId: 'MACHHA-REV-4', amount: 500 }] };
    const untotalled = await harness(answering({ ...byBatch, batchAmount: undefined }).transport).connector.reportByBatch('cips', twice);
    expect(untotalled.kind === 'found' && untotalled.transactions.map((t) => t.status)).toEqual(['paid', 'unknown']);
    const totalled = await harness(answering(byBatch).transport).connector.reportByBatch('cips', twice);
    expect(totalled.kind === 'found' && totalled.transactions.map((t) => t.status)).toEqual(['unknown', 'unknown']);
  });

  it.each([
    ['{}', {}],
    ['[]', []],
  ])('by batch, %s is “NPI has no such batch”', async (_what, body) => {
    const { connector } = harness(answering(body).transport);
    expect(await connector.reportByBatch('cips', expected)).toMatchObject({ kind: 'not-found' });
  });

  it.each([
    ['HTML', { status: 200, contentType: 'text/html', text: '<html></html>' }, 'not JSON'],
    ['an empty body', { status: 200, contentType: 'application/json', text: '' }, 'empty body'],
    ['a 500', json({ responseCode: 'E999', responseDescription: 'ERROR' }, 500), '500 E999'],
  ])('by batch, %s is unknown with the reason', async (_what, answer, reason) => {
    const { connector } = harness(scripted(answer).transport);
    const report = await connector.reportByBatch('cips', expected);
    expect(report.kind).toBe('unknown');
    expect(report.kind === 'unknown' && report.detail).toContain(reason);
  });

  it('by instruction, an answer for another instruction is unknown', async () => {
    const { connector } = harness(answering(caseI).transport);
    expect(await connector.reportByInstruction('cips', { batchId: 'MACHHA-REV1', instructionId: 'MACHHA-REV-4', amount: 1000 })).toMatchObject({ kind: 'unknown' });
  });

  it('by date: every transaction of the days, with its batch, instruction, amount and outcome', async () => {
    const caseVI = REPORT_CASES.cases['VI (IPS debit/credit success)'].body;
    const { nchlIpsBatchDetail, ...ips } = caseVI;
    const rejected = { ...ips, instructionId: 'STRESS_TXN_144053', amount: '5.50', creditStatus: 'RJCT', reasonDesc: 'Account Not Found' };
    const { connector, apiCalls } = harness(answering([{ nchlIpsBatchDetail, nchlIpsTransactionDetailList: [ips, rejected] }]).transport);
    const report = await connector.reportByDate('ips', { from: '2020-01-22', to: '2020-01-22' });
    expect(JSON.parse(apiCalls[0].body!)).toEqual({ txnDateFrom: '2020-01-22', txnDateTo: '2020-01-22' });
    expect(report.kind === 'listed' && report.entries.map((e) => [e.reference.batchId, e.reference.instructionId, e.amount, e.status, e.detail])).toEqual([
      ['STRESS_642180', 'STRESS_TXN_144052', 1000, 'paid', 'NPI: credited (ACSC)'],
      ['STRESS_642180', 'STRESS_TXN_144053', 550, 'failed', 'NPI: credit refused (RJCT), the debit reversed: Account Not Found'],
    ]);
  });

  it('by date, an answer of another shape is unknown, and a range that is none is refused before asking', async () => {
    const api = answering({ cipsBatchDetail: {} });
    const { connector } = harness(api.transport);
    expect(await connector.reportByDate('cips', { from: '2026-06-01', to: '2026-06-02' })).toMatchObject({ kind: 'unknown' });
    await expect(connector.reportByDate('cips', { from: '2026-06-02', to: '2026-06-01' })).rejects.toThrow(RangeError);
    expect(api.asked).toHaveLength(1);
  });
});

it('a base URL with a trailing slash does not double it', async () => {
  const { setup, clock } = testSetup();
  const api = answering(REAL_TIME.answer);
  const npi = npiTransport(api.transport);
  await npiConnector({ ...setup, credentials: { ...setup.credentials, baseUrl: `${BASE_URL}/` } }, npi.transport, clock).reportByDate('cips', { from: '2026-06-01', to: '2026-06-01' });
  expect(api.asked[0].url).toBe(`${BASE_URL}/api/getcipstxnlistbydate`);
});
