// The SQL of operator invitations. Found by the SHA-256 of the link's token.
import type { Queryable } from '../db/db.js';
import type { OperatorRole } from './operator.js';

export interface InvitationRow {
  id: number;
  email: string;
  role: OperatorRole;
  invited_by: number | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';
const normal = (row: InvitationRow): InvitationRow => ({ ...row, id: Number(row.id), invited_by: row.invited_by === null ? null : Number(row.invited_by) });

export async function insertInvitation(db: Queryable, row: { email: string; role: OperatorRole; tokenHash: string; invitedBy: number | null; now: Date; expiresAt: Date }): Promise<InvitationRow> {
  const [inserted] = await db.query<InvitationRow>(
    `INSERT INTO operator_invitations (email, role, token_hash, invited_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [row.email, row.role, row.tokenHash, row.invitedBy, row.now, row.expiresAt],
  );
  return normal(inserted);
}

/** Invitations neither accepted nor revoked (expired ones too: the page offers to resend them). */
export async function listOpenInvitations(db: Queryable): Promise<InvitationRow[]> {
  return (await db.query<InvitationRow>(`SELECT ${COLUMNS} FROM operator_invitations WHERE accepted_at IS NULL AND revoked_at IS NULL ORDER BY id DESC`)).map(normal);
}

export async function findOpenInvitation(db: Queryable, id: number): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(`SELECT ${COLUMNS} FROM operator_invitations WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL`, [id]);
  return row && normal(row);
}

/** The invitation a link names, if it can still be accepted at `now`. */
export async function findUsableInvitation(db: Queryable, tokenHash: string, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM operator_invitations WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
    [tokenHash, now],
  );
  return row && normal(row);
}

/** Marks it accepted if it still can be: exactly one caller wins. */
export async function markAccepted(db: Queryable, tokenHash: string, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(
    `UPDATE operator_invitations SET accepted_at = $2 WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2 RETURNING ${COLUMNS}`,
    [tokenHash, now],
  );
  return row && normal(row);
}

/** A new link for an open invitation (the old one stops working), valid from now. */
export async function reissueInvitation(db: Queryable, id: number, tokenHash: string, now: Date, expiresAt: Date): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(
    `UPDATE operator_invitations SET token_hash = $2, created_at = $3, expires_at = $4 WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [id, tokenHash, now, expiresAt],
  );
  return row && normal(row);
}

export async function markRevoked(db: Queryable, id: number, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(`UPDATE operator_invitations SET revoked_at = $2 WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING ${COLUMNS}`, [id, now]);
  return row && normal(row);
}
