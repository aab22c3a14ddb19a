// The current status of several payments of one merchant and environment at once (for a list page).
import type { Queryable } from '../db/db.js';
import { effectiveStatus } from './payment.js';
import type { PaymentStatus } from './payment-status.js';
import type { Environment } from '../environment.js';

export async function findPaymentStatuses(
  db: Queryable,
  options: { merchantId: number; environment: Environment; pidxs: string[]; now: Date },
): Promise<Map<string, PaymentStatus>> {
  if (options.pidxs.length === 0) return new Map();
  const rows = await db.query<{ pidx: string; status: PaymentStatus; expires_at: Date }>(
    'SELECT pidx, status, expires_at FROM payments WHERE merchant_id = $1 AND environment = $2 AND pidx = ANY($3)',
    [options.merchantId, options.environment, [...new Set(options.pidxs)]],
  );
  return new Map(rows.map((row) => [row.pidx, effectiveStatus(row, options.now)]));
}
