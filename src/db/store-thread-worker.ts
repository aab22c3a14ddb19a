// The embedded store on a thread of its own (store-thread.ts is the server's side). Here the data
// directory is locked, seeded on a first start, opened and migrated, and every statement runs, so
// PostgreSQL's start and its statements never hold up the server's thread. One request in, one
// answer out, matched by id; requests sent before the store is open wait in the thread's port. A
// transaction is a PGlite transaction held open until its `end` arrives; statements outside it wait
// for it, as they would on one PGlite in the server's thread.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { join } from 'node:path';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.js';
import { refillSpare, seedDataDir } from './initial-store.js';
import { migrate } from './migrate.js';
import { copyOfStore, createPglite, pgliteDb } from './pglite.js';
import { useStoreCode } from './pglite-code.js';
import { fieldsOf, OPENED, type StoreAnswer, type StoreRequest } from './store-thread-protocol.js';

const port = parentPort!;
const SPARE_REFILL_DELAY_MS = 1000;
let refilling: Promise<void> | undefined;
let refillBeforeClose = (): Promise<void> | undefined => undefined;
const answer = (message: StoreAnswer) => port.postMessage(message);
const failed = (id: number, error: unknown): StoreAnswer => ({ id, ok: false, error: fieldsOf(error) });

/** The open transactions, by the id of the `begin` that opened each. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean, endId: number) => void }>();
const ROLLBACK = Symbol('rollback');

function begin(pg: PGlite, id: number): void {
  let endId: number | undefined;
  pg.transaction(
    (tx) =>
      new Promise<void>((commit, rollBack) => {
        transactions.set(id, {
          tx,
          end: (toCommit, answerAs) => {
            endId = answerAs;
            transactions.delete(id);
            if (toCommit) commit();
            else rollBack(ROLLBACK);
          },
        });
        answer({ id, ok: true });
      }),
  ).then(
    () => answer({ id: endId!, ok: true }),
    // Before it held the store, `begin` itself failed; after, its `end`.
    (error: unknown) => answer(endId === undefined ? failed(id, error) : error === ROLLBACK ? { id: endId, ok: true } : failed(endId, error)),
  );
}

async function run(pg: PGlite, unlock: () => void, request: Extract<StoreRequest, { op: 'query' | 'exec' | 'close' | 'backup' }>): Promise<StoreAnswer> {
  if (request.op === 'backup') return { id: request.id, ok: true, backup: await copyOfStore(pg) };
  if (request.op === 'close') {
    await pg.close();
    await refillBeforeClose();
    unlock();
    return { id: request.id, ok: true };
  }
  const on = request.tx === undefined ? pg : transactions.get(request.tx)?.tx;
  if (!on) throw new Error(`transaction ${request.tx} is not open`);
  if (request.op === 'exec') {
    await on.exec(request.sql);
    return { id: request.id, ok: true };
  }
  return { id: request.id, ok: true, rows: (await on.query(request.sql, request.params)).rows };
}

async function open(dataDir: string, holder: string): Promise<{ pg: PGlite; unlock: () => void }> {
  const unlock = await lockDataDir(dataDir, holder);
  try {
    const storeDir = join(dataDir, 'pglite');
    // A first start took the spare store: another is made once the server has had a moment to
    // start, or as the store closes if that comes first.
    if (await seedDataDir(storeDir)) {
      const timer = setTimeout(() => (refilling = refillSpare()), SPARE_REFILL_DELAY_MS);
      refillBeforeClose = () => (clearTimeout(timer), (refilling ??= refillSpare()));
    }
    const pg = await createPglite({ dataDir: storeDir });
    await migrate(pgliteDb(pg));
    return { pg, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Opens the store, then answers the server's requests (a function: the thread is a script, with no top-level await). */
async function serve(): Promise<void> {
  try {
    const { dataDir, holder, codePort } = workerData as { dataDir: string; holder: string; codePort?: MessagePort };
    if (codePort) useStoreCode(new Promise((resolve) => codePort.once('message', (module: WebAssembly.Module | null) => (codePort.close(), resolve(module)))));
    const { pg, unlock } = await open(dataDir, holder);
    port.on('message', (request: StoreRequest) => {
      if (request.op === 'begin') return begin(pg, request.id);
      if (request.op === 'end') {
        const opened = transactions.get(request.tx);
        return opened ? opened.end(request.commit, request.id) : answer(failed(request.id, new Error(`transaction ${request.tx} is not open`)));
      }
      run(pg, unlock, request).then(
        (done) => port.postMessage(done, done.ok && done.backup ? [done.backup.tarball.buffer as ArrayBuffer] : []),
        (error: unknown) => answer(failed(request.id, error)),
      );
    });
    answer({ id: OPENED, ok: true });
  } catch (error) {
    answer(failed(OPENED, error));
    // Alive until the server's thread ends it: left to end by itself, the thread's exit could be seen
    // there before this answer, and the open would fail as "stopped" rather than with its reason.
    port.on('message', () => {});
  }
}

void serve();
