import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

export interface WebhookDelivery {
  id: number;
  event_id: string;
  merchant_id: number;
  environment: Environment;
  type: string;
  pidx: string | null;
  payload: Record<string, unknown>;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/**
 * A delivery's columns, named: a prepared statement pins its result columns, so `*` would break an
 * older instance's statements once a newer one's migration adds a column (a rolling upgrade).
 */
const DELIVERY_COLUMNS = `id, event_id, merchant_id, environment, type, pidx, payload, url, status, attempts, next_attempt_at, last_status, last_response,
            last_error, created_at, delivered_at`;

export async function setWebhookEndpoint(db: Queryable, merchantId: number, environment: Environment, url: string | null, now: Date): Promise<void> {
  if (url === null) {
    await db.query('DELETE FROM webhook_endpoints WHERE merchant_id = $1 AND environment = $2', [merchantId, environment]);
    return;
  }
  await db.query(
    `INSERT INTO webhook_endpoints (merchant_id, environment, url, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (merchant_id, environment) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
    [merchantId, environment, url, now],
  );
}

export async function findWebhookEndpoint(db: Queryable, merchantId: number, environment: Environment): Promise<string | undefined> {
  const rows = await db.query<{ url: string }>('SELECT url FROM webhook_endpoints WHERE merchant_id = $1 AND environment = $2', [merchantId, environment]);
  return rows[0]?.url;
}

/**
 * Takes up to `limit` due deliveries for `leaseSeconds`. Rows another instance holds are skipped
 * (SKIP LOCKED) and stay leased while it works, so no delivery is sent by two instances at once.
 */
export async function claimDueDeliveries(db: Queryable, now: Date, limit: number, leaseSeconds: number): Promise<WebhookDelivery[]> {
  return db.query<WebhookDelivery>(
    `UPDATE webhook_deliveries d SET locked_until = $1::timestamptz + make_interval(secs => $3), attempts = d.attempts + 1
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
         ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING ${DELIVERY_COLUMNS}`,
    [now, limit, leaseSeconds],
  );
}

export async function recordDeliveryResult(
  db: Queryable,
  id: number,
  result: { status: 'pending' | 'delivered' | 'failed'; httpStatus?: number; response?: string; error?: string; nextAttemptAt: Date; at: Date },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, last_status = $3, last_response = $4, last_error = $5, next_attempt_at = $6,
            locked_until = NULL, delivered_at = CASE WHEN $2 = 'delivered' THEN $7::timestamptz ELSE delivered_at END
      WHERE id = $1`,
    [id, result.status, result.httpStatus ?? null, result.response ?? null, result.error ?? null, result.nextAttemptAt, result.at],
  );
}

export async function listDeliveries(db: Queryable, merchantId: number, environment: Environment, limit = 50): Promise<WebhookDelivery[]> {
  return db.query<WebhookDelivery>(
    `SELECT ${DELIVERY_COLUMNS}
       FROM webhook_deliveries WHERE merchant_id = $1 AND environment = $2 ORDER BY id DESC LIMIT $3`,
    [merchantId, environment, limit],
  );
}

/** Queues a delivery again, now (the dashboard's "Resend"). Only the merchant's own. */
export async function resendDelivery(db: Queryable, merchantId: number, environment: Environment, id: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $4, locked_until = NULL
      WHERE id = $1 AND merchant_id = $2 AND environment = $3 AND (locked_until IS NULL OR locked_until <= $4) RETURNING id`,
    [id, merchantId, environment, now],
  );
  return rows.length === 1;
}
