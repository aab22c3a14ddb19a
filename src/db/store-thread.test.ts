// The server's embedded store on its own thread answers as PGlite in the server's thread would:
// statements sent before it is open, transactions that commit or roll back and hold the store while
// open, PostgreSQL's error fields, money and times as the parsers give them, and the data directory
// locked while it is open and freed by its close.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from '../../test/processes.js';
import { DataDirBusyError } from './data-dir-lock.js';
import { PgCode, pgCode } from './db.js';
import { compiledStoreCode } from './pglite-code.js';
import { openStoreThread } from './store-thread.js';

// The thread's code as the build bundles it, from this run's sources (test/compiled.ts).
const code = pathToFileURL(join(inject('compiledDir'), 'bundle/store-thread-worker.cjs'));
const open = (dataDir: string) => openStoreThread(dataDir, 'server', code);

const dir = tempDir('bhuktani-store-thread-');
afterAll(() => dir.remove());

describe('the store on its own thread', () => {
  const { db, opened } = open(dir.path);
  afterAll(() => db.close());

  it('answers a statement sent before it is open, once open and migrated', async () => {
    const answered = db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    await opened;
    expect((await answered)[0].n).toBeGreaterThan(10);
  });

  it('gives bigint money as numbers and times as Dates, both ways', async () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const [row] = await db.query<{ amount: number; at: Date; none: null }>('SELECT $1::bigint AS amount, $2::timestamptz AS at, NULL AS none', [1_000_000_000_05, at]);
    expect(row).toEqual({ amount: 1_000_000_000_05, at, none: null });
  });

  it('commits a transaction, and rolls one back when its work throws', async () => {
    await db.exec('CREATE TABLE thread_notes (id int PRIMARY KEY, note text NOT NULL)');
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO thread_notes VALUES (1, $1)', ['kept']);
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM thread_notes'))[0].n;
    });
    expect(result).toBe(1);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO thread_notes VALUES (2, $1)', ['dropped']);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await db.query('SELECT id, note FROM thread_notes ORDER BY id')).toEqual([{ id: 1, note: 'kept' }]);
  });

  it("keeps PostgreSQL's error fields across the thread, and the transaction that met one rolled back", async () => {
    const error = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO thread_notes VALUES (3, $1)', ['first']);
        await tx.query('INSERT INTO thread_notes VALUES (1, $1)', ['again']);
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(pgCode(error)).toBe(PgCode.uniqueViolation);
    expect(error).toMatchObject({ constraint: 'thread_notes_pkey' });
    expect(await db.query('SELECT id FROM thread_notes ORDER BY id')).toEqual([{ id: 1 }]);
  });

  it('holds the store for an open transaction: a statement outside it waits until it ends', async () => {
    let inside!: () => void;
    const held = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const transaction = db.transaction(async (tx) => {
      await tx.query('UPDATE thread_notes SET note = $1 WHERE id = 1', ['during']);
      inside();
      await new Promise<void>((resolve) => (release = resolve));
      await tx.query('UPDATE thread_notes SET note = $1 WHERE id = 1', ['after']);
    });
    await held;
    const outside = db.query<{ note: string }>('SELECT note FROM thread_notes WHERE id = 1');
    let outsideAnswered = false;
    void outside.then(() => (outsideAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outsideAnswered).toBe(false);
    release();
    await transaction;
    expect(await outside).toEqual([{ note: 'after' }]);
  });

  it('refuses a second opener of the same data directory, naming the holder', async () => {
    const second = open(dir.path);
    await expect(second.opened).rejects.toThrow(DataDirBusyError);
    await expect(second.db.query('SELECT 1')).rejects.toThrow(/is in use by a server/);
  });
});

describe('closing the store', () => {
  it('frees the data directory for the next opener, with what was written', async () => {
    const own = tempDir('bhuktani-store-thread-close-');
    try {
      const first = open(own.path);
      await first.db.exec('CREATE TABLE kept (n int)');
      await first.db.query('INSERT INTO kept VALUES ($1)', [7]);
      await first.db.close();
      await expect(first.db.query('SELECT 1')).rejects.toThrow(/stopped/);
      const again = open(own.path);
      expect(await again.db.query('SELECT n FROM kept')).toEqual([{ n: 7 }]);
      await again.db.close();
    } finally {
      own.remove();
    }
  });
});

describe('a store lost while open', () => {
  it('says so once, and every statement after it fails; a close asked for is no loss', async () => {
    const own = tempDir('bhuktani-store-thread-lost-');
    try {
      // A thread that opens, then stops on its own, as one that crashed would.
      const dying = join(own.path, 'dying-store.mjs');
      writeFileSync(dying, "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ id: 0, ok: true });\nsetTimeout(() => process.exit(3), 20);\n");
      const store = openStoreThread(own.path, 'server', pathToFileURL(dying));
      await store.opened;
      expect((await store.lost)?.message).toContain('exit code 3');
      await expect(store.db.query('SELECT 1')).rejects.toThrow(/stopped/);

      const closed = open(join(own.path, 'closed'));
      await closed.opened;
      let lost = false;
      void closed.lost?.then(() => (lost = true));
      await closed.db.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lost).toBe(false);
    } finally {
      own.remove();
    }
  });
});

describe("the store's code compiled by the opening thread", () => {
  it('is what the store runs, and a compile that fails there leaves the store to compile its own', async () => {
    for (const storeCode of [compiledStoreCode, () => Promise.reject(new Error('no compile here'))]) {
      const own = tempDir('bhuktani-store-thread-code-');
      try {
        const store = openStoreThread(own.path, 'server', code, storeCode);
        await store.codeHandedOver;
        await store.opened;
        expect(await store.db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
        await store.db.close();
      } finally {
        own.remove();
      }
    }
  }, 60_000);

  it('is the one the store runs: handed a module that is not PostgreSQL, the open fails', async () => {
    const own = tempDir('bhuktani-store-thread-code-');
    try {
      const store = openStoreThread(own.path, 'server', code, () => WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])));
      await expect(store.opened).rejects.toThrow();
      await store.db.close();
    } finally {
      own.remove();
    }
  }, 60_000);
});
