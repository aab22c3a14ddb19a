// The SQL of invitations by e-mail: the operators' (operator_invitations) and each merchant's team's
// (merchant_invitations), the same columns and the same single-use rules. A merchant's book only
// ever reads and writes that merchant's rows; the links of all merchants' (no merchantId) are for
// the invitee, whose link's token names the row. Found by the SHA-256 of the link's token.
import type { Queryable } from '../db/db.js';

/** Whose invitations: the operators', or one merchant's team's. */
export type InvitationBook = { table: 'operator_invitations' } | { table: 'merchant_invitations'; merchantId?: number };

export const OPERATOR_INVITATIONS: InvitationBook = { table: 'operator_invitations' };
export const merchantInvitations = (merchantId: number): InvitationBook => ({ table: 'merchant_invitations', merchantId });
/** Every merchant's invitations, for following a link (the token is the capability). */
export const MERCHANT_INVITATION_LINKS: InvitationBook = { table: 'merchant_invitations' };

export interface InvitationRow<Role extends string = string> {
  id: number;
  email: string;
  role: Role;
  invited_by: number | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  /** A merchant team's invitation: whose team. */
  merchant_id?: number;
}

const COLUMNS = 'id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';
const OPEN = 'accepted_at IS NULL AND revoked_at IS NULL';
const columns = (book: InvitationBook) => (book.table === 'merchant_invitations' ? `${COLUMNS}, merchant_id` : COLUMNS);
const normal = <Role extends string>(row: InvitationRow<Role>): InvitationRow<Role> => ({
  ...row,
  id: Number(row.id),
  invited_by: row.invited_by === null ? null : Number(row.invited_by),
  ...(row.merchant_id === undefined ? {} : { merchant_id: Number(row.merchant_id) }),
});

/** The book's own rows: ` AND merchant_id = $n` for one merchant's, with `params` extended. */
function scoped(book: InvitationBook, params: unknown[]): string {
  if (book.table === 'operator_invitations' || book.merchantId === undefined) return '';
  params.push(book.merchantId);
  return ` AND merchant_id = $${params.length}`;
}

export async function insertInvitation<Role extends string>(
  db: Queryable,
  book: InvitationBook,
  row: { email: string; role: Role; tokenHash: string; invitedBy: number | null; now: Date; expiresAt: Date },
): Promise<InvitationRow<Role>> {
  const params: unknown[] = [row.email, row.role, row.tokenHash, row.invitedBy, row.now, row.expiresAt];
  if (book.table === 'merchant_invitations' && book.merchantId === undefined) throw new Error('an invitation is for one merchant');
  const merchant = book.table === 'merchant_invitations' ? { column: ', merchant_id', value: `, $${params.push(book.merchantId)}` } : { column: '', value: '' };
  const [inserted] = await db.query<InvitationRow<Role>>(
    `INSERT INTO ${book.table} (email, role, token_hash, invited_by, created_at, expires_at${merchant.column}) VALUES ($1, $2, $3, $4, $5, $6${merchant.value}) RETURNING ${columns(book)}`,
    params,
  );
  return normal(inserted);
}

/** Invitations neither accepted nor revoked (expired ones too: the page offers to resend them). */
export async function listOpenInvitations<Role extends string>(db: Queryable, book: InvitationBook): Promise<InvitationRow<Role>[]> {
  const params: unknown[] = [];
  return (await db.query<InvitationRow<Role>>(`SELECT ${columns(book)} FROM ${book.table} WHERE ${OPEN}${scoped(book, params)} ORDER BY id DESC`, params)).map(normal);
}

/** The open invitation of this book for this e-mail (any case), if any. */
export async function findOpenInvitationFor<Role extends string>(db: Queryable, book: InvitationBook, email: string): Promise<InvitationRow<Role> | undefined> {
  const params: unknown[] = [email];
  const [row] = await db.query<InvitationRow<Role>>(`SELECT ${columns(book)} FROM ${book.table} WHERE lower(email) = lower($1) AND ${OPEN}${scoped(book, params)}`, params);
  return row && normal(row);
}

/** The invitation a link names, if it can still be accepted at `now`. */
export async function findUsableInvitation<Role extends string>(db: Queryable, book: InvitationBook, tokenHash: string, now: Date): Promise<InvitationRow<Role> | undefined> {
  const params: unknown[] = [tokenHash, now];
  const [row] = await db.query<InvitationRow<Role>>(`SELECT ${columns(book)} FROM ${book.table} WHERE token_hash = $1 AND ${OPEN} AND expires_at > $2${scoped(book, params)}`, params);
  return row && normal(row);
}

/** Marks it accepted if it still can be: exactly one caller wins. */
export async function markAccepted<Role extends string>(db: Queryable, book: InvitationBook, tokenHash: string, now: Date): Promise<InvitationRow<Role> | undefined> {
  const params: unknown[] = [tokenHash, now];
  const [row] = await db.query<InvitationRow<Role>>(
    `UPDATE ${book.table} SET accepted_at = $2 WHERE token_hash = $1 AND ${OPEN} AND expires_at > $2${scoped(book, params)} RETURNING ${columns(book)}`,
    params,
  );
  return row && normal(row);
}

/** A new link for an open invitation (the old one stops working), valid from now, sent by `invitedBy` now (the e-mail names them). */
export async function reissueInvitation<Role extends string>(
  db: Queryable,
  book: InvitationBook,
  id: number,
  link: { tokenHash: string; invitedBy: number; now: Date; expiresAt: Date },
): Promise<InvitationRow<Role> | undefined> {
  const params: unknown[] = [id, link.tokenHash, link.now, link.expiresAt, link.invitedBy];
  const [row] = await db.query<InvitationRow<Role>>(
    `UPDATE ${book.table} SET token_hash = $2, created_at = $3, expires_at = $4, invited_by = $5 WHERE id = $1 AND ${OPEN}${scoped(book, params)} RETURNING ${columns(book)}`,
    params,
  );
  return row && normal(row);
}

export async function markRevoked<Role extends string>(db: Queryable, book: InvitationBook, id: number, now: Date): Promise<InvitationRow<Role> | undefined> {
  const params: unknown[] = [id, now];
  const [row] = await db.query<InvitationRow<Role>>(`UPDATE ${book.table} SET revoked_at = $2 WHERE id = $1 AND ${OPEN}${scoped(book, params)} RETURNING ${columns(book)}`, params);
  return row && normal(row);
}

/** Revokes every open invitation of the book that `invitedBy` sent (expired ones too): the rows revoked. */
export async function revokeInvitationsSentBy<Role extends string>(db: Queryable, book: InvitationBook, invitedBy: number, now: Date): Promise<InvitationRow<Role>[]> {
  const params: unknown[] = [invitedBy, now];
  const rows = await db.query<InvitationRow<Role>>(
    `UPDATE ${book.table} SET revoked_at = $2 WHERE invited_by = $1 AND ${OPEN}${scoped(book, params)} RETURNING ${columns(book)}`,
    params,
  );
  return rows.map(normal).sort((a, b) => a.id - b.id);
}
