// The fault simulator's short run in `npm test`: a fixed set of seeds, each a schedule of payments
// (wallets, every provider's page and Fonepay's QR), refunds, returns genuine and forged, links,
// payouts and jobs on two instances, with faults at the providers and at the store, every invariant
// of both sides' books checked after each step and once drained. The seeds that found the money
// breaks it was built for are among them. `npm run test:faults -- --seeds N` runs more
// (docs/testing.md: how to replay a failing seed).
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/pglite.js';
import { readFileSync } from 'node:fs';
import { runSeed } from './run.js';
import { runStores, type StoreOpener } from './stores.js';

/**
 * Seeds that met, on the code before their fixes, the breaks the simulator was built to find: 1, a
 * Khalti refund made twice (the instance that sent it died after Khalti made it) and a payment held
 * Pending on an unknown answer to a return Khalti never signed; 7, forty forged returns at once making
 * 39 status checks at connectIPS, one of them answered with garbage and holding the payment.
 */
const FOUND = [1, 7, 13, 208];
const STEPS = Number(process.env.FAULT_STEPS ?? 100);
const SEEDS = process.env.FAULT_SEEDS ? process.env.FAULT_SEEDS.split(',').map(Number) : FOUND;

/** On PGlite, the run's migrated store (test/global-setup.ts) for every seed; on PostgreSQL, a schema each. */
const stores: StoreOpener = process.env.DATABASE_URL?.startsWith('postgres')
  ? runStores()
  : async () => {
      const db = await openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });
      return { db, drop: () => db.close() };
    };

/**
 * The payouts' profile (payouts through NPI under faults): seed 3 broke NPI's books at its step 35
 * when a posting whose answer was unclear went again under a new batch id (a payout failed while NPI
 * had credited it), the mistake the rail's design forbids. 60 steps: its break and more, in 3 s.
 */
const PAYOUT_SEEDS = [3];
const PAYOUT_STEPS = Number(process.env.FAULT_STEPS ?? 60);

describe('the fault simulator', () => {
  const cases = [...SEEDS.map((seed) => ['all', seed] as const), ...(process.env.FAULT_SEEDS ? [] : PAYOUT_SEEDS.map((seed) => ['payouts', seed] as const))];
  it.each(cases)('%s, seed %i: every invariant of both sides’ books holds', async (profile, seed) => {
    const steps = profile === 'all' ? STEPS : PAYOUT_STEPS;
    const report = await runSeed(seed, { steps, store: stores, profile });
    const replay = `npm run test:faults -- --seed ${seed} --steps ${steps}${profile === 'all' ? '' : ` --profile ${profile}`}`;
    expect(report.breaks, `seed ${seed} (replay: ${replay})\n${report.log.join('\n')}`).toEqual([]);
    // The faults met calls: a run that met none would prove nothing.
    expect(Object.values(report.injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
