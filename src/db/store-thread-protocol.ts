// What the server's thread and the store's thread say to each other (store-thread.ts,
// store-thread-worker.ts): each request has an id of the server's choosing, answered once.

export type StoreRequest =
  | { id: number; op: 'query'; tx?: number; sql: string; params: unknown[] }
  | { id: number; op: 'exec'; tx?: number; sql: string }
  /** Answered once the transaction holds the store; its id names it in later requests. */
  | { id: number; op: 'begin' }
  /** Commits or rolls back transaction `tx`; answered once PGlite has ended it. */
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' }
  /** The whole data directory as a gzipped tarball, between two statements (embedded-backup.ts). */
  | { id: number; op: 'backup' };

export type StoreAnswer = { id: number; ok: true; rows?: unknown[]; backup?: StoreCopy } | { id: number; ok: false; error: Record<string, unknown> };

/** A consistent copy of an embedded store: its data directory as a gzipped tar, and its schema's last migration. */
export interface StoreCopy {
  tarball: Uint8Array;
  schema: string;
}

/** The id of the store's own answer once it is open (or why it could not open). */
export const OPENED = 0;

/** An error's fields (PostgreSQL's code, detail, constraint …, and its class's name) as they cross threads. */
export function fieldsOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return { ...Object.fromEntries(Object.entries(error)), name: error.name, kind: error.constructor.name, message: error.message };
}
