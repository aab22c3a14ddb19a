// The overview's figures, read for that one page: volume paid today and this month per environment
// (days and months in TIME_ZONE), this month's payments by status, merchants waiting for approval,
// webhook deliveries that gave up, live payouts waiting for the operators, and the last ledger check.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { lastLedgerVerification, type LedgerVerification } from '../ledger/ledger-verifications.js';
import { waitingPayouts, type WaitingPayouts } from '../settlements/operator-payouts-store.js';
import { providerAttention } from '../provider-payments/provider-figures.js';

export interface Volume {
  environment: Environment;
  todayPaisa: number;
  todayCount: number;
  monthPaisa: number;
  monthCount: number;
}

export interface OverviewFigures {
  volumes: Volume[];
  byStatus: { environment: Environment; status: string; count: number }[];
  merchantsWaiting: number;
  webhooksFailing: { environment: Environment; count: number }[];
  payoutsWaiting: WaitingPayouts;
  /** Provider attempts handed to the operators, and refunds to make at providers by hand. */
  providers: { escalated: number; refundsToMake: number };
  lastVerification?: LedgerVerification;
}

const PAID = ['Completed', 'Partially refunded', 'Refunded'];

export async function overviewFigures(db: Queryable, options: { now: Date; timeZone: string }): Promise<OverviewFigures> {
  const { now, timeZone } = options;
  const starts = `date_trunc('day', $1::timestamptz AT TIME ZONE $2) AT TIME ZONE $2`;
  const month = `date_trunc('month', $1::timestamptz AT TIME ZONE $2) AT TIME ZONE $2`;
  const [volumes, byStatus, waiting, failing, payoutsWaiting, lastVerification, providers] = await Promise.all([
    db.query<{ environment: Environment; today: string; today_count: number; month: string; month_count: number }>(
      `SELECT environment,
              coalesce(sum(amount) FILTER (WHERE created_at >= ${starts}), 0) AS today, (count(*) FILTER (WHERE created_at >= ${starts}))::int AS today_count,
              coalesce(sum(amount), 0) AS month, count(*)::int AS month_count
         FROM payments WHERE status = ANY($3) AND created_at >= ${month} AND created_at <= $1
        GROUP BY environment`,
      [now, timeZone, PAID],
    ),
    db.query<{ environment: Environment; status: string; count: number }>(
      `SELECT environment, status, count(*)::int AS count FROM payments WHERE created_at >= ${month} AND created_at <= $1 GROUP BY environment, status ORDER BY environment, status`,
      [now, timeZone],
    ),
    db.query<{ count: number }>("SELECT count(*)::int AS count FROM merchants WHERE status = 'applied'"),
    db.query<{ environment: Environment; count: number }>("SELECT environment, count(*)::int AS count FROM webhook_deliveries WHERE status = 'failed' GROUP BY environment ORDER BY environment"),
    waitingPayouts(db, 'live'),
    lastLedgerVerification(db),
    providerAttention(db),
  ]);
  const volumeOf = (environment: Environment): Volume => {
    const row = volumes.find((v) => v.environment === environment);
    return { environment, todayPaisa: Number(row?.today ?? 0), todayCount: row?.today_count ?? 0, monthPaisa: Number(row?.month ?? 0), monthCount: row?.month_count ?? 0 };
  };
  return { volumes: [volumeOf('live'), volumeOf('test')], byStatus, merchantsWaiting: waiting[0].count, webhooksFailing: failing, payoutsWaiting, providers, lastVerification };
}
