// One small interface over both stores, so every query is the same SQL on PGlite and PostgreSQL.

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Where batch statements run (`batcher.ts`), when the store has a place of its own for them. */
  readonly batches?: Queryable;
  /**
   * Where reads that tolerate lag may run (`READ_DATABASE_URL`: the replicas): see `lagging`.
   */
  readonly reads?: Queryable;
  /** Runs `work` in one transaction; retried on serialization failures and deadlocks. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The store for a read that may be a moment behind: transaction lists, exports, the console's lists
 * and figures. A replica may not yet hold what the primary just committed, so never for a lookup, the
 * hosted page, a session, or anything that decides about money: those use the store itself.
 */
export function lagging(db: Db): Queryable {
  return db.reads ?? db;
}

/** PostgreSQL error codes the store reacts to. */
export const PgCode = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  serializationFailure: '40001',
  deadlock: '40P01',
  undefinedTable: '42P01',
} as const;

export function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * Whether `error` is PostgreSQL refusing a row for the unique index or check constraint named `name`
 * (`code`: PgCode.uniqueViolation or PgCode.checkViolation); both stores name it, quoted, in the message.
 */
export function violates(error: unknown, code: typeof PgCode.uniqueViolation | typeof PgCode.checkViolation, name: string): boolean {
  return pgCode(error) === code && String((error as Error).message).includes(`"${name}"`);
}

/**
 * Connection-level failures: the database is unreachable, not the query wrong. `25006` (a write in a
 * read-only transaction) is one of them too: the service never opens a read-only transaction itself,
 * so it means the connection reached a node that is no longer the primary (demoted in place by a
 * failover, or a proxy not yet switched over); the write did not happen and a new connection finds
 * the new primary. So is `57014`: the service cancels no statement itself, so a cancelled one ran past
 * DB_STATEMENT_TIMEOUT_MS on a database too busy or hung to answer in time.
 */
export function isUnavailable(error: unknown): boolean {
  const code = pgCode(error);
  if (code && (code.startsWith('08') || ['25006', '57014', '57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code))) return true;
  const message = error instanceof Error ? error.message : '';
  // node-postgres reports a lost connection in words: terminated, a client left unusable by it, or a
  // statement given up on (query_timeout).
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|encountered a connection error and is not queryable|Query read timeout/.test(message);
}

export async function withRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const code = pgCode(error);
      const retryable = code === PgCode.serializationFailure || code === PgCode.deadlock;
      if (!retryable || i >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * i));
    }
  }
}
