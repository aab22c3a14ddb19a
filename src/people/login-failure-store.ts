// The SQL of failed sign-ins. A scope names what is counted: `email:<lower-case email>`, `ip:<address>`
// (merchants), `operator:…` (operators; src/people/operator-sign-in.ts).
import type { Queryable } from '../db/db.js';

/** The latest time until which any of `scopes` is locked, if one is locked at `now`. */
export async function findLockedUntil(db: Queryable, scopes: string[], now: Date): Promise<Date | undefined> {
  const [row] = await db.query<{ until: Date | null }>('SELECT max(locked_until) AS until FROM login_failures WHERE scope = ANY($1) AND locked_until > $2', [scopes, now]);
  return row?.until ?? undefined;
}

/**
 * Counts one failure and returns the count. A count whose last failure is older than `forgetBefore`
 * starts again from one. One statement, so concurrent failures are all counted.
 */
export async function countFailure(db: Queryable, scope: string, now: Date, forgetBefore: Date): Promise<number> {
  const [row] = await db.query<{ failures: number }>(
    `INSERT INTO login_failures AS f (scope, failures, last_failed_at) VALUES ($1, 1, $2)
     ON CONFLICT (scope) DO UPDATE
        SET failures = CASE WHEN f.last_failed_at < $3 THEN 1 ELSE f.failures + 1 END, last_failed_at = $2
     RETURNING failures`,
    [scope, now, forgetBefore],
  );
  return row.failures;
}

export async function lockScope(db: Queryable, scope: string, until: Date): Promise<void> {
  await db.query('UPDATE login_failures SET locked_until = greatest(coalesce(locked_until, $2), $2) WHERE scope = $1', [scope, until]);
}

export async function clearFailures(db: Queryable, scope: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE scope = $1', [scope]);
}
