// Per-hour record counts of a merchant's list, kept for closed hours only, and their sums per UTC
// day. An hour closes five minutes after it ends (room for clocks that differ between instances);
// counting it once, on the first list request that needs it, costs one index range scan. After
// that a deep page is found by summing a few hundred day rows and the hours of one day, instead of
// skipping hundreds of thousands of records.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const CLOSE_AFTER_MS = 5 * 60_000;
/** The count of all states is kept under this state name. */
export const ALL_STATES = '';

/** The start of the hour or UTC day (`unit`) that the time `ms` falls in. */
const startOf = (unit: number, ms: number) => new Date(Math.floor(ms / unit) * unit);

export function closedBefore(now: Date): Date {
  return startOf(HOUR_MS, now.getTime() - CLOSE_AFTER_MS);
}

interface Owner {
  merchantId: number;
  environment: Environment;
}

async function coverage(db: Queryable, owner: Owner, lock: boolean): Promise<Date | undefined> {
  const rows = await db.query<{ counted_until: Date }>(
    `SELECT counted_until FROM transaction_count_coverage WHERE merchant_id = $1 AND environment = $2${lock ? ' FOR UPDATE' : ''}`,
    [owner.merchantId, owner.environment],
  );
  return rows[0]?.counted_until;
}

/** Counts the hours closed since the last count; returns the time before which hours are counted. */
export async function countClosedHours(db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> } & Queryable, owner: Owner, now: Date): Promise<Date> {
  const until = closedBefore(now);
  const known = await coverage(db, owner, false);
  if (known && known.getTime() >= until.getTime()) return known;
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO transaction_count_coverage (merchant_id, environment, counted_until) VALUES ($1, $2, 'epoch') ON CONFLICT DO NOTHING`,
      [owner.merchantId, owner.environment],
    );
    const from = (await coverage(tx, owner, true))!;
    if (from.getTime() >= until.getTime()) return from;
    // One pass over the new hours: a row per state and hour, and one per hour for all states; their
    // sums added to the days they fall in (the first of them may have been counted in part before).
    await tx.query(
      `WITH hours AS (
         INSERT INTO transaction_hour_counts (merchant_id, environment, state, hour, count)
         SELECT $1, $2, coalesce(state, '${ALL_STATES}'), date_trunc('hour', created_at, 'UTC'), count(*) FROM transactions
          WHERE merchant_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
          GROUP BY GROUPING SETS ((state, date_trunc('hour', created_at, 'UTC')), (date_trunc('hour', created_at, 'UTC')))
         RETURNING state, hour, count
       )
       INSERT INTO transaction_day_counts (merchant_id, environment, state, day, count)
       SELECT $1, $2, state, date_trunc('day', hour, 'UTC'), sum(count) FROM hours GROUP BY state, date_trunc('day', hour, 'UTC')
       ON CONFLICT (merchant_id, environment, state, day) DO UPDATE SET count = transaction_day_counts.count + excluded.count`,
      [owner.merchantId, owner.environment, from, until],
    );
    await tx.query('UPDATE transaction_count_coverage SET counted_until = $3 WHERE merchant_id = $1 AND environment = $2', [owner.merchantId, owner.environment, until]);
    return until;
  });
}

/** Keeps counted hours, and their days, right when a record changes state (an operator resolving a held payment). */
export async function moveCountedState(tx: Queryable, owner: Owner, record: { createdAt: Date; from: string; to: string }): Promise<void> {
  const until = await coverage(tx, owner, true);
  if (!until || record.createdAt.getTime() >= until.getTime()) return;
  const at = record.createdAt.getTime();
  const params = [owner.merchantId, owner.environment, startOf(HOUR_MS, at), startOf(DAY_MS, at)];
  await tx.query(
    `WITH hour AS (
       UPDATE transaction_hour_counts SET count = count - 1 WHERE merchant_id = $1 AND environment = $2 AND state = $5 AND hour = $3
     )
     UPDATE transaction_day_counts SET count = count - 1 WHERE merchant_id = $1 AND environment = $2 AND state = $5 AND day = $4`,
    [...params, record.from],
  );
  await tx.query(
    `WITH hour AS (
       INSERT INTO transaction_hour_counts (merchant_id, environment, state, hour, count) VALUES ($1, $2, $5, $3, 1)
       ON CONFLICT (merchant_id, environment, state, hour) DO UPDATE SET count = transaction_hour_counts.count + 1
     )
     INSERT INTO transaction_day_counts (merchant_id, environment, state, day, count) VALUES ($1, $2, $5, $4, 1)
     ON CONFLICT (merchant_id, environment, state, day) DO UPDATE SET count = transaction_day_counts.count + 1`,
    [...params, record.to],
  );
}

/**
 * The counted records as spans, newest first by `start`: `until`'s own day by hour (its hours before
 * `until`), every earlier day by day. Parameters: $1 merchant, $2 environment, $3 state, $4 the
 * start of `until`'s day, $5 `until`. Exact for any `until`, even while another request counts
 * newer hours.
 */
const spans = `spans AS (
  SELECT hour AS start, interval '1 hour' AS length, count FROM transaction_hour_counts
   WHERE merchant_id = $1 AND environment = $2 AND state = $3 AND hour >= $4 AND hour < $5
  UNION ALL
  SELECT day, interval '1 day', count FROM transaction_day_counts
   WHERE merchant_id = $1 AND environment = $2 AND state = $3 AND day < $4
)`;

const spanParams = (owner: Owner, state: string, until: Date) => [owner.merchantId, owner.environment, state, startOf(DAY_MS, until.getTime()), until];

/** Records in counted hours. */
export async function countedRecords(db: Queryable, owner: Owner, state: string, until: Date): Promise<number> {
  const [row] = await db.query<{ total: number }>(`WITH ${spans} SELECT coalesce(sum(count), 0) AS total FROM spans`, spanParams(owner, state, until));
  return row.total;
}

/**
 * Where the `skip`-th newest counted record lies: the end of its hour, and how many records newer
 * hours hold. The span it falls in (one of `until`'s day's hours, or an earlier day) is found from
 * the running sum over spans, newest first; then the hour within that span.
 */
export async function hourOfPosition(db: Queryable, owner: Owner, state: string, until: Date, skip: number): Promise<{ hourEnd: Date; before: number } | undefined> {
  const rows = await db.query<{ hour: Date; before: number }>(
    `WITH ${spans}, span AS (
       SELECT start, length, before FROM (
         SELECT start, length, count, sum(count) OVER (ORDER BY start DESC) - count AS before FROM spans
       ) s WHERE before + count > $6 ORDER BY start DESC LIMIT 1
     )
     SELECT h.hour, span.before + h.before AS before
       FROM span CROSS JOIN LATERAL (
         SELECT hour, count, sum(count) OVER (ORDER BY hour DESC) - count AS before FROM transaction_hour_counts
          WHERE merchant_id = $1 AND environment = $2 AND state = $3 AND hour >= span.start AND hour < span.start + span.length
       ) h
      WHERE span.before + h.before + h.count > $6 ORDER BY h.hour DESC LIMIT 1`,
    [...spanParams(owner, state, until), skip],
  );
  const row = rows[0];
  return row ? { hourEnd: new Date(row.hour.getTime() + HOUR_MS), before: row.before } : undefined;
}
