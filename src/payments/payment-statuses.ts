// The current status of several payments of one merchant and environment at once, and the door
// each came through (for a list page).
import type { Queryable } from '../db/db.js';
import { effectiveStatus, type PaymentDoor } from './payment.js';
import type { PaymentStatus } from './payment-status.js';
import type { Environment } from '../environment.js';

export interface ListedPayment {
  status: PaymentStatus;
  door: PaymentDoor;
}

export async function findPaymentStatuses(
  db: Queryable,
  options: { merchantId: number; environment: Environment; pidxs: string[]; now: Date },
): Promise<Map<string, ListedPayment>> {
  if (options.pidxs.length === 0) return new Map();
  const rows = await db.query<{ pidx: string; status: PaymentStatus; expires_at: Date; door: PaymentDoor }>(
    'SELECT pidx, status, expires_at, door FROM payments WHERE merchant_id = $1 AND environment = $2 AND pidx = ANY($3)',
    [options.merchantId, options.environment, [...new Set(options.pidxs)]],
  );
  return new Map(rows.map((row) => [row.pidx, { status: effectiveStatus(row, options.now), door: row.door }]));
}
