// Whether PostgreSQL is archiving its write-ahead log, as pg_stat_archiver and archive_mode tell it:
// what point-in-time recovery (pgBackRest, docs/deploy.md) rests on. A failing archive (a full or
// unwritable repository) leaves the cluster serving, so /metrics and the console's overview say it.
import type { Queryable } from './db.js';

export type WalArchiving =
  | { state: 'off' }
  | { state: 'archiving' | 'failing'; archived: number; failed: number; lastArchivedAt: Date | null; lastFailedAt: Date | null };

interface ArchiverRow {
  mode: string;
  archived_count: number | string;
  failed_count: number | string;
  last_archived_time: Date | null;
  last_failed_time: Date | null;
}

/** What the archiver's row says: off, archiving, or failing (its last try failed after its last success). */
export function archivingOf(row: ArchiverRow): WalArchiving {
  if (row.mode === 'off') return { state: 'off' };
  const failing = row.last_failed_time !== null && (row.last_archived_time === null || row.last_failed_time > row.last_archived_time);
  return { state: failing ? 'failing' : 'archiving', archived: Number(row.archived_count), failed: Number(row.failed_count), lastArchivedAt: row.last_archived_time, lastFailedAt: row.last_failed_time };
}

/** The store's WAL archiving; undefined for the embedded store, which has none (its backups: `bhuktani backup`). */
export async function walArchiving(db: Queryable & { kind?: string }): Promise<WalArchiving | undefined> {
  if (db.kind !== 'postgres') return undefined;
  const [row] = await db.query<ArchiverRow>(
    "SELECT current_setting('archive_mode') AS mode, archived_count, failed_count, last_archived_time, last_failed_time FROM pg_stat_archiver",
  );
  return archivingOf(row);
}
