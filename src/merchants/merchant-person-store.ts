// The SQL of the people who log in to the dashboard: their e-mail, password, two-factor. Password
// hashes and sealed TOTP secrets leave this file only where a use case needs them to check a log-in.
import type { Queryable } from '../db/db.js';
import type { MerchantPerson } from './merchant-user.js';

export const PERSON_COLUMNS = 'p.id, p.email, p.email_verified_at, p.totp_enrolled_at';
const normal = (person: MerchantPerson): MerchantPerson => ({ ...person, id: Number(person.id) });

/** A new person; fails on the unique index merchant_people_email when the e-mail has one already. */
export async function insertMerchantPerson(db: Queryable, row: { email: string; passwordHash: string; emailVerifiedAt: Date | null; now: Date }): Promise<MerchantPerson> {
  const [person] = await db.query<MerchantPerson>(
    `INSERT INTO merchant_people AS p (email, password_hash, email_verified_at, created_at) VALUES ($1, $2, $3, $4) RETURNING ${PERSON_COLUMNS}`,
    [row.email, row.passwordHash, row.emailVerifiedAt, row.now],
  );
  return normal(person);
}

/** The person with this e-mail, whatever its case. */
export async function findPersonByEmail(db: Queryable, email: string): Promise<MerchantPerson | undefined> {
  const [person] = await db.query<MerchantPerson>(`SELECT ${PERSON_COLUMNS} FROM merchant_people p WHERE lower(p.email) = lower($1)`, [email.trim()]);
  return person && normal(person);
}

/** The person with this e-mail and their password hash, for checking a log-in. */
export async function findPersonForLogIn(db: Queryable, email: string): Promise<{ person: MerchantPerson; passwordHash: string } | undefined> {
  const [row] = await db.query<MerchantPerson & { password_hash: string }>(`SELECT ${PERSON_COLUMNS}, p.password_hash FROM merchant_people p WHERE lower(p.email) = lower($1)`, [email]);
  if (!row) return undefined;
  const { password_hash, ...person } = row;
  return { person: normal(person), passwordHash: password_hash };
}

export interface PersonSecrets {
  id: number;
  email: string;
  passwordHash: string;
  /** The sealed TOTP secret: of the app set up (totp_enrolled_at set) or being set up (null). */
  totpSecretSealed: string | null;
  totpEnrolledAt: Date | null;
}

/** A person's hashes, for checking a code or a password; `forUpdate` locks the row. */
export async function findPersonSecrets(db: Queryable, id: number, forUpdate = false): Promise<PersonSecrets | undefined> {
  const [row] = await db.query<{ id: number; email: string; password_hash: string; totp_secret_sealed: string | null; totp_enrolled_at: Date | null }>(
    `SELECT id, email, password_hash, totp_secret_sealed, totp_enrolled_at FROM merchant_people WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row && { id: Number(row.id), email: row.email, passwordHash: row.password_hash, totpSecretSealed: row.totp_secret_sealed, totpEnrolledAt: row.totp_enrolled_at };
}

/** Moves the last accepted step forward and marks the enrolment done; false when `step` is not after it. */
export async function acceptPersonTotpStep(db: Queryable, id: number, step: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE merchant_people SET totp_last_step = $2, totp_enrolled_at = coalesce(totp_enrolled_at, $3)
      WHERE id = $1 AND totp_last_step < $2 AND totp_secret_sealed IS NOT NULL RETURNING id`,
    [id, step, now],
  );
  return rows.length === 1;
}

/** A new secret being set up (not yet enrolled); refused (false) once the person is enrolled. */
export async function setPendingTotpSecret(db: Queryable, id: number, sealed: string): Promise<boolean> {
  const rows = await db.query('UPDATE merchant_people SET totp_secret_sealed = $2, totp_last_step = 0 WHERE id = $1 AND totp_enrolled_at IS NULL RETURNING id', [id, sealed]);
  return rows.length === 1;
}

export async function clearTotp(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE merchant_people SET totp_secret_sealed = NULL, totp_enrolled_at = NULL WHERE id = $1', [id]);
}

export async function updatePasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE merchant_people SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
}

/** Marks the e-mail verified now, unless it was already; false then. */
export async function markEmailVerified(db: Queryable, id: number, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE merchant_people SET email_verified_at = $2 WHERE id = $1 AND email_verified_at IS NULL RETURNING id', [id, now]);
  return rows.length === 1;
}
