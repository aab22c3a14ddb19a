// Completed payment volume per day in TIME_ZONE, for the dashboard's home page. Counted from the
// transaction records: a payment counts on the day it was paid, at its full amount (refunds are
// records of their own and do not lower it).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

export interface DailyVolume {
  /** YYYY-MM-DD in the time zone asked for. */
  day: string;
  amount: number;
  count: number;
}

/** Days from `fromDay` to `toDay` inclusive that had completed payments, oldest first. */
export async function dailyPaymentVolume(
  db: Queryable,
  options: { merchantId: number; environment: Environment; fromDay: string; toDay: string; timeZone: string },
): Promise<DailyVolume[]> {
  return db.query<DailyVolume>(
    `SELECT to_char((t.created_at AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS day, sum(t.amount) AS amount, count(*) AS count
       FROM transactions t
      WHERE t.merchant_id = $1 AND t.environment = $2 AND t.type <> 'Refund' AND t.state = 'Completed'
        AND t.created_at >= ($4::date::timestamp AT TIME ZONE $3)
        AND t.created_at < (($5::date + 1)::timestamp AT TIME ZONE $3)
      GROUP BY 1 ORDER BY 1`,
    [options.merchantId, options.environment, options.timeZone, options.fromDay, options.toDay],
  );
}
