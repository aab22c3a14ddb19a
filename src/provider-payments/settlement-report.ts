// A provider's settlement report (a CSV) matched against the ledger (`bhuktani provider reconcile`).
// Each provider's columns are named by its descriptor (its folder) and in docs/providers.md;
// headers are matched without regard to case, spaces or underscores, amounts are rupees (`1,234.50`).
// Every collected attempt (Paid or Surplus) must be in the report with its amount and, where the
// report has one, its fee; every row of the report must be such an attempt. Only attempts of the
// days the report covers are expected in it, when it has a date column.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { AppError } from '../http/errors.js';
import { parseRupees } from '../http/money.js';
import { localDay } from '../local-days.js';
import { descriptorOf, type ProviderName } from '../providers/registry.js';

/** RFC 4180: quoted fields, doubled quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

const normal = (header: string) => header.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[\s_]+/g, ' ');

export interface Difference {
  key: string;
  problem: 'not in the ledger' | 'not in the report' | 'amount differs' | 'fee differs' | 'not collected in the ledger' | 'bad row';
  report?: { amount?: number; fee?: number; line: number };
  ledger?: { attempt: string; pidx: string; state: string; amount: number; fee: number };
}

export interface Reconciliation {
  rows: number;
  matched: number;
  differences: Difference[];
}

interface LedgerAttempt {
  idx: string;
  pidx: string;
  state: string;
  amount: number;
  provider_fee: number;
  provider_transaction_id: string | null;
  created_at: Date;
}

export async function reconcileReport(
  ctx: AppContext,
  input: { actor: Actor; name: ProviderName; environment: Environment; fileName: string; csv: string },
): Promise<Reconciliation> {
  const columns = descriptorOf(input.name).settlementReport;
  const [header, ...lines] = parseCsv(input.csv);
  if (!header) throw new AppError('bad_request', { detail: 'The file is empty.' });
  const at = (names: string[]) => header.map(normal).findIndex((h) => names.map(normal).includes(h));
  const [keyAt, amountAt, feeAt, dateAt] = [at(columns.key), at(columns.amount), at(columns.fee), at(columns.date)];
  if (keyAt < 0 || amountAt < 0) throw new AppError('bad_request', { detail: `The report needs the columns ${columns.key[0]} and ${columns.amount[0]} (docs/providers.md); its header is: ${header.join(', ')}` });
  const attempts = await ctx.db.query<LedgerAttempt>(
    'SELECT idx, pidx, state, amount, provider_fee, provider_transaction_id, created_at FROM provider_attempts WHERE provider = $1 AND environment = $2',
    [input.name, input.environment],
  );
  const byKey = new Map(attempts.filter((a) => a[columns.keyField]).map((a) => [a[columns.keyField]!, a]));
  const differences: Difference[] = [];
  const seen = new Set<string>();
  const days = new Set<string>();
  let matched = 0;
  lines.forEach((cells, i) => {
    const line = i + 2;
    const key = (cells[keyAt] ?? '').trim();
    const amount = parseRupees(cells[amountAt] ?? '');
    const fee = feeAt >= 0 && (cells[feeAt] ?? '').trim() !== '' ? parseRupees(cells[feeAt]) : undefined;
    if (dateAt >= 0 && cells[dateAt]) days.add(cells[dateAt].trim().slice(0, 10));
    if (!key || amount === undefined) return differences.push({ key: key || `line ${line}`, problem: 'bad row', report: { line } });
    seen.add(key);
    const attempt = byKey.get(key);
    const ledger = attempt && { attempt: attempt.idx, pidx: attempt.pidx, state: attempt.state, amount: attempt.amount, fee: attempt.provider_fee };
    if (!attempt) return differences.push({ key, problem: 'not in the ledger', report: { amount, fee, line } });
    if (attempt.state !== 'Paid' && attempt.state !== 'Surplus') return differences.push({ key, problem: 'not collected in the ledger', report: { amount, fee, line }, ledger });
    if (attempt.amount !== amount) return differences.push({ key, problem: 'amount differs', report: { amount, fee, line }, ledger });
    if (fee !== undefined && fee !== attempt.provider_fee) return differences.push({ key, problem: 'fee differs', report: { amount, fee, line }, ledger });
    matched++;
  });
  const covered = (a: LedgerAttempt) => days.size === 0 || days.has(localDay(a.created_at, ctx.config.timeZone));
  for (const a of attempts) {
    const key = a[columns.keyField];
    if ((a.state === 'Paid' || a.state === 'Surplus') && key && !seen.has(key) && covered(a)) {
      differences.push({ key, problem: 'not in the report', ledger: { attempt: a.idx, pidx: a.pidx, state: a.state, amount: a.amount, fee: a.provider_fee } });
    }
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO provider_reconciliations (name, environment, file_name, rows, matched, differences, actor_label, reconciled_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id',
      [input.name, input.environment, input.fileName.slice(0, 200), lines.length, matched, JSON.stringify(differences.slice(0, 1000)), input.actor.label, now],
    );
    await appendAudit(tx, { now, actor: input.actor, action: 'provider.reconcile', object: { type: 'provider', id: `${input.name}:${input.environment}` }, environment: input.environment, after: { reconciliation: row.id, rows: lines.length, matched, differences: differences.length } });
  });
  return { rows: lines.length, matched, differences };
}

export interface ReconciliationRun {
  name: ProviderName;
  environment: Environment;
  file_name: string;
  rows: number;
  matched: number;
  differences: Difference[];
  actor_label: string;
  reconciled_at: Date;
}

/** The newest run per provider and environment, for the console. */
export async function lastReconciliations(db: AppContext['db']): Promise<ReconciliationRun[]> {
  return db.query<ReconciliationRun>(
    `SELECT DISTINCT ON (name, environment) name, environment, file_name, rows, matched, differences, actor_label, reconciled_at
       FROM provider_reconciliations ORDER BY name, environment, id DESC`,
  );
}
