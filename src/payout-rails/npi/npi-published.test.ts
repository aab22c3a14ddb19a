// The NPI connector against NCHL's own published examples (fixtures/npi-spec.ts, each with its page
// and section): the requests it sends for NCHL's example values, and what it makes of NCHL's sample
// answers, technical codes and report cases. NCHL's tokens cannot be verified (its key is not
// public): the connector's are checked with the tests' own key pair (fixtures/test-key.ts).
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answering } from '../../../test/connector-harness.js';
import { tokenString } from '../../protocols/npi/token-string.js';
import { BATCH, CODES_TABLE, E007, OAUTH, REAL_TIME, REPORT_CASES, REPORTS, VALIDATION } from './fixtures/npi-spec.js';
import { BASE_URL, npiTransport, testSetup, USERNAME } from './fixtures/harness.js';
import { npiConnector, type NpiBatch } from './npi-connector.js';

/** NCHL's masked account numbers with their masks filled, since no real account holds a `*`. */
const unmask = (account: string) => account.replaceAll('*', '0');

function connectorAnswering(body: unknown, status = 200, debtor = {}) {
  const { setup, publicKeyPem, clock } = testSetup(debtor);
  const api = answering(body, status);
  const npi = npiTransport(api.transport);
  return { connector: npiConnector(setup, npi.transport, clock), asked: api.asked, grants: npi.tokens.grants, publicKeyPem };
}

const tokenVerifies = (publicKeyPem: string, message: string, token: string) => verify('sha256', Buffer.from(message, 'utf8'), createPublicKey(publicKeyPem), Buffer.from(token, 'base64'));

describe('OAuth2 (§5.1.1)', () => {
  it('takes a refresh token by the password grant, then the access token it uses by the refresh grant', async () => {
    const { connector, asked, grants } = connectorAnswering(VALIDATION.answers['000']);
    await connector.validateAccount({ ...VALIDATION.request, accountId: VALIDATION.echoedAccount });
    expect(grants.map((g) => g.fields.grant_type)).toEqual(OAUTH.grants);
    expect(grants[1].fields).toEqual({ grant_type: 'refresh_token', refresh_token: 'R1' });
    expect(asked[0].url).toBe(`${BASE_URL}${VALIDATION.path}`);
    // The password grant's access token (P1) is never used: NCHL forbids it.
    expect(asked[0].headers?.authorization).toBe('Bearer A2');
  });
});

describe('account validation (§5.3)', () => {
  const account = { ...VALIDATION.request, accountId: VALIDATION.echoedAccount };

  it('sends the three fields of NCHL’s example, as JSON', async () => {
    const { connector, asked } = connectorAnswering(VALIDATION.answers['000']);
    await connector.validateAccount(VALIDATION.request);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', url: `${BASE_URL}${VALIDATION.path}` });
    expect(asked[0].headers?.['content-type']).toBe('application/json');
    expect(JSON.parse(asked[0].body!)).toEqual(VALIDATION.request);
  });

  it('000 is a match, with the branch NPI found the account in', async () => {
    const { connector } = connectorAnswering(VALIDATION.answers['000']);
    expect(await connector.validateAccount(account)).toEqual({ kind: 'match', branchId: '81' });
  });

  it(`999 above ${VALIDATION.proceedAbove} is a partial match with NPI’s score and words`, async () => {
    const { connector } = connectorAnswering(VALIDATION.answers['999']);
    expect(await connector.validateAccount(account)).toEqual({ kind: 'partial', score: 94, message: VALIDATION.answers['999'].responseMessage, branchId: '81' });
  });

  it(`999 at ${VALIDATION.proceedAbove} or below is refused (NCHL: stop the transaction)`, async () => {
    const { connector } = connectorAnswering({ ...VALIDATION.answers['999'], matchPercentate: 80 });
    expect(await connector.validateAccount(account)).toMatchObject({ kind: 'refused', code: '999' });
  });

  it('reads the table’s spelling, matchPercentage, as well as the samples’ matchPercentate', async () => {
    const { matchPercentate: _, ...rest } = VALIDATION.answers['999'];
    const high = connectorAnswering({ ...rest, matchPercentage: 85 });
    expect(await high.connector.validateAccount(account)).toMatchObject({ kind: 'partial', score: 85 });
    const low = connectorAnswering({ ...rest, matchPercentage: 60 });
    expect(await low.connector.validateAccount(account)).toMatchObject({ kind: 'refused', code: '999' });
  });

  it('523 (and any code but 000 and 999) is refused with NPI’s message (and its score, for the name)', async () => {
    const { connector } = connectorAnswering(VALIDATION.answers['523']);
    expect(await connector.validateAccount(account)).toEqual({ kind: 'refused', code: '523', message: 'Beneficiary account name mismatch.', score: 40 });
  });

  it('NCHL’s sample pair as printed (masked apart) is an answer for another account: unknown', async () => {
    const { connector } = connectorAnswering(VALIDATION.answers['000']);
    expect(await connector.validateAccount(VALIDATION.request)).toMatchObject({ kind: 'unknown' });
  });
});

const published = REAL_TIME.request;
const realTimeBatch: NpiBatch = {
  batchId: published.cipsBatchDetail.batchId,
  transactions: published.cipsTransactionDetailList.map((t) => ({ ...t, amount: Math.round(t.amount * 100), creditorAccount: unmask(t.creditorAccount) })),
};
const realTimeDebtor = { agent: published.cipsBatchDetail.debtorAgent, branch: published.cipsBatchDetail.debtorBranch, name: published.cipsBatchDetail.debtorName, account: unmask(published.cipsBatchDetail.debtorAccount) };

describe('real-time posting (§5.4.1)', () => {
  it('sends NCHL’s example request: its fields, its values, amounts with two decimals, a token over the same text', async () => {
    const { connector, asked, publicKeyPem } = connectorAnswering(REAL_TIME.answer, 200, realTimeDebtor);
    await connector.postRealTime(realTimeBatch);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', url: `${BASE_URL}${REAL_TIME.path}` });
    const body = JSON.parse(asked[0].body!);
    expect(body.cipsBatchDetail).toEqual({ ...published.cipsBatchDetail, debtorAccount: realTimeDebtor.account });
    expect(body.cipsTransactionDetailList).toEqual([{ ...published.cipsTransactionDetailList[0], creditorAccount: unmask(published.cipsTransactionDetailList[0].creditorAccount) }]);
    expect(asked[0].body).toContain('"batchAmount":200.25');
    // The published token is 344 Base64 characters (RSA-2048); so is ours, and ours verifies.
    expect(body.token).toHaveLength(REAL_TIME.request.token.length);
    const signed = tokenString('cips', { ...body.cipsBatchDetail, batchAmount: 20025 }, [{ ...body.cipsTransactionDetailList[0], amount: 20025 }], USERNAME);
    expect(signed).toBe(`KHA-198706,1701,1,${realTimeDebtor.account},200.25,NPR,KHA-198706-1,9935,1,${unmask('0010*******374')},200.25,${USERNAME}`);
    expect(tokenVerifies(publicKeyPem, signed, body.token)).toBe(true);
  });

  it('NCHL’s example answer (debit 000, credit 000) is paid, with NCHL’s ids kept', async () => {
    const { connector } = connectorAnswering(REAL_TIME.answer, 200, realTimeDebtor);
    expect(await connector.postRealTime(realTimeBatch)).toEqual({
      kind: 'answered',
      transactions: [{ status: 'paid', detail: 'NPI: credited (000)', reference: { rail: 'cips', batchId: 'KHA-198706', instructionId: 'KHA-198706-1', nchlBatchId: 42, nchlTransactionId: 36 } }],
    });
  });
});

const batchRequest = BATCH.request;
const twoTransactions: NpiBatch = {
  batchId: batchRequest.nchlIpsBatchDetail.batchId,
  categoryPurpose: batchRequest.nchlIpsBatchDetail.categoryPurpose,
  transactions: batchRequest.nchlIpsTransactionDetailList.map(({ addenda1: _a, addenda2: _b, ...t }) => ({ ...t, amount: t.amount * 100, creditorAccount: unmask(t.creditorAccount) })),
};
const batchDebtor = { agent: batchRequest.nchlIpsBatchDetail.debtorAgent, branch: '1', name: batchRequest.nchlIpsBatchDetail.debtorName, account: unmask(batchRequest.nchlIpsBatchDetail.debtorAccount) };

describe('batch posting (§5.4.2)', () => {
  it('sends NCHL’s two-transaction example, signing the category purpose and each transaction in order', async () => {
    const { connector, asked, publicKeyPem } = connectorAnswering(BATCH.answer, 200, batchDebtor);
    await connector.postBatch(twoTransactions);
    expect(asked[0].url).toBe(`${BASE_URL}${BATCH.path}`);
    const body = JSON.parse(asked[0].body!);
    expect(body.nchlIpsBatchDetail).toEqual({ ...batchRequest.nchlIpsBatchDetail, debtorAccount: batchDebtor.account });
    expect(body.nchlIpsTransactionDetailList.map((t: { instructionId: string; amount: number }) => [t.instructionId, t.amount])).toEqual([['TEST20250803-1', 15], ['TEST20250803-2', 5]]);
    // NCHL's example writes 20 and 15; Bhuktani writes, and signs, 20.00 and 15.00.
    expect(asked[0].body).toContain('"batchAmount":20.00');
    expect(asked[0].body).toContain('"amount":15.00');
    const signed = `TEST20250803,2501,1,${batchDebtor.account},20.00,NPR,CUST,TEST20250803-1,4501,23,${unmask('0010*******374')},15.00,TEST20250803-2,4501,23,023011050000749,5.00,${USERNAME}`;
    expect(tokenVerifies(publicKeyPem, signed, body.token)).toBe(true);
  });

  it('NCHL’s example answer names batch KHA-198706, not this one: unknown, nothing decided', async () => {
    const { connector } = connectorAnswering(BATCH.answer, 200, batchDebtor);
    const posting = await connector.postBatch(twoTransactions);
    expect(posting.kind).toBe('unknown');
  });

  it('the same answer for this batch (debit 000, credits ENTR) is pending until NCHL-IPS settles', async () => {
    const answer = {
      cipsBatchResponse: { ...BATCH.answer.cipsBatchResponse, batchId: 'TEST20250803' },
      cipsTxnResponseList: ['TEST20250803-1', 'TEST20250803-2'].map((instructionId, i) => ({ ...BATCH.answer.cipsTxnResponseList[0], id: 36 + i, instructionId })),
    };
    const { connector } = connectorAnswering(answer, 200, batchDebtor);
    const posting = await connector.postBatch(twoTransactions);
    expect(posting.kind === 'answered' && posting.transactions.map((t) => t.status)).toEqual(['pending', 'pending']);
  });
});

describe('technical codes (§6)', () => {
  // Nothing was posted for a technical refusal; a duplicate, E999 and E021 say nothing of the money: the reports decide.
  const meaning: Record<string, 'refused' | 'unknown'> = { E001: 'refused', E007: 'refused', E003: 'refused', E004: 'refused', '99': 'unknown', E999: 'unknown', E021: 'unknown' };

  it.each(CODES_TABLE.technical.map((row) => [row.code, row] as const))('%s', async (code, row) => {
    const { connector, asked } = connectorAnswering(CODES_TABLE.body(row.code, row.description), row.http, realTimeDebtor);
    const posting = await connector.postRealTime(realTimeBatch);
    expect(posting.kind).toBe(meaning[code]);
    if (posting.kind === 'refused') expect(posting).toMatchObject({ code, message: row.description });
    // Never posted again by the connector, never under new ids.
    expect(asked).toHaveLength(1);
  });

  it('the remittance specification’s E007 is refused with the field NPI names', async () => {
    const { connector } = connectorAnswering(E007.body, E007.http, batchDebtor);
    expect(await connector.postBatch(twoTransactions)).toEqual({ kind: 'refused', code: 'E007', message: 'TECHNICAL VALIDATION FAILED: nchlIpsBatchDetail.categoryPurpose: Invalid transaction category purpose.' });
  });
});

describe('reports (§5.5)', () => {
  it.each(Object.entries(REPORT_CASES.cases))('Case %s by instruction', async (_name, reportCase) => {
    const { connector, asked } = connectorAnswering(reportCase.body);
    const record = reportCase.body;
    const batch = 'cipsBatchDetail' in record ? record.cipsBatchDetail : record.nchlIpsBatchDetail;
    const report = await connector.reportByInstruction(reportCase.rail, { batchId: batch.batchId, instructionId: record.instructionId, amount: 1000 });
    expect(asked[0].url).toBe(`${BASE_URL}${REPORTS.byInstruction[reportCase.rail]}`);
    expect(JSON.parse(asked[0].body!)).toEqual({ batchId: batch.batchId, instructionId: record.instructionId });
    expect(report.kind === 'found' && report.transactions.map((t) => t.status)).toEqual([reportCase.means]);
  });

  it('a published success reported for another amount is unknown, not paid', async () => {
    const { connector } = connectorAnswering(REPORT_CASES.cases['I (CIPS debit/credit success)'].body);
    const report = await connector.reportByInstruction('cips', { batchId: 'MACHHA-REV1', instructionId: 'MACHHA-REV-3', amount: 10_000 });
    expect(report.kind === 'found' && report.transactions[0].status).toBe('unknown');
  });

  it('asks each report at its published path, with the published request', async () => {
    const { connector, asked } = connectorAnswering([]);
    for (const rail of ['cips', 'ips'] as const) {
      await connector.reportByDate(rail, { from: REPORTS.byDate.request.txnDateFrom, to: REPORTS.byDate.request.txnDateTo });
      await connector.reportByBatch(rail, { batchId: REPORTS.byBatch.request.batchId, transactions: [] });
      await connector.reportByInstruction(rail, { ...REPORTS.byInstruction.request, amount: 1000 });
    }
    expect(asked.map((r) => [r.url.slice(BASE_URL.length), JSON.parse(r.body!)])).toEqual(
      (['cips', 'ips'] as const).flatMap((rail) => [
        [REPORTS.byDate[rail], REPORTS.byDate.request],
        [REPORTS.byBatch[rail], REPORTS.byBatch.request],
        [REPORTS.byInstruction[rail], REPORTS.byInstruction.request],
      ]),
    );
  });
});
