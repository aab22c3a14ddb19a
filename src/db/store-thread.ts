// The server's embedded store on a thread of its own (store-thread-worker.ts holds PGlite). PGlite
// runs PostgreSQL on the thread that calls it: in the server's thread, its start (about half a second
// of a restart) came after the server's modules and before its routes, and each statement held up
// every request. On its own thread the store opens while the server loads and builds its routes, and
// statements run beside the requests. The same Db as openPglite's: statements, transactions (held
// open on the store's thread until they end) and PostgreSQL's error fields (code, constraint …).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { DataDirBusyError } from './data-dir-lock.js';
import { withRetry, type Db, type Queryable } from './db.js';
import { OPENED, type StoreAnswer, type StoreCopy, type StoreRequest } from './store-thread-protocol.js';

type Request = StoreRequest extends infer R ? (R extends StoreRequest ? Omit<R, 'id'> : never) : never;

/**
 * The thread's code beside this module's: the bundle's own (dist/bundle/store-thread-worker.cjs, as
 * `npm run build` writes it beside the server). Its own directory, not `import.meta.url`, which the
 * bundle rewrites to tsc's address of each module (src/build/bundle.ts).
 */
const WORKER = pathToFileURL(join(import.meta.dirname, 'store-thread-worker.cjs'));

/** The error the store's thread described, as it was thrown there. */
function errorOf(fields: Record<string, unknown>): Error {
  const { kind, ...rest } = fields;
  const error = kind === 'DataDirBusyError' ? new DataDirBusyError(String(fields.message)) : new Error(String(fields.message));
  return Object.assign(error, rest);
}

/** A store the server may use at once, and when it is open. */
export interface ServerStore {
  db: Db;
  opened: Promise<void>;
  /** Settles if the store's thread stops before `db.close()` asked it to: nothing can be stored any more. */
  lost?: Promise<Error>;
  /** Settles once the store's code, compiled by the caller's thread, is on its way to the store's. */
  codeHandedOver?: Promise<void>;
  /** A consistent copy of the store while it serves (`bhuktani backup` asks it of a running server). */
  copy?: () => Promise<StoreCopy>;
}

/**
 * Starts the store's thread on `dataDir` (locked, seeded, opened, migrated there) and gives its Db at
 * once: statements sent before the store is open wait for it, and fail with the open's error if it
 * cannot open. `opened` settles with the open. `code`: the thread's compiled code (the tests compile it).
 */
export function openStoreThread(dataDir: string, holder: string, code: URL = WORKER, storeCode?: () => Promise<WebAssembly.Module>): ServerStore {
  // PostgreSQL's WebAssembly, compiled here while the thread boots, is handed to it on a port of its
  // own; without one, the thread compiles it.
  const codeChannel = storeCode && new MessageChannel();
  const worker = new Worker(code, { workerData: { dataDir, holder, codePort: codeChannel?.port2 }, transferList: codeChannel ? [codeChannel.port2] : [] });
  const codeHandedOver = codeChannel && storeCode
    ? storeCode().then(
        (module) => codeChannel.port1.postMessage(module),
        () => codeChannel.port1.postMessage(null),
      ).finally(() => codeChannel.port1.close())
    : Promise.resolve();
  const waiting = new Map<number, { resolve: (answer: StoreAnswer & { ok: true }) => void; reject: (error: Error) => void }>();
  let stopped: Error | undefined;
  let closing = false;
  let lose!: (error: Error) => void;
  const lost = new Promise<Error>((resolve) => (lose = resolve));
  const stop = (error: Error) => {
    if (!closing && !stopped) lose(error);
    stopped ??= error;
    for (const { reject } of waiting.values()) reject(stopped);
    waiting.clear();
  };
  const answerTo = (id: number) => new Promise<StoreAnswer & { ok: true }>((resolve, reject) => (stopped ? reject(stopped) : waiting.set(id, { resolve, reject })));
  const opened = answerTo(OPENED).then(
    () => undefined,
    (error: Error) => {
      stop(error);
      void worker.terminate();
      throw error;
    },
  );
  // Its callers await it; a failure no caller is waiting for yet is not an unhandled rejection.
  opened.catch(() => {});
  worker.on('message', (answer: StoreAnswer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.ok) waiter?.resolve(answer);
    else waiter?.reject(errorOf(answer.error));
  });
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the embedded store's thread stopped (exit code ${code})`)));

  let nextId = OPENED + 1;
  const send = (request: Request) => {
    const id = nextId++;
    const answered = answerTo(id);
    if (!stopped) worker.postMessage({ ...request, id });
    return answered;
  };
  const on = (tx?: number): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      return (await send({ op: 'query', tx, sql, params })).rows as T[];
    },
    async exec(sql: string) {
      await send({ op: 'exec', tx, sql });
    },
  });
  const db: Db = {
    kind: 'pglite',
    ...on(),
    transaction: (work) =>
      withRetry(async () => {
        const tx = (await send({ op: 'begin' })).id;
        let result;
        try {
          result = await work(on(tx));
        } catch (error) {
          await send({ op: 'end', tx, commit: false }).catch(() => {});
          throw error;
        }
        await send({ op: 'end', tx, commit: true });
        return result;
      }),
    close: async () => {
      closing = true;
      if (!stopped) await send({ op: 'close' });
      await worker.terminate();
    },
  };
  const copy = async () => (await send({ op: 'backup' })).backup!;
  return { db, opened, lost, codeHandedOver, copy };
}
