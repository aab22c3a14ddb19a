// The SQL of payment links: the links, their totals, and the payments started from them. Counting a
// payment on its link is done by the statement that completes it (payments/completion-store.ts).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { PaymentStatus } from '../payments/payment-status.js';
import type { PaymentLink } from './payment-link.js';

export const LINK_COLUMNS = `id, idx, code, merchant_id, environment, name, description, amount, min_amount, max_amount,
  expires_at, max_payments, payments_taken, ask, active, created_by, created_at, updated_at`;

/** Whose links: a merchant in one environment. */
export interface Owner {
  merchantId: number;
  environment: Environment;
}

export type NewPaymentLink = Omit<PaymentLink, 'id' | 'payments_taken' | 'active' | 'updated_at'>;

/** Stores a new link; undefined when its idx or code is taken already (the caller draws another). */
export async function insertPaymentLink(db: Queryable, link: NewPaymentLink): Promise<PaymentLink | undefined> {
  const [row] = await db.query<PaymentLink>(
    `INSERT INTO payment_links (idx, code, merchant_id, environment, name, description, amount, min_amount, max_amount,
       expires_at, max_payments, ask, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     ON CONFLICT DO NOTHING
     RETURNING ${LINK_COLUMNS}`,
    [
      link.idx,
      link.code,
      link.merchant_id,
      link.environment,
      link.name,
      link.description,
      link.amount,
      link.min_amount,
      link.max_amount,
      link.expires_at,
      link.max_payments,
      link.ask,
      link.created_by,
      link.created_at,
    ],
  );
  return row;
}

/** A link of this merchant and environment; another's is not found. */
export async function findOwnLink(db: Queryable, owner: Owner, idx: string): Promise<PaymentLink | undefined> {
  const [row] = await db.query<PaymentLink>(`SELECT ${LINK_COLUMNS} FROM payment_links WHERE idx = $1 AND merchant_id = $2 AND environment = $3`, [
    idx,
    owner.merchantId,
    owner.environment,
  ]);
  return row;
}

/** A link by its idx (a payment names its link so). */
export async function findLinkByIdx(db: Queryable, idx: string): Promise<PaymentLink | undefined> {
  const [row] = await db.query<PaymentLink>(`SELECT ${LINK_COLUMNS} FROM payment_links WHERE idx = $1`, [idx]);
  return row;
}

/** The link a public address names. */
export async function findLinkByCode(db: Queryable, code: string): Promise<PaymentLink | undefined> {
  const [row] = await db.query<PaymentLink>(`SELECT ${LINK_COLUMNS} FROM payment_links WHERE code = $1`, [code]);
  return row;
}

/** A page of the owner's links, newest first. */
export async function listLinks(db: Queryable, owner: Owner, page: { limit: number; offset: number }): Promise<{ total: number; links: PaymentLink[] }> {
  const [{ total }] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM payment_links WHERE merchant_id = $1 AND environment = $2', [
    owner.merchantId,
    owner.environment,
  ]);
  const links = await db.query<PaymentLink>(
    `SELECT ${LINK_COLUMNS} FROM payment_links WHERE merchant_id = $1 AND environment = $2 ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [owner.merchantId, owner.environment, page.limit, page.offset],
  );
  return { total, links };
}

/** Turns the owner's link on or off; the link as it is now, or undefined when it is not the owner's. */
export async function setLinkActive(db: Queryable, owner: Owner, idx: string, active: boolean, now: Date): Promise<PaymentLink | undefined> {
  const [row] = await db.query<PaymentLink>(
    `UPDATE payment_links SET active = $4, updated_at = CASE WHEN active = $4 THEN updated_at ELSE $5 END
      WHERE idx = $1 AND merchant_id = $2 AND environment = $3
      RETURNING ${LINK_COLUMNS}`,
    [idx, owner.merchantId, owner.environment, active, now],
  );
  return row;
}

/** What a link has collected: its paid payments (Completed, or refunded since), their amount and what was refunded of it. */
export interface LinkTotals {
  payments_count: number;
  payments_total: number;
  refunded_total: number;
}

const PAID = `('Completed', 'Partially refunded', 'Refunded')`;

/** The totals of each of `idxs` (index payments_payment_link); a link without payments has zeros. */
export async function linkTotals(db: Queryable, idxs: string[]): Promise<Map<string, LinkTotals>> {
  const rows = await db.query<LinkTotals & { payment_link: string }>(
    `SELECT payment_link, count(*)::int AS payments_count, coalesce(sum(amount), 0) AS payments_total, coalesce(sum(refunded_amount), 0) AS refunded_total
       FROM payments WHERE payment_link = ANY($1::text[]) AND status IN ${PAID} GROUP BY payment_link`,
    [idxs],
  );
  const totals = new Map(rows.map(({ payment_link, ...t }) => [payment_link, t]));
  return new Map(idxs.map((idx) => [idx, totals.get(idx) ?? { payments_count: 0, payments_total: 0, refunded_total: 0 }]));
}

export interface LinkPayment {
  pidx: string;
  status: PaymentStatus;
  amount: number;
  refunded_amount: number;
  transaction_id: string | null;
  payer_mobile: string | null;
  customer_info: { name?: string; email?: string; phone?: string } | null;
  created_at: Date;
  expires_at: Date;
}

/** The newest payments started from a link (every status: the dashboard shows what became of each). */
export async function listLinkPayments(db: Queryable, idx: string, limit: number): Promise<LinkPayment[]> {
  return db.query<LinkPayment>(
    `SELECT pidx, status, amount, refunded_amount, transaction_id, payer_mobile, customer_info, created_at, expires_at
       FROM payments WHERE payment_link = $1 ORDER BY created_at DESC LIMIT $2`,
    [idx, limit],
  );
}

/** The names of the owner's links among `idxs`, for pages that list payments with their link. */
export async function linkNames(db: Queryable, owner: Owner, idxs: string[]): Promise<Map<string, string>> {
  if (idxs.length === 0) return new Map();
  const rows = await db.query<{ idx: string; name: string }>('SELECT idx, name FROM payment_links WHERE idx = ANY($1::text[]) AND merchant_id = $2 AND environment = $3', [
    idxs,
    owner.merchantId,
    owner.environment,
  ]);
  return new Map(rows.map((r) => [r.idx, r.name]));
}
