import { describe, expect, it } from 'vitest';
import { batcher } from './batcher.js';

/** A run that records each batch it is given and waits until the test lets it finish. */
function recordingRun(fail: (items: string[]) => boolean = () => false) {
  const batches: string[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push(items);
      pending.push(() => (fail(items) ? reject(new Error(`refused ${items.join(',')}`)) : resolve(items.map((i) => i.toUpperCase()))));
    });
  const finishAll = async () => {
    while (pending.length) {
      pending.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { run, batches, finishAll };
}

describe('batcher', () => {
  it('runs an item at once when a slot is free, and what arrives meanwhile together in the next run', async () => {
    const { run, batches, finishAll } = recordingRun();
    const submit = batcher(run, { max: 10, inFlight: 1 });
    const results = Promise.all(['a', 'b', 'c', 'd'].map(submit));
    expect(batches).toEqual([['a']]);
    await finishAll();
    expect(await results).toEqual(['A', 'B', 'C', 'D']);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('keeps at most `inFlight` runs going and at most `max` items in one run', async () => {
    const { run, batches, finishAll } = recordingRun();
    const submit = batcher(run, { max: 2, inFlight: 2 });
    const results = Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map(submit));
    expect(batches).toEqual([['a'], ['b']]);
    await finishAll();
    expect(await results).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(batches).toEqual([['a'], ['b'], ['c', 'd'], ['e', 'f']]);
  });

  it('runs a failed batch again one item at a time, so only the bad item fails', async () => {
    const { run, batches, finishAll } = recordingRun((items) => items.includes('bad'));
    const submit = batcher(run, { max: 10, inFlight: 1 });
    const settled = Promise.allSettled(['a', 'b', 'bad', 'c'].map(submit));
    await finishAll();
    expect((await settled).map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['A', 'B', 'refused bad', 'C']);
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('goes on with later items after a failure', async () => {
    const { run, finishAll } = recordingRun((items) => items.includes('bad'));
    const submit = batcher(run, { max: 10, inFlight: 1 });
    const first = submit('bad').catch((error: Error) => error.message);
    await finishAll();
    expect(await first).toBe('refused bad');
    const later = submit('e');
    await finishAll();
    expect(await later).toBe('E');
  });

  it('does not run the items of a batch again when the store is unavailable, and fails what queued behind it too', async () => {
    const calls: string[][] = [];
    let fail: (error: Error) => void = () => {};
    const submit = batcher(
      (items: string[]) => {
        calls.push(items);
        return new Promise<string[]>((_, reject) => (fail = reject));
      },
      { max: 2, inFlight: 1 },
    );
    const settled = Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map(submit));
    fail(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(calls).toEqual([['a']]);
  });

  it('runs a batch the store aborted for a deadlock or a serialization failure again as it was', async () => {
    const calls: string[][] = [];
    const aborts = [
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' }),
    ];
    const submit = batcher(
      async (items: string[]) => {
        calls.push(items);
        const abort = aborts.shift();
        if (abort) throw abort;
        return items.map((i) => i.toUpperCase());
      },
      { max: 10, inFlight: 1 },
    );
    expect(await submit('a')).toBe('A');
    expect(calls).toEqual([['a'], ['a'], ['a']]);
  });
});
