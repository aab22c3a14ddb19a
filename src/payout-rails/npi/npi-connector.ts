// NCHL's National Payments Interface, spoken as a member: account validation, a real-time transfer
// (connectIPS, one transaction), a batch (NCHL-IPS, up to 10,000) and the reports by batch, by
// instruction and by date. Every call carries a Bearer token (npi-oauth.ts); a posting carries the
// `token` field signed with the operator's key over NPI's token string (protocols/npi). The connector
// never posts again by itself, and never under new ids: what a lost or unclear answer came to, the
// caller asks the reports.
import { systemClock, type Clock } from '../../clock.js';
import { cipsLimits, ipsMaxTransactions } from '../../protocols/npi/codes.js';
import { npiAmount, tokenString } from '../../protocols/npi/token-string.js';
import { TransportError, type HttpAnswer, type Transport } from '../../providers/provider-http.js';
import { readAs } from '../../providers/wire.js';
import { signNpiToken, type NpiKey } from './npi-key.js';
import { NpiTokenError, npiTokens, type NpiCredentials } from './npi-oauth.js';
import {
  byBatchAnswer,
  byDateAnswer,
  byInstructionAnswer,
  ByBatchRequest,
  ByDateRequest,
  ByInstructionRequest,
  npiJson,
  npiPaths,
  PostCipsBatch,
  PostNchlIpsBatch,
  postingAnswer,
  VALIDATE_PATH,
  ValidateBankAccount,
  validationAnswer,
  type AccountCheck,
  type BatchDetail,
  type ExpectedBatch,
  type ExpectedTransaction,
  type NpiDayReport,
  type NpiPosting,
  type NpiRail,
  type NpiReport,
  type TransactionDetail,
} from './transformers.js';

/** The operator's source account, whitelisted with NCHL by its bank. */
export interface NpiDebtor {
  agent: string;
  branch: string;
  account: string;
  name: string;
}

export interface NpiSetup {
  credentials: NpiCredentials;
  key: NpiKey;
  debtor: NpiDebtor;
}

/** One payout as NPI moves it. Amount in paisa; the ids are the member's, kept for every retry. */
export interface NpiTransfer {
  instructionId: string;
  endToEndId: string;
  amount: number;
  creditorAgent: string;
  creditorBranch: string;
  creditorName: string;
  creditorAccount: string;
  remarks?: string;
}

export interface NpiBatch {
  batchId: string;
  transactions: readonly NpiTransfer[];
  /** NPI's category purpose: ECPG on the real-time rail (the only one NCHL allows), CUST by default on the batch rail. */
  categoryPurpose?: string;
}

const defaultPurpose = { cips: 'ECPG', ips: 'CUST' } as const;

export interface NpiConnector {
  validateAccount(account: ValidateBankAccount): Promise<AccountCheck>;
  postRealTime(batch: NpiBatch): Promise<NpiPosting>;
  postBatch(batch: NpiBatch): Promise<NpiPosting>;
  reportByBatch(rail: NpiRail, expected: ExpectedBatch): Promise<NpiReport>;
  reportByInstruction(rail: NpiRail, expected: { batchId: string } & ExpectedTransaction): Promise<NpiReport>;
  reportByDate(rail: NpiRail, range: { from: string; to: string }): Promise<NpiDayReport>;
}

/** The body a posting of `batch` on `rail` sends, signed; or why NPI would refuse it (then nothing is sent). */
export function postingBody(rail: NpiRail, setup: Pick<NpiSetup, 'key' | 'debtor'> & { username: string }, batch: NpiBatch): { ok: true; json: string } | { ok: false; reason: string } {
  const { debtor } = setup;
  const count = batch.transactions.length;
  if (rail === 'cips' && count !== 1) return { ok: false, reason: `a real-time batch holds exactly one transaction, not ${count}` };
  if (rail === 'ips' && (count < 1 || count > ipsMaxTransactions)) return { ok: false, reason: `a batch holds 1 to ${ipsMaxTransactions} transactions, not ${count}` };
  for (const t of batch.transactions) {
    if (!Number.isSafeInteger(t.amount) || t.amount <= 0) return { ok: false, reason: `${t.instructionId}: the amount must be a positive number of paisa` };
    const onUs = t.creditorAgent === debtor.agent;
    if (rail === 'ips' && onUs) return { ok: false, reason: `${t.instructionId}: NCHL-IPS takes interbank transfers only; one to the debtor's own bank goes in real time` };
    const limit = onUs ? cipsLimits.onUs : cipsLimits.offUs;
    if (rail === 'cips' && t.amount > limit) return { ok: false, reason: `${t.instructionId}: ${npiAmount(t.amount)} is over connectIPS's ${onUs ? 'same-bank' : 'interbank'} limit of ${npiAmount(limit)}` };
  }
  const ids = new Set(batch.transactions.map((t) => t.instructionId));
  if (ids.size !== count) return { ok: false, reason: 'two transactions of the batch share an instructionId' };
  const batchAmount = batch.transactions.reduce((sum, t) => sum + t.amount, 0);
  if (!Number.isSafeInteger(batchAmount)) return { ok: false, reason: 'the batch amount is too large' };
  const detail: BatchDetail = {
    batchId: batch.batchId,
    batchAmount: npiAmount(batchAmount),
    batchCount: count,
    batchCrncy: 'NPR',
    categoryPurpose: batch.categoryPurpose ?? defaultPurpose[rail],
    debtorAgent: debtor.agent,
    debtorBranch: debtor.branch,
    debtorName: debtor.name,
    debtorAccount: debtor.account,
  };
  const transactions: TransactionDetail[] = batch.transactions.map((t) => ({
    instructionId: t.instructionId,
    endToEndId: t.endToEndId,
    amount: npiAmount(t.amount),
    creditorAgent: t.creditorAgent,
    creditorBranch: t.creditorBranch,
    creditorName: t.creditorName,
    creditorAccount: t.creditorAccount,
    ...(t.remarks ? { remarks: t.remarks } : {}),
  }));
  const signed = tokenString(
    rail,
    { ...detail, batchAmount },
    batch.transactions.map((t) => ({ instructionId: t.instructionId, creditorAgent: t.creditorAgent, creditorBranch: t.creditorBranch, creditorAccount: t.creditorAccount, amount: t.amount })),
    setup.username,
  );
  const token = signNpiToken(setup.key, signed);
  const body = rail === 'cips' ? { cipsBatchDetail: detail, cipsTransactionDetailList: transactions, token } : { nchlIpsBatchDetail: detail, nchlIpsTransactionDetailList: transactions, token };
  const checked = readAs(rail === 'cips' ? PostCipsBatch : PostNchlIpsBatch, body, `the ${rail === 'cips' ? 'real-time' : 'batch'} posting`);
  if (!checked.ok) return { ok: false, reason: checked.reason.replace('does not fit its published shape', 'breaks NPI’s field rules') };
  return { ok: true, json: npiJson(body) };
}

const unclear = (error: unknown, what: string): string => {
  if (error instanceof NpiTokenError || error instanceof TransportError) return `${what}: ${error.message}`;
  throw error;
};

export function npiConnector(setup: NpiSetup, transport: Transport, clock: Clock = systemClock): NpiConnector {
  const base = setup.credentials.baseUrl.replace(/\/+$/, '');
  const credentials = { ...setup.credentials, baseUrl: base };
  const tokens = npiTokens(credentials, transport, clock);
  const signing = { key: setup.key, debtor: setup.debtor, username: credentials.username };

  /** POST `json` to `path` with a Bearer token; on a 401 the token is renewed and the call made once more. */
  async function call(path: string, json: string): Promise<HttpAnswer> {
    const send = (token: string) => transport({ url: `${base}${path}`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body: json });
    const token = await tokens.accessToken();
    const first = await send(token);
    if (first.status !== 401) return first;
    return send(await tokens.renewAfter401(token));
  }

  async function post(rail: NpiRail, batch: NpiBatch): Promise<NpiPosting> {
    const body = postingBody(rail, signing, batch);
    if (!body.ok) return { kind: 'not-sent', reason: body.reason };
    let token: string;
    try {
      token = await tokens.accessToken();
    } catch (error) {
      return { kind: 'not-sent', reason: unclear(error, 'no access token') };
    }
    const expected = { batchId: batch.batchId, transactions: batch.transactions.map((t) => ({ instructionId: t.instructionId, amount: t.amount })) };
    const send = (bearer: string) =>
      transport({ url: `${base}${npiPaths[rail].post}`, method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' }, body: body.json });
    let answer: HttpAnswer;
    try {
      answer = await send(token);
    } catch (error) {
      // The request left: the money may have moved.
      return { kind: 'unknown', detail: `${unclear(error, npiPaths[rail].post.slice(5))}: ask the reports` };
    }
    if (answer.status === 401) {
      // Turned away unread: renewing and sending the same bytes again is safe.
      let renewed: string;
      try {
        renewed = await tokens.renewAfter401(token);
      } catch (error) {
        return { kind: 'not-sent', reason: unclear(error, 'NPI refused the access token, and no new one could be had') };
      }
      try {
        answer = await send(renewed);
      } catch (error) {
        return { kind: 'unknown', detail: `${unclear(error, npiPaths[rail].post.slice(5))}: ask the reports` };
      }
    }
    return postingAnswer(rail, answer, expected);
  }

  /** A report's answer, or its failure to come as an unknown. */
  async function report<R>(path: string, request: unknown, read: (answer: HttpAnswer) => R, unknown: (detail: string) => R): Promise<R> {
    try {
      return read(await call(path, JSON.stringify(request)));
    } catch (error) {
      return unknown(unclear(error, path.slice(5)));
    }
  }

  return {
    async validateAccount(account) {
      const checked = readAs(ValidateBankAccount, account, 'the account');
      if (!checked.ok) return { kind: 'refused', code: 'invalid', message: `${checked.reason.replace('does not fit its published shape', 'breaks NPI’s field rules')}; nothing was sent` };
      const request = { bankId: account.bankId, accountId: account.accountId, accountName: account.accountName };
      return report(VALIDATE_PATH, request, (answer) => validationAnswer(answer, request), (detail) => ({ kind: 'unknown', detail }));
    },

    postRealTime: (batch) => post('cips', batch),

    postBatch: (batch) => post('ips', batch),

    async reportByBatch(rail, expected) {
      const request = { batchId: expected.batchId };
      if (!readAs(ByBatchRequest, request, 'batchId').ok) return { kind: 'unknown', detail: `${expected.batchId.slice(0, 40)} is no batchId NPI could hold` };
      return report(npiPaths[rail].byBatch, request, (answer) => byBatchAnswer(rail, answer, expected), (detail) => ({ kind: 'unknown', detail }));
    },

    async reportByInstruction(rail, expected) {
      const request = { batchId: expected.batchId, instructionId: expected.instructionId };
      if (!readAs(ByInstructionRequest, request, 'ids').ok) return { kind: 'unknown', detail: 'no ids NPI could hold' };
      return report(npiPaths[rail].byInstruction, request, (answer) => byInstructionAnswer(rail, answer, expected), (detail) => ({ kind: 'unknown', detail }));
    },

    async reportByDate(rail, range) {
      const request = { txnDateFrom: range.from, txnDateTo: range.to };
      if (!readAs(ByDateRequest, request, 'dates').ok || range.from > range.to) throw new RangeError(`not a range of days: ${range.from}..${range.to}`);
      return report(npiPaths[rail].byDate, request, (answer) => byDateAnswer(rail, answer), (detail) => ({ kind: 'unknown', detail }));
    },
  };
}
