// Group commit for one kind of write: what arrives while earlier writes are in flight goes to the
// store together, as one statement, instead of one statement (and one commit) each. Under light
// load nothing waits: an item finds a free slot and runs alone at once. Under load the slots are
// busy, items queue, and each freed slot takes the whole queue, so the cost per statement (the round
// trip, the executor, the commit and its WAL flush) is shared by everything that arrived meanwhile.
import { isUnavailable, withRetry, type Db, type Queryable } from './db.js';

export interface BatchOptions {
  /** Most items in one run. */
  max: number;
  /** Most runs in flight at once. */
  inFlight: number;
}

interface Queued<I, O> {
  item: I;
  resolve(result: O): void;
  reject(error: unknown): void;
}

/**
 * Returns a function that submits one item and resolves with its result. `run` gets the items of a
 * batch and returns one result per item, in their order. A run of several items that fails is run
 * again one item at a time, in order, so each item gets its own result or its own error: one bad
 * item (a wallet short of money, say) fails alone, and `run` must therefore be safe to repeat for an
 * item whose first run did not commit. A run the store aborted for a deadlock or a serialization
 * failure committed nothing either, and is run again as it was, as a transaction is (`withRetry`).
 * A run that failed because the store is unavailable (down, or
 * not answering within the statement timeout) is not run again: its items, and every item queued
 * behind it, get that error at once, so that no request waits longer than one statement's timeout.
 */
export function batcher<I, O>(runOnce: (items: I[]) => Promise<O[]>, options: BatchOptions): (item: I) => Promise<O> {
  const run = (items: I[]) => withRetry(() => runOnce(items));
  const queue: Queued<I, O>[] = [];
  let running = 0;

  const failAll = (batch: Queued<I, O>[], error: unknown) => {
    for (const q of [...batch, ...queue.splice(0)]) q.reject(error);
  };

  async function settle(batch: Queued<I, O>[]): Promise<void> {
    try {
      const results = await run(batch.map((q) => q.item));
      batch.forEach((q, i) => q.resolve(results[i]));
    } catch (error) {
      if (isUnavailable(error)) return failAll(batch, error);
      if (batch.length === 1) return batch[0].reject(error);
      for (const [i, q] of batch.entries()) {
        try {
          q.resolve((await run([q.item]))[0]);
        } catch (alone) {
          if (isUnavailable(alone)) return failAll(batch.slice(i), alone);
          q.reject(alone);
        }
      }
    }
  }

  function pump(): void {
    while (running < options.inFlight && queue.length > 0) {
      running++;
      void settle(queue.splice(0, options.max)).finally(() => {
        running--;
        pump();
      });
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      pump();
    });
}

/**
 * What every batched statement of the store gets: up to 64 items a statement, two statements in
 * flight, so the pool keeps its other connections for everything else. The store's room for batch
 * statements (`Db.batches`) is sized from it.
 */
export const storeBatches: BatchOptions = { max: 64, inFlight: 2 };

/**
 * `batcher` for a statement of the store: one queue per store (`Db`), made on first use, so that
 * everything asking the same store at the same moment shares its statements. They run where the
 * store puts batch statements (`Db.batches`).
 */
export function batchedPerStore<I, O>(run: (db: Queryable, items: I[]) => Promise<O[]>, options: BatchOptions = storeBatches): (db: Db, item: I) => Promise<O> {
  const queues = new WeakMap<Db, (item: I) => Promise<O>>();
  return (db, item) => {
    let submit = queues.get(db);
    if (!submit) queues.set(db, (submit = batcher((items: I[]) => run(db.batches ?? db, items), options)));
    return submit(item);
  };
}
