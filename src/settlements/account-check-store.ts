// The SQL of account checks: what NPI's validation said of a settlement account, per environment, and
// an operator's approval of a name that differs.
import type { Queryable } from '../db/db.js';
import { qualified } from '../db/statement.js';
import type { Environment } from '../environment.js';

export type AccountOutcome = 'match' | 'partial' | 'refused' | 'unknown';

/** An account as NPI is asked about it: the bank's code, the number and the name the merchant gave. */
export interface AccountKey {
  merchantId: number;
  environment: Environment;
  bankCode: string;
  accountNumber: string;
  accountName: string;
}

export interface AccountCheckRow {
  id: number;
  merchant_id: number;
  environment: Environment;
  bank_code: string;
  account_number: string;
  account_name: string;
  outcome: AccountOutcome;
  score: number | null;
  message: string;
  branch_code: string | null;
  checked_at: Date;
  approved_by: string | null;
  approved_at: Date | null;
}

const COLUMNS = 'id, merchant_id, environment, bank_code, account_number, account_name, outcome, score, message, branch_code, checked_at, approved_by, approved_at';
/** An account as one string, to find its check among many. */
export const checkKey = (key: Pick<AccountKey, 'merchantId' | 'bankCode' | 'accountNumber' | 'accountName'>) => `${key.merchantId}|${key.bankCode}|${key.accountNumber}|${key.accountName}`;

const keyParams = (key: AccountKey) => [key.merchantId, key.environment, key.bankCode, key.accountNumber, key.accountName];

export async function findAccountCheck(db: Queryable, key: AccountKey): Promise<AccountCheckRow | undefined> {
  const [row] = await db.query<AccountCheckRow>(
    `SELECT ${COLUMNS} FROM account_checks WHERE merchant_id = $1 AND environment = $2 AND bank_code = $3 AND account_number = $4 AND account_name = $5`,
    keyParams(key),
  );
  return row;
}

/** Records NPI's word on the account; an answer replaces only no answer (a verdict, and an approval, stay). */
export async function saveAccountCheck(
  db: Queryable,
  key: AccountKey,
  check: { outcome: AccountOutcome; score: number | null; message: string; branchCode: string | null },
  now: Date,
): Promise<AccountCheckRow> {
  const [row] = await db.query<AccountCheckRow>(
    `INSERT INTO account_checks (merchant_id, environment, bank_code, account_number, account_name, outcome, score, message, branch_code, checked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (merchant_id, environment, bank_code, account_number, account_name) DO UPDATE
        SET outcome = EXCLUDED.outcome, score = EXCLUDED.score, message = EXCLUDED.message, branch_code = EXCLUDED.branch_code, checked_at = EXCLUDED.checked_at
      WHERE account_checks.outcome = 'unknown'
     RETURNING ${COLUMNS}`,
    [...keyParams(key), check.outcome, check.score, check.message, check.branchCode, now],
  );
  return row ?? (await findAccountCheck(db, key))!;
}

/** An operator's approval of a partial match or another name; null when it is not one waiting. */
export async function approveAccountCheck(db: Queryable, id: number, by: string, now: Date): Promise<AccountCheckRow | null> {
  const [row] = await db.query<AccountCheckRow>(
    `UPDATE account_checks SET approved_by = $2, approved_at = $3 WHERE id = $1 AND outcome = 'partial' AND approved_by IS NULL RETURNING ${COLUMNS}`,
    [id, by, now],
  );
  return row ?? null;
}

/** Accounts waiting for an operator, oldest first, with the merchant's name, in one environment. */
export async function listWaitingAccountChecks(db: Queryable, environment: Environment): Promise<(AccountCheckRow & { merchant_name: string })[]> {
  return db.query(
    `SELECT ${qualified('c', COLUMNS)}, m.name AS merchant_name
       FROM account_checks c JOIN merchants m ON m.id = c.merchant_id
      WHERE c.environment = $1 AND c.outcome = 'partial' AND c.approved_by IS NULL ORDER BY c.checked_at, c.id`,
    [environment],
  );
}

/** The account checks of these merchants in `environment`, by `checkKey`. */
export async function checksOfMerchants(db: Queryable, environment: Environment, merchantIds: number[]): Promise<Map<string, AccountCheckRow>> {
  if (merchantIds.length === 0) return new Map();
  const rows = await db.query<AccountCheckRow>(`SELECT ${COLUMNS} FROM account_checks WHERE environment = $1 AND merchant_id = ANY($2::bigint[])`, [environment, merchantIds]);
  return new Map(rows.map((r) => [checkKey({ merchantId: r.merchant_id, bankCode: r.bank_code, accountNumber: r.account_number, accountName: r.account_name }), r]));
}
