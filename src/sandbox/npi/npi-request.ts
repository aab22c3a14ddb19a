// A posting's body read as NPI's technical validation reads it (NPI Specification §5.4.1 and
// §5.4.2): every field's presence and length, amounts as numbers or numeric strings with at most
// two decimals (NCHL's own samples send both), the count and the sum, the rail's size, limits and
// category purposes. What fails is E007's `fieldErrors`, by the field's path.
import { cipsLimits, ipsMaxTransactions, type FieldError } from '../../protocols/npi/codes.js';

export type Rail = 'cips' | 'ips';

/** The JSON names of a rail's batch and its list. */
export const railNames = {
  cips: { batch: 'cipsBatchDetail', list: 'cipsTransactionDetailList' },
  ips: { batch: 'nchlIpsBatchDetail', list: 'nchlIpsTransactionDetailList' },
} as const;

export interface PostedBatch {
  batchId: string;
  /** Paisa. */
  batchAmount: number;
  batchCount: number;
  batchCrncy: string;
  categoryPurpose: string;
  debtorAgent: string;
  debtorBranch: string;
  debtorName: string;
  debtorAccount: string;
  /** The optional fields, as posted. */
  details: Record<string, unknown>;
}

export interface PostedTransaction {
  instructionId: string;
  endToEndId: string;
  /** Paisa. */
  amount: number;
  creditorAgent: string;
  creditorBranch: string;
  creditorName: string;
  creditorAccount: string;
  details: Record<string, unknown>;
}

export interface Posting {
  rail: Rail;
  batch: PostedBatch;
  transactions: PostedTransaction[];
  token: string;
}

export interface PostingRules {
  /** The category purposes each rail takes. */
  categoryPurposes: Record<Rail, readonly string[]>;
}

const batchRequired = { batchId: 20, batchCrncy: 3, categoryPurpose: 4, debtorAgent: 4, debtorBranch: 4, debtorName: 140, debtorAccount: 20 } as const;
const batchOptional = { debtorIdType: 4, debtorIdValue: 20, debtorAddress: 490, debtorPhone: 20, debtorMobile: 20, debtorEmail: 50 } as const;
const transactionRequired = { instructionId: 30, endToEndId: 30, creditorAgent: 4, creditorBranch: 4, creditorName: 140, creditorAccount: 20 } as const;
// Where the two rails' tables differ, the larger length (research notes §6.2).
const transactionOptional = {
  purpose: 4,
  creditorIdType: 4,
  creditorIdValue: 20,
  creditorAddress: 490,
  creditorPhone: 20,
  creditorMobile: 20,
  creditorEmail: 50,
  addenda3: 35,
  addenda4: 35,
  freeCode1: 20,
  freeCode2: 20,
  freeText1: 100,
  freeText2: 100,
  remarks: 100,
} as const;

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined);

/** An NPI amount (BigDecimal with `digits` before the point, 2 after) in paisa, or undefined. */
export function paisaOf(value: unknown, digits: number): number | undefined {
  const text = textOf(value);
  const match = text === undefined ? null : new RegExp(`^(\\d{1,${digits}})(?:\\.(\\d{1,2}))?$`).exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function readFields<L extends Record<string, number>>(fields: Fields, required: L, optional: Record<string, number>, path: string, errors: FieldError[]): Record<keyof L, string> {
  const read = {} as Record<keyof L, string>;
  for (const [name, length] of Object.entries(required)) {
    const value = textOf(fields[name])?.trim();
    if (!value) errors.push({ field: `${path}.${name}`, message: `${name} is required.` });
    else if (value.length > length) errors.push({ field: `${path}.${name}`, message: `${name} must be at most ${length} characters.` });
    read[name as keyof L] = value ?? '';
  }
  for (const [name, length] of Object.entries(optional)) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    const text = textOf(value);
    if (text === undefined || text.length > length) errors.push({ field: `${path}.${name}`, message: `${name} must be text of at most ${length} characters.` });
  }
  return read;
}

const without = (fields: Fields, names: string[]) => Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));

/** The posting in `body` for `rail`, or the fields NPI's technical validation refuses. */
export function readPosting(rail: Rail, body: unknown, rules: PostingRules): { ok: true; posting: Posting } | { ok: false; fieldErrors: FieldError[] } {
  const names = railNames[rail];
  const errors: FieldError[] = [];
  const fields = isObject(body) ? body : {};
  const batchFields = isObject(fields[names.batch]) ? (fields[names.batch] as Fields) : undefined;
  const list = Array.isArray(fields[names.list]) ? (fields[names.list] as unknown[]) : undefined;
  if (!batchFields) errors.push({ field: names.batch, message: `${names.batch} is required.` });
  if (!list || list.length === 0) errors.push({ field: names.list, message: `${names.list} must hold at least one transaction.` });
  if (typeof fields.token !== 'string' || !fields.token) errors.push({ field: 'token', message: 'token is required.' });
  if (!batchFields || !list) return { ok: false, fieldErrors: errors };

  const b = readFields(batchFields, batchRequired, batchOptional, names.batch, errors);
  const batchAmount = paisaOf(batchFields.batchAmount, 12);
  if (batchAmount === undefined || batchAmount === 0) errors.push({ field: `${names.batch}.batchAmount`, message: 'batchAmount must be a positive amount with at most two decimals.' });
  const batchCount = Number(textOf(batchFields.batchCount));
  if (!Number.isSafeInteger(batchCount) || batchCount <= 0) errors.push({ field: `${names.batch}.batchCount`, message: 'batchCount must be a positive whole number.' });
  if (b.batchCrncy && b.batchCrncy !== 'NPR') errors.push({ field: `${names.batch}.batchCrncy`, message: 'Invalid batch currency.' });
  if (b.categoryPurpose && !rules.categoryPurposes[rail].includes(b.categoryPurpose)) errors.push({ field: `${names.batch}.categoryPurpose`, message: 'Invalid transaction category purpose.' });

  if (rail === 'cips' && list.length !== 1) errors.push({ field: names.list, message: 'A real-time batch holds exactly one transaction.' });
  if (rail === 'ips' && list.length > ipsMaxTransactions) errors.push({ field: names.list, message: `A batch holds at most ${ipsMaxTransactions} transactions.` });

  const transactions: PostedTransaction[] = list.map((item, i) => {
    const path = `${names.list}[${i}]`;
    const t = isObject(item) ? item : {};
    const read = readFields(t, transactionRequired, transactionOptional, path, errors);
    const amount = paisaOf(t.amount, 11);
    if (amount === undefined || amount === 0) errors.push({ field: `${path}.amount`, message: 'amount must be a positive amount with at most two decimals.' });
    const onUs = read.creditorAgent === b.debtorAgent;
    if (rail === 'ips' && onUs) errors.push({ field: `${path}.creditorAgent`, message: 'NCHL-IPS takes only transactions to another bank.' });
    if (rail === 'cips' && amount !== undefined && amount > (onUs ? cipsLimits.onUs : cipsLimits.offUs)) {
      errors.push({ field: `${path}.amount`, message: `amount exceeds the ${onUs ? 'On-Us' : 'Off-Us'} limit of a real-time transaction.` });
    }
    return { ...read, amount: amount ?? 0, details: without(t, [...Object.keys(transactionRequired), 'amount']) };
  });

  if (Number.isSafeInteger(batchCount) && batchCount !== list.length) errors.push({ field: `${names.batch}.batchCount`, message: 'batchCount does not match the number of transactions.' });
  const sum = transactions.reduce((total, t) => total + t.amount, 0);
  if (batchAmount !== undefined && batchAmount !== sum) errors.push({ field: `${names.batch}.batchAmount`, message: 'batchAmount does not match the sum of the transactions.' });
  const seen = new Set<string>();
  transactions.forEach((t, i) => {
    if (t.instructionId && seen.has(t.instructionId)) errors.push({ field: `${names.list}[${i}].instructionId`, message: 'instructionId is repeated in the batch.' });
    seen.add(t.instructionId);
  });

  if (errors.length) return { ok: false, fieldErrors: errors };
  const batch: PostedBatch = { ...b, batchAmount: batchAmount!, batchCount, details: without(batchFields, [...Object.keys(batchRequired), 'batchAmount', 'batchCount']) };
  return { ok: true, posting: { rail, batch, transactions, token: fields.token as string } };
}
