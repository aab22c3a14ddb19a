// The SQL of automatic payout schedules and of the payouts their periods made.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { PayoutFrequency, PayoutSchedule } from './payout-schedule.js';

interface ScheduleRow {
  merchant_id: number;
  frequency: PayoutFrequency;
  weekday: number | null;
  minimum_amount: number;
  starts_on: string;
}

const COLUMNS = `merchant_id, frequency, weekday, minimum_amount, to_char(starts_on, 'YYYY-MM-DD') AS starts_on`;

const scheduleOf = (row: ScheduleRow): PayoutSchedule => ({
  merchantId: Number(row.merchant_id),
  frequency: row.frequency,
  weekday: row.weekday === null ? null : Number(row.weekday),
  minimumAmount: Number(row.minimum_amount),
  startsOn: row.starts_on,
});

export async function findPayoutSchedule(db: Queryable, merchantId: number, environment: Environment): Promise<PayoutSchedule | undefined> {
  const [row] = await db.query<ScheduleRow>(`SELECT ${COLUMNS} FROM payout_schedules WHERE merchant_id = $1 AND environment = $2`, [merchantId, environment]);
  return row && scheduleOf(row);
}

export async function savePayoutSchedule(db: Queryable, environment: Environment, schedule: PayoutSchedule, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO payout_schedules (merchant_id, environment, frequency, weekday, minimum_amount, starts_on, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (merchant_id, environment) DO UPDATE
        SET frequency = EXCLUDED.frequency, weekday = EXCLUDED.weekday, minimum_amount = EXCLUDED.minimum_amount,
            starts_on = EXCLUDED.starts_on, updated_at = EXCLUDED.updated_at`,
    [schedule.merchantId, environment, schedule.frequency, schedule.weekday, schedule.minimumAmount, schedule.startsOn, now],
  );
}

export async function deletePayoutSchedule(db: Queryable, merchantId: number, environment: Environment): Promise<void> {
  await db.query('DELETE FROM payout_schedules WHERE merchant_id = $1 AND environment = $2', [merchantId, environment]);
}

/** Every schedule of an environment with the start of the last period that made a payout (null: none yet). */
export async function listPayoutSchedules(db: Queryable, environment: Environment): Promise<(PayoutSchedule & { lastPeriod: string | null })[]> {
  const rows = await db.query<ScheduleRow & { last_period: string | null }>(
    `SELECT ${COLUMNS},
            (SELECT to_char(max(r.period_start), 'YYYY-MM-DD') FROM scheduled_payouts r
              WHERE r.merchant_id = s.merchant_id AND r.environment = s.environment) AS last_period
       FROM payout_schedules s WHERE s.environment = $1 ORDER BY s.merchant_id`,
    [environment],
  );
  return rows.map((row) => ({ ...scheduleOf(row), lastPeriod: row.last_period }));
}

/** Claims a period for a payout, in the payout's transaction; false when another run has it already. */
export async function claimSchedulePeriod(tx: Queryable, row: { merchantId: number; environment: Environment; periodStart: string; payoutId: number; now: Date }): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO scheduled_payouts (merchant_id, environment, period_start, payout_id, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING payout_id`,
    [row.merchantId, row.environment, row.periodStart, row.payoutId, row.now],
  );
  return inserted.length === 1;
}

/** Whether a payout of this period was made already (by this run's rivals, say). */
export async function schedulePeriodClaimed(db: Queryable, row: { merchantId: number; environment: Environment; periodStart: string }): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM scheduled_payouts WHERE merchant_id = $1 AND environment = $2 AND period_start = $3', [row.merchantId, row.environment, row.periodStart]);
  return rows.length > 0;
}
