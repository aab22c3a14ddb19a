// The SQL of operators (their recovery codes: recovery-code-store.ts).
import type { Queryable } from '../db/db.js';
import type { Operator, OperatorRole } from './operator.js';

interface OperatorRow {
  id: number;
  email: string;
  role: OperatorRole;
  created_at: Date;
  totp_enrolled_at: Date | null;
}

export interface OperatorSecrets extends Operator {
  passwordHash: string;
  totpSecretSealed: string;
  totpLastStep: number;
}

const COLUMNS = 'id, email, role, created_at, totp_enrolled_at';
const toOperator = (row: OperatorRow): Operator => ({ id: Number(row.id), email: row.email, role: row.role, createdAt: row.created_at, totpEnrolledAt: row.totp_enrolled_at });

export async function insertOperator(
  db: Queryable,
  row: { email: string; role: OperatorRole; passwordHash: string; totpSecretSealed: string; totpEnrolledAt: Date | null; now: Date },
): Promise<Operator> {
  const [inserted] = await db.query<OperatorRow>(
    `INSERT INTO operators (email, role, password_hash, totp_secret_sealed, totp_enrolled_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [row.email, row.role, row.passwordHash, row.totpSecretSealed, row.totpEnrolledAt, row.now],
  );
  return toOperator(inserted);
}

/** A current (not removed) operator. */
export async function findOperator(db: Queryable, id: number): Promise<Operator | undefined> {
  const [row] = await db.query<OperatorRow>(`SELECT ${COLUMNS} FROM operators WHERE id = $1 AND removed_at IS NULL`, [id]);
  return row && toOperator(row);
}

export async function findOperatorByEmail(db: Queryable, email: string): Promise<Operator | undefined> {
  const [row] = await db.query<OperatorRow>(`SELECT ${COLUMNS} FROM operators WHERE lower(email) = lower($1) AND removed_at IS NULL`, [email.trim()]);
  return row && toOperator(row);
}

/** With the hashes, for signing in only; `forUpdate` locks the row (a code's step is checked and moved in one transaction). */
export async function findOperatorSecrets(db: Queryable, where: { id: number } | { email: string }, forUpdate = false): Promise<OperatorSecrets | undefined> {
  const [clause, value] = 'id' in where ? ['id = $1', where.id] : ['lower(email) = lower($1)', where.email.trim()];
  const [row] = await db.query<OperatorRow & { password_hash: string; totp_secret_sealed: string; totp_last_step: string }>(
    `SELECT ${COLUMNS}, password_hash, totp_secret_sealed, totp_last_step FROM operators WHERE ${clause} AND removed_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`,
    [value],
  );
  return row && { ...toOperator(row), passwordHash: row.password_hash, totpSecretSealed: row.totp_secret_sealed, totpLastStep: Number(row.totp_last_step) };
}

export async function listOperators(db: Queryable): Promise<Operator[]> {
  return (await db.query<OperatorRow>(`SELECT ${COLUMNS} FROM operators WHERE removed_at IS NULL ORDER BY lower(email)`)).map(toOperator);
}

/** Moves the last accepted step forward; false when `step` is not after it (the code was used already). */
export async function acceptTotpStep(db: Queryable, id: number, step: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE operators SET totp_last_step = $2, totp_enrolled_at = coalesce(totp_enrolled_at, $3) WHERE id = $1 AND totp_last_step < $2 AND removed_at IS NULL RETURNING id',
    [id, step, now],
  );
  return rows.length === 1;
}

export async function updatePasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE operators SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
}

export async function updateRole(db: Queryable, id: number, role: OperatorRole): Promise<void> {
  await db.query('UPDATE operators SET role = $2 WHERE id = $1 AND removed_at IS NULL', [id, role]);
}

export async function markRemoved(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE operators SET removed_at = $2 WHERE id = $1 AND removed_at IS NULL', [id, now]);
}

/** Locks a current operator's row and returns their role (a role change or removal at once waits, or is waited for). */
export async function lockOperatorRole(db: Queryable, id: number): Promise<OperatorRole | undefined> {
  const [row] = await db.query<{ role: OperatorRole }>('SELECT role FROM operators WHERE id = $1 AND removed_at IS NULL FOR UPDATE', [id]);
  return row?.role;
}

/** Locks every current admin's row (the last-admin guard) and returns their ids. */
export async function lockAdmins(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>("SELECT id FROM operators WHERE role = 'admin' AND removed_at IS NULL ORDER BY id FOR UPDATE");
  return rows.map((r) => Number(r.id));
}
