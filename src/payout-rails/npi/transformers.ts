// NPI's wire (NPI Specification §5.3–§5.5 and §6, doc.connectips.com), each request and answer a
// TypeBox schema, and NPI's debit and credit statuses mapped to a payout's: paid, failed, pending or
// unknown. Only a final word is paid or failed; an answer lost, late, malformed, for another batch or
// another amount is unknown, because the money may have moved and only the reports can say.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { accountValidation, cipsCreditStatuses, debitStatuses as debitStatusNames, ipsFinalCreditStatuses, ipsPendingCreditStatuses } from '../../protocols/npi/codes.js';
import type { HttpAnswer } from '../../providers/provider-http.js';
import { oneOf, readAs, unmapped, type Read } from '../../providers/wire.js';

export type NpiRail = 'cips' | 'ips';

/** Each rail's paths, with NCHL's asymmetric names as published ("txnby…" for CIPS, "txnlistby…" for IPS). */
export const npiPaths = {
  cips: { post: '/api/postcipsbatch', byBatch: '/api/getcipstxnlistbybatchid', byInstruction: '/api/getcipstxnbyinstructionid', byDate: '/api/getcipstxnlistbydate' },
  ips: { post: '/api/postnchlipsbatch', byBatch: '/api/getnchlipstxnlistbybatchid', byInstruction: '/api/getnchlipstxnlistbyinstructionid', byDate: '/api/getnchlipstxnlistbydate' },
} as const;
export const VALIDATE_PATH = '/api/validatebankaccount';

// ---- Requests -------------------------------------------------------------------------------------

/** A field joined into the signed token string: no comma (the separator), no space. */
const Signed = (max: number) => Type.String({ pattern: `^[A-Za-z0-9._@/-]{1,${max}}$` });
const BankCode = Type.String({ pattern: '^\\d{4}$' });
const Words = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[^\\u0000-\\u001f]*$' });
/** An amount as Bhuktani sends and signs it: rupees with exactly two decimals. */
const SentAmount = Type.String({ pattern: '^\\d{1,12}\\.\\d{2}$' });

const BatchDetail = Type.Object({
  batchId: Signed(20),
  batchAmount: SentAmount,
  batchCount: Type.Integer({ minimum: 1, maximum: 10_000 }),
  batchCrncy: Type.Literal('NPR'),
  categoryPurpose: Type.String({ pattern: '^[A-Z]{4}$' }),
  debtorAgent: BankCode,
  debtorBranch: Signed(4),
  debtorName: Words(140),
  debtorAccount: Signed(20),
});

export const TransactionDetail = Type.Object({
  instructionId: Signed(30),
  endToEndId: Words(30),
  amount: SentAmount,
  creditorAgent: BankCode,
  creditorBranch: Signed(4),
  creditorName: Words(140),
  creditorAccount: Signed(20),
  remarks: Type.Optional(Words(100)),
});
export type TransactionDetail = Static<typeof TransactionDetail>;

/** `/api/postcipsbatch`: one transaction, in real time. */
export const PostCipsBatch = Type.Object({
  cipsBatchDetail: BatchDetail,
  cipsTransactionDetailList: Type.Array(TransactionDetail, { minItems: 1, maxItems: 1 }),
  token: Type.String({ minLength: 1 }),
});
/** `/api/postnchlipsbatch`: up to 10,000 transactions, credited at NCHL-IPS's sessions. */
export const PostNchlIpsBatch = Type.Object({
  nchlIpsBatchDetail: BatchDetail,
  nchlIpsTransactionDetailList: Type.Array(TransactionDetail, { minItems: 1, maxItems: 10_000 }),
  token: Type.String({ minLength: 1 }),
});
export type BatchDetail = Static<typeof BatchDetail>;

export const ValidateBankAccount = Type.Object({ bankId: BankCode, accountId: Signed(20), accountName: Words(140) });
export type ValidateBankAccount = Static<typeof ValidateBankAccount>;

const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const ByDateRequest = Type.Object({ txnDateFrom: IsoDate, txnDateTo: IsoDate });
export const ByBatchRequest = Type.Object({ batchId: Signed(20) });
export const ByInstructionRequest = Type.Object({ batchId: Signed(20), instructionId: Signed(30) });

/**
 * The body as JSON text, each amount written as a JSON number with exactly its two decimals
 * (`"amount":200.25`, `"batchAmount":10.00`): the type NCHL documents (BigDecimal), and the very text
 * the token signs. The values were checked against SentAmount, so only digits are unquoted.
 */
export function npiJson(body: unknown): string {
  return JSON.stringify(body).replace(/"(batchAmount|amount)":"(\d{1,12}\.\d{2})"/g, '"$1":$2');
}

// ---- Answers --------------------------------------------------------------------------------------

const Nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const Maybe = <S extends TSchema>(schema: S) => Type.Optional(Nullable(schema));
/** An amount as NPI answers it: a JSON number (`10.00` reads as 10) or its digits in a string. */
const Amount = Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$' })]);

/** §6's technical answer (HTTP 400, 403, 500; and E021 with 200). */
export const TechnicalAnswer = Type.Object({
  responseCode: Type.String({ minLength: 1, maxLength: 10 }),
  responseDescription: Maybe(Type.String()),
  fieldErrors: Maybe(Type.Array(Type.Object({ field: Maybe(Type.String()), message: Maybe(Type.String()) }))),
});

/** §5.3's answer to account validation; NCHL's table spells `matchPercentage`, its samples `matchPercentate`. */
export const ValidationAnswer = Type.Object({
  bankId: Type.String(),
  branchId: Maybe(Type.String({ maxLength: 10 })),
  accountId: Type.String(),
  accountName: Maybe(Type.String()),
  currency: Maybe(Type.String()),
  responseCode: Type.String({ minLength: 1, maxLength: 10 }),
  responseMessage: Maybe(Type.String()),
  matchPercentate: Maybe(Type.Integer({ minimum: 0, maximum: 100 })),
  matchPercentage: Maybe(Type.Integer({ minimum: 0, maximum: 100 })),
});

/** §5.4's answer to either posting (the batch rail answers with the CIPS names too). */
export const PostingAnswer = Type.Object({
  cipsBatchResponse: Type.Object({
    responseCode: Maybe(Type.String()),
    responseMessage: Maybe(Type.String()),
    batchId: Type.String(),
    debitStatus: Nullable(Type.String({ maxLength: 10 })),
    id: Maybe(Type.Integer()),
  }),
  cipsTxnResponseList: Type.Array(
    Type.Object({
      responseCode: Maybe(Type.String()),
      responseMessage: Maybe(Type.String()),
      instructionId: Type.String(),
      creditStatus: Nullable(Type.String({ maxLength: 10 })),
      id: Maybe(Type.Integer()),
    }),
    { maxItems: 10_000 },
  ),
});

/** §5.5's batch record (the member's `batchId` is a string here). */
const ReportBatch = Type.Object({
  id: Maybe(Type.Integer()),
  batchId: Type.String(),
  batchAmount: Type.Optional(Amount),
  debitStatus: Nullable(Type.String({ maxLength: 10 })),
  debitReasonCode: Maybe(Type.String()),
  debitReasonDesc: Maybe(Type.String()),
  txnResponse: Maybe(Type.String()),
  ipsBatchId: Maybe(Type.String()),
  recDate: Maybe(Type.String()),
});
/** §5.5's transaction record (its `batchId` is NCHL's integer, not the member's). */
const ReportTransaction = Type.Object({
  id: Maybe(Type.Integer()),
  instructionId: Type.String(),
  amount: Amount,
  creditStatus: Nullable(Type.String({ maxLength: 10 })),
  reasonCode: Maybe(Type.String()),
  reasonDesc: Maybe(Type.String()),
  reversalStatus: Maybe(Type.String()),
  txnResponse: Maybe(Type.String()),
  ipsTxnId: Maybe(Type.String()),
  recDate: Maybe(Type.String()),
});
type ReportBatch = Static<typeof ReportBatch>;
type ReportTransaction = Static<typeof ReportTransaction>;

/** By instruction (documented, Cases I–VIII): the transaction with its batch inside. */
const ByInstructionAnswer = {
  cips: Type.Object({ ...ReportTransaction.properties, cipsBatchDetail: ReportBatch }),
  ips: Type.Object({ ...ReportTransaction.properties, nchlIpsBatchDetail: ReportBatch }),
};
/** By batch (NCHL prints none; the shape a production client reads): the batch with its transactions. */
const ByBatchAnswer = {
  cips: Type.Object({ ...ReportBatch.properties, cipsTransactionDetailList: Type.Array(ReportTransaction, { maxItems: 10_000 }) }),
  ips: Type.Object({ ...ReportBatch.properties, nchlIpsTransactionDetailList: Type.Array(ReportTransaction, { maxItems: 10_000 }) }),
};
/** By date (likewise): a list of batches, each with its transactions. */
const ByDateAnswer = {
  cips: Type.Array(Type.Object({ cipsBatchDetail: ReportBatch, cipsTransactionDetailList: Type.Array(ReportTransaction) })),
  ips: Type.Array(Type.Object({ nchlIpsBatchDetail: ReportBatch, nchlIpsTransactionDetailList: Type.Array(ReportTransaction) })),
};

// ---- Reading an answer ----------------------------------------------------------------------------

/** The answer's JSON (any value: the reports by date are lists), or why it is none: HTML, empty, garbage. */
export function jsonBody(answer: HttpAnswer, what: string): Read<unknown> {
  if (answer.text.trim() === '') return { ok: false, reason: `${what} answered ${answer.status} with an empty body` };
  if (!/^application\/json\b/i.test(answer.contentType)) return { ok: false, reason: `${what} answered ${answer.status} with ${answer.contentType || 'an untyped body'}, not JSON` };
  try {
    return { ok: true, body: JSON.parse(answer.text) as unknown };
  } catch {
    return { ok: false, reason: `${what} answered ${answer.status} with a body that is not valid JSON` };
  }
}

function readBody<S extends TSchema>(answer: HttpAnswer, schema: S, what: string): Read<Static<S>> {
  const json = jsonBody(answer, what);
  return json.ok ? readAs(schema, json.body, what) : json;
}

/** Paisa of an amount NPI wrote (`10`, `10.5`, `"200.25"`), or undefined. */
export function paisaOf(value: number | string): number | undefined {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(typeof value === 'number' ? String(value) : value);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value));
const clip = (text: string | null | undefined, length = 200) => (text ?? '').trim().slice(0, length);

// ---- Statuses -------------------------------------------------------------------------------------

/** §6's debit statuses (protocols/npi/codes.ts). Any other code is the debtor bank's own refusal (`907`, `114`, `-01` in NCHL's cases). */
export const debitStatuses = Object.keys(debitStatusNames) as readonly (keyof typeof debitStatusNames)[];
/** §6's credit statuses: the real-time rail's (000 … ENTR) and the batch rail's (ENTR, GEN, SENT, ACTC, ACSP, then ACSC or RJCT). */
export const creditStatuses = [...(Object.keys(cipsCreditStatuses) as (keyof typeof cipsCreditStatuses)[]), ...ipsPendingCreditStatuses, ...ipsFinalCreditStatuses] as const;
type DebitStatus = (typeof debitStatuses)[number];
type CreditStatus = (typeof creditStatuses)[number];
/** A core banking system's own code for a refused leg: digits, perhaps signed. */
const BANK_CODE = /^-?\d{1,4}$/;

export type NpiStatus = 'paid' | 'failed' | 'pending' | 'unknown';
export interface Meaning {
  status: NpiStatus;
  detail: string;
}

const leg = <N extends readonly string[]>(names: N, value: string | null): N[number] | 'bank refusal' | undefined => {
  const named = oneOf(names, value);
  return named ?? (typeof value === 'string' && BANK_CODE.test(value) ? 'bank refusal' : undefined);
};

/** What a debit status and a credit status, together, say of a transaction. */
export function meaningOf(debit: string | null, credit: string | null): Meaning {
  const debitStatus: DebitStatus | 'bank refusal' | undefined = leg(debitStatuses, debit);
  if (!debitStatus) return { status: 'unknown', detail: `NPI: a debit status it does not publish (${shown(debit)})` };
  switch (debitStatus) {
    case '000':
      return creditMeaning(credit);
    case 'ENTR':
      return { status: 'pending', detail: 'NPI: debit in progress (ENTR)' };
    case '999':
      // NCHL: confirm with the bank before posting again; only an operator can.
      return { status: 'unknown', detail: 'NPI: debit ISO time-out (999): confirm with the bank, never post again' };
    case '1001':
    case '1000':
    case 'bank refusal': {
      const failed = `NPI: debit refused (${debit})`;
      // A refused debit moved no money; NPI then marks the credit 1000 (not attempted).
      if (credit === null || credit === '' || credit === '1000') return { status: 'failed', detail: failed };
      return { status: 'unknown', detail: `${failed} yet credit ${shown(credit)}` };
    }
    default:
      return unmapped(debitStatus);
  }
}

function creditMeaning(credit: string | null): Meaning {
  // NCHL's general specification counts an empty credit as success, its remittance one as suspicious: an operator decides.
  if (credit === null || credit.trim() === '') return { status: 'unknown', detail: 'NPI: debited, credit status empty (suspicious: verify by hand)' };
  const creditStatus: CreditStatus | 'bank refusal' | undefined = leg(creditStatuses, credit);
  if (!creditStatus) return { status: 'unknown', detail: `NPI: a credit status it does not publish (${shown(credit)})` };
  switch (creditStatus) {
    case '000':
    case 'ACSC':
      return { status: 'paid', detail: `NPI: credited (${creditStatus})` };
    case 'DEFER':
      // "Treated as success", but the credit itself lands at the next consolidation (11:45, 14:45): paid on its 000.
      return { status: 'pending', detail: 'NPI: credit deferred to the next consolidation (DEFER)' };
    case '999':
      // "Considered success in settlement", yet the creditor bank may still turn it to failed: never failed here, never paid yet.
      return { status: 'pending', detail: 'NPI: credit ISO time-out (999), the creditor bank confirms later' };
    case 'ENTR':
    case 'GEN':
    case 'SENT':
    case 'ACTC':
    case 'ACSP':
      return { status: 'pending', detail: `NPI: credit in progress (${creditStatus})` };
    case 'RJCT':
    case '1001':
    case 'bank refusal':
      return { status: 'failed', detail: `NPI: credit refused (${credit}), the debit reversed` };
    case '1000':
      return { status: 'unknown', detail: 'NPI: debited, yet credit 1000 (not attempted for a refused debit)' };
    default:
      return unmapped(creditStatus);
  }
}

// ---- Outcomes -------------------------------------------------------------------------------------

/** NPI's names for a transaction: the member's ids, and NCHL's own where an answer gave them. */
export interface NpiReference {
  rail: NpiRail;
  batchId: string;
  instructionId: string;
  nchlBatchId?: number;
  nchlTransactionId?: number;
  ipsTxnId?: string;
}

export interface NpiTransactionOutcome extends Meaning {
  reference: NpiReference;
}

export interface ExpectedTransaction {
  instructionId: string;
  /** Paisa. */
  amount: number;
}

export interface ExpectedBatch {
  batchId: string;
  transactions: readonly ExpectedTransaction[];
}

/** What a posting came to. Only `answered` carries outcomes; `unknown` is for the reports to decide. */
export type NpiPosting =
  | { kind: 'answered'; transactions: NpiTransactionOutcome[] }
  /** NPI refused the request before posting anything (§6's technical codes but the duplicate's). */
  | { kind: 'refused'; code: string; message: string }
  /** Bhuktani sent nothing: the request would break NPI's rules, or no token could be had. */
  | { kind: 'not-sent'; reason: string }
  | { kind: 'unknown'; detail: string };

export type NpiReport = { kind: 'found'; transactions: NpiTransactionOutcome[] } | { kind: 'not-found'; detail: string } | { kind: 'unknown'; detail: string };

export interface NpiReportEntry extends NpiTransactionOutcome {
  /** Paisa. */
  amount: number;
  recDate?: string;
}
export type NpiDayReport = { kind: 'listed'; entries: NpiReportEntry[] } | { kind: 'unknown'; detail: string };

export type AccountCheck =
  | { kind: 'match'; branchId?: string }
  | { kind: 'partial'; score: number; message: string; branchId?: string }
  /** `score`: NPI's match of the name, when it refused for the name (999 at 80 or below, 523). */
  | { kind: 'refused'; code: string; message: string; score?: number }
  | { kind: 'unknown'; detail: string };

const everyUnknown = (rail: NpiRail, expected: ExpectedBatch, detail: string): NpiTransactionOutcome[] =>
  expected.transactions.map((t) => ({ status: 'unknown', detail, reference: { rail, batchId: expected.batchId, instructionId: t.instructionId } }));

/** §6's technical answer in a line, or undefined when the body is not one. */
function technical(answer: HttpAnswer): { code: string; message: string } | undefined {
  const read = readBody(answer, TechnicalAnswer, 'NPI');
  if (!read.ok) return undefined;
  const fields = (read.body.fieldErrors ?? []).map((e) => `${clip(e.field, 80)}: ${clip(e.message, 120)}`).join('; ');
  return { code: read.body.responseCode, message: clip([clip(read.body.responseDescription) || read.body.responseCode, fields].filter(Boolean).join(': '), 300) };
}

const DUPLICATE = ['99', '099'];

/** A non-200 answer's technical code, or what its body is, for the operators. */
function describe(answer: HttpAnswer): string {
  const refusal = technical(answer);
  if (refusal) return ` ${refusal.code}: ${refusal.message}`;
  const json = jsonBody(answer, 'it');
  return json.ok ? '' : ` (${json.reason.replace(/^it answered \d+ with /, '')})`;
}

/** The answer to a posting of `expected` on `rail` (after any 401 was renewed and retried). */
export function postingAnswer(rail: NpiRail, answer: HttpAnswer, expected: ExpectedBatch): NpiPosting {
  const what = `${npiPaths[rail].post.slice(5)}`;
  // A token refused even after its renewal: the resource server turned the call away unread.
  if (answer.status === 401) return { kind: 'refused', code: '401', message: 'NPI refused a freshly renewed access token' };
  if (answer.status !== 200) {
    const refusal = answer.status === 400 || answer.status === 403 ? technical(answer) : undefined;
    if (!refusal) return { kind: 'unknown', detail: `${what} answered ${answer.status}${describe(answer)}: ask the reports` };
    // The duplicate says nothing of the first posting's fate: only the reports can.
    if (DUPLICATE.includes(refusal.code)) return { kind: 'unknown', detail: `NPI already holds batch ${expected.batchId} (duplicate, ${refusal.code}): ask the reports` };
    return { kind: 'refused', code: refusal.code, message: refusal.message };
  }
  const json = jsonBody(answer, what);
  if (!json.ok) return { kind: 'unknown', detail: `${json.reason}: ask the reports` };
  const read = readAs(PostingAnswer, json.body, what);
  if (!read.ok) {
    const late = readAs(TechnicalAnswer, json.body, what);
    // E021: NPI's own time-out, after which the batch may or may not have been posted.
    return { kind: 'unknown', detail: `${late.ok ? `NPI answered ${late.body.responseCode}${late.body.responseDescription ? ` (${clip(late.body.responseDescription, 80)})` : ''}` : read.reason}: ask the reports` };
  }
  const { cipsBatchResponse: batch, cipsTxnResponseList: list } = read.body;
  // NCHL's own sample echoes " KHA-198706" with a space: the same batch.
  if (batch.batchId.trim() !== expected.batchId) return { kind: 'unknown', detail: `${what} answered for another batch (${shown(batch.batchId)}): ask the reports` };
  const strangers = list.filter((t) => !expected.transactions.some((e) => e.instructionId === t.instructionId.trim()));
  if (strangers.length > 0) return { kind: 'unknown', detail: `${what} answered for an instruction not in batch ${expected.batchId} (${shown(strangers[0].instructionId)}): ask the reports` };
  return {
    kind: 'answered',
    transactions: expected.transactions.map((e) => {
      const reference: NpiReference = { rail, batchId: expected.batchId, instructionId: e.instructionId, ...(batch.id != null ? { nchlBatchId: batch.id } : {}) };
      const answers = list.filter((t) => t.instructionId.trim() === e.instructionId);
      if (answers.length !== 1) return { status: 'unknown', detail: `${what} answered ${answers.length === 0 ? 'nothing' : 'twice'} for ${e.instructionId}: ask the reports`, reference };
      const [txn] = answers;
      return { ...meaningOf(batch.debitStatus, txn.creditStatus), reference: { ...reference, ...(txn.id != null ? { nchlTransactionId: txn.id } : {}) } };
    }),
  };
}

/** Whether a report's body says "nothing": NCHL documents no answer for an unknown id; `{}` and `[]` are taken as one. */
const isNothing = (body: unknown) => (Array.isArray(body) && body.length === 0) || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);

function transactionOutcome(rail: NpiRail, batchId: string, batch: ReportBatch, record: ReportTransaction, expected: ExpectedTransaction): NpiTransactionOutcome {
  const reference: NpiReference = {
    rail,
    batchId,
    instructionId: expected.instructionId,
    ...(batch.id != null ? { nchlBatchId: batch.id } : {}),
    ...(record.id != null ? { nchlTransactionId: record.id } : {}),
    ...(record.ipsTxnId ? { ipsTxnId: record.ipsTxnId } : {}),
  };
  const amount = paisaOf(record.amount);
  if (amount !== expected.amount) return { status: 'unknown', detail: `NPI's report shows ${shown(record.amount)} for ${expected.instructionId}, not ${expected.amount} paisa`, reference };
  const meaning = meaningOf(batch.debitStatus, record.creditStatus);
  const why = clip(record.reasonDesc, 100) || clip(record.txnResponse, 100) || clip(batch.debitReasonDesc, 100);
  return { ...meaning, detail: meaning.status === 'failed' && why ? `${meaning.detail}: ${why}` : meaning.detail, reference };
}

/** The report of one batch (`get…txnlistbybatchid`) for the transactions Bhuktani posted in it. */
export function byBatchAnswer(rail: NpiRail, answer: HttpAnswer, expected: ExpectedBatch): NpiReport {
  const what = npiPaths[rail].byBatch.slice(5);
  if (answer.status !== 200) return { kind: 'unknown', detail: `${what} answered ${answer.status}${describe(answer)}` };
  const json = jsonBody(answer, what);
  if (!json.ok) return { kind: 'unknown', detail: json.reason };
  if (isNothing(json.body)) return { kind: 'not-found', detail: `NPI has no batch ${expected.batchId}` };
  const read = readAs(ByBatchAnswer[rail], json.body, what);
  if (!read.ok) return { kind: 'unknown', detail: read.reason };
  const batch = read.body;
  if (batch.batchId.trim() !== expected.batchId) return { kind: 'unknown', detail: `${what} answered for another batch (${shown(batch.batchId)})` };
  const records: ReportTransaction[] = 'cipsTransactionDetailList' in batch ? batch.cipsTransactionDetailList : batch.nchlIpsTransactionDetailList;
  const total = expected.transactions.reduce((sum, t) => sum + t.amount, 0);
  if (batch.batchAmount !== undefined && paisaOf(batch.batchAmount) !== total) {
    return { kind: 'found', transactions: everyUnknown(rail, expected, `NPI's report shows batch ${expected.batchId} for ${shown(batch.batchAmount)}, not ${total} paisa`) };
  }
  const strangers = records.filter((r) => !expected.transactions.some((e) => e.instructionId === r.instructionId.trim()));
  if (strangers.length > 0) return { kind: 'found', transactions: everyUnknown(rail, expected, `NPI's report of batch ${expected.batchId} holds an instruction Bhuktani did not post (${shown(strangers[0].instructionId)})`) };
  return {
    kind: 'found',
    transactions: expected.transactions.map((e) => {
      const found = records.filter((r) => r.instructionId.trim() === e.instructionId);
      if (found.length !== 1) return { status: 'unknown', detail: `NPI's report of batch ${expected.batchId} shows ${found.length === 0 ? 'no' : 'two records for'} ${e.instructionId}`, reference: { rail, batchId: expected.batchId, instructionId: e.instructionId } };
      return transactionOutcome(rail, expected.batchId, batch, found[0], e);
    }),
  };
}

/** The report of one instruction (`get…byinstructionid`). */
export function byInstructionAnswer(rail: NpiRail, answer: HttpAnswer, expected: { batchId: string } & ExpectedTransaction): NpiReport {
  const what = npiPaths[rail].byInstruction.slice(5);
  if (answer.status !== 200) return { kind: 'unknown', detail: `${what} answered ${answer.status}${describe(answer)}` };
  const json = jsonBody(answer, what);
  if (!json.ok) return { kind: 'unknown', detail: json.reason };
  if (isNothing(json.body)) return { kind: 'not-found', detail: `NPI has no instruction ${expected.instructionId} in batch ${expected.batchId}` };
  const read = readAs(ByInstructionAnswer[rail], json.body, what);
  if (!read.ok) return { kind: 'unknown', detail: read.reason };
  const record = read.body;
  const batch = 'cipsBatchDetail' in record ? record.cipsBatchDetail : record.nchlIpsBatchDetail;
  if (batch.batchId.trim() !== expected.batchId || record.instructionId.trim() !== expected.instructionId) {
    return { kind: 'unknown', detail: `${what} answered for another transaction (${shown(batch.batchId)}, ${shown(record.instructionId)})` };
  }
  return { kind: 'found', transactions: [transactionOutcome(rail, expected.batchId, batch, record, expected)] };
}

/** The report of a range of days (`get…txnlistbydate`): every transaction, as NPI's books show it. */
export function byDateAnswer(rail: NpiRail, answer: HttpAnswer): NpiDayReport {
  const what = npiPaths[rail].byDate.slice(5);
  if (answer.status !== 200) return { kind: 'unknown', detail: `${what} answered ${answer.status}${describe(answer)}` };
  const read = readBody(answer, ByDateAnswer[rail], what);
  if (!read.ok) return { kind: 'unknown', detail: read.reason };
  const entries: NpiReportEntry[] = [];
  for (const item of read.body) {
    const batch = 'cipsBatchDetail' in item ? item.cipsBatchDetail : item.nchlIpsBatchDetail;
    const records: ReportTransaction[] = 'cipsTransactionDetailList' in item ? item.cipsTransactionDetailList : item.nchlIpsTransactionDetailList;
    for (const record of records) {
      const amount = paisaOf(record.amount);
      if (amount === undefined) return { kind: 'unknown', detail: `${what}: an amount that is none (${shown(record.amount)})` };
      const outcome = transactionOutcome(rail, batch.batchId.trim(), batch, record, { instructionId: record.instructionId.trim(), amount });
      entries.push({ ...outcome, amount, ...(record.recDate ? { recDate: record.recDate } : {}) });
    }
  }
  return { kind: 'listed', entries };
}

/** `accountId` as NPI echoes it, perhaps masked (`08********4512`), is `sent`. */
const sameAccount = (echoed: string, sent: string) => echoed === sent || (echoed.length === sent.length && [...echoed].every((c, i) => c === '*' || c === sent[i]));

/** §5.3's answer: NCHL's rule, 000 proceed; 999 proceed only above 80; anything else stop. */
export function validationAnswer(answer: HttpAnswer, sent: ValidateBankAccount): AccountCheck {
  if (answer.status !== 200) {
    const refusal = technical(answer);
    if (refusal && answer.status === 400 && ['E004', 'E007'].includes(refusal.code)) return { kind: 'refused', code: refusal.code, message: refusal.message };
    return { kind: 'unknown', detail: `validatebankaccount answered ${answer.status}${describe(answer)}` };
  }
  const read = readBody(answer, ValidationAnswer, 'validatebankaccount');
  if (!read.ok) return { kind: 'unknown', detail: read.reason };
  const body = read.body;
  if (body.bankId !== sent.bankId || !sameAccount(body.accountId, sent.accountId)) return { kind: 'unknown', detail: `validatebankaccount answered for another account (${shown(body.bankId)}, ${shown(body.accountId)})` };
  const message = clip(body.responseMessage, 300);
  const branch = body.branchId ? { branchId: body.branchId } : {};
  if (body.responseCode === '000') return { kind: 'match', ...branch };
  if (body.responseCode === '999') {
    const score = body.matchPercentate ?? body.matchPercentage;
    if (score == null) return { kind: 'unknown', detail: 'validatebankaccount answered 999 without a match percentage' };
    const floor = accountValidation.partial.proceedAbove;
    return score > floor ? { kind: 'partial', score, message, ...branch } : { kind: 'refused', code: '999', message: `${message || 'name differs'} (match ${score}, NCHL proceeds only above ${floor})`, score };
  }
  const score = body.matchPercentate ?? body.matchPercentage;
  const named = body.responseCode === accountValidation.mismatch.responseCode && score != null ? { score } : {};
  return { kind: 'refused', code: clip(body.responseCode, 10), message: message || 'NPI refused the account', ...named };
}
