// One run of the fault simulator: a seed's schedule played against a world of its own, the books
// checked after every step, then the run drained (faults off, held requests delivered, the jobs run
// while the clock moves on until nothing is due) and the books checked whole.
import type { Db } from '../../src/db/db.js';
import { expirySweep } from '../../src/jobs/expiry-sweep.js';
import { runPayoutRails } from '../../src/jobs/payout-rails-job.js';
import { reconcileAttempts } from '../../src/provider-payments/reconcile-attempts.js';
import { webhookSender } from '../../src/webhooks/webhook-sender.js';
import { askedTooOften, finalBreaks, paidReferences, stepBreaks } from './books.js';
import { Driver } from './operations.js';
import { describeStep, scheduleOf, type Profile, type Step } from './schedule.js';
import { openWorld, type World } from './world.js';

export interface RunReport {
  seed: number;
  steps: number;
  /** Faults that met a call, by boundary and kind. */
  injected: Record<string, number>;
  breaks: string[];
  /** The calls Bhuktani made to providers, by kind (start, status, refund), and by the fault each met. */
  calls: Record<string, number>;
  /** Forged returns sent in floods, and the status checks they caused at the providers. */
  forged: { returns: number; statusChecks: number; mostChecksInOneFlood: number };
  /** Each step as it went, for a failing seed's report. */
  log: string[];
}

export interface RunOptions {
  steps: number;
  /** A store of the run's own, and how to let go of it. */
  store: () => Promise<{ db: Db; drop(): Promise<void> }>;
  /** Replays only these steps of the schedule (by number), to narrow a failing seed down. */
  only?: (step: Step, index: number) => boolean;
  /** A schedule written out instead of the seed's (the seed still names the world's ids). */
  schedule?: Step[];
  /** Which operations the seed draws from: every one, or the payouts' (through NPI). */
  profile?: Profile;
}

/** How long the drain may go on: long enough for the reconciliation job's back-off to reach its limit. */
const DRAIN_ROUNDS = 30;
const DRAIN_STEP_SECONDS = 15 * 60;

export async function runSeed(seed: number, options: RunOptions): Promise<RunReport> {
  const schedule = options.schedule ?? scheduleOf(seed, options.steps, options.profile);
  const { db, drop } = await options.store();
  const world = await openWorld({ seed, db });
  const driver = new Driver(world);
  const log: string[] = [];
  const breaks: string[] = [];
  const forged = { returns: 0, statusChecks: 0, mostChecksInOneFlood: 0 };
  try {
    for (const [index, step] of schedule.entries()) {
      if (options.only && !options.only(step, index)) continue;
      world.serving = step.instance;
      const instance = world.instances[step.instance];
      instance.store.plan(step.faults.flatMap((f) => (f.at === 'store' ? [f] : [])));
      world.boundary.arm(step.faults.flatMap((f) => (f.at === 'provider' ? [f] : [])));
      let note: string;
      const met = faultsMet(world);
      const started = performance.now();
      try {
        const result = await driver.run(step);
        note = result.note;
        // A flood meeting no fault answers no 5xx.
        if (result.serverErrors && faultsMet(world) === met) breaks.push(`step ${index}: ${result.serverErrors} forged returns answered 5xx, no fault met`);
        if (result.flood) {
          forged.returns += result.flood.returns;
          forged.statusChecks += result.flood.statusChecks;
          forged.mostChecksInOneFlood = Math.max(forged.mostChecksInOneFlood, result.flood.statusChecks);
          if (result.flood.statusChecks > 1) breaks.push(`step ${index}: ${result.flood.returns} forged returns made ${result.flood.statusChecks} status checks at ${result.flood.provider} for one attempt at one moment`);
        }
      } catch (error) {
        note = `the driver failed: ${(error as Error).stack?.split('\n').slice(0, 3).join(' | ')}`;
        breaks.push(`step ${index}: ${note}`);
      }
      instance.store.plan([]);
      await world.restartDead();
      log.push(`${index}: ${describeStep(step)} → ${note} (${Math.round(performance.now() - started)} ms)`);
      // A break found after a step is reported once, at the first step it was seen after.
      for (const found of await stepBreaks(world)) if (!breaks.some((b) => b.endsWith(found))) breaks.push(`after step ${index}: ${found}`);
    }
    await drain(world);
    for (const found of await finalBreaks(world, driver)) if (!breaks.some((b) => b.endsWith(found))) breaks.push(found);
    breaks.push(...askedTooOften(world, await paidReferences(world)));
  } finally {
    await world.close();
    await drop();
  }
  const injected: Record<string, number> = {};
  for (const [kind, n] of world.boundary.injected) injected[`provider ${kind}`] = n;
  for (const [kind, n] of world.storeInjected) injected[`store ${kind}`] = n;
  const calls: Record<string, number> = {};
  for (const call of world.boundary.calls) {
    calls[call.kind] = (calls[call.kind] ?? 0) + 1;
    if (call.fault) calls[`${call.kind} ${call.fault}`] = (calls[`${call.kind} ${call.fault}`] ?? 0) + 1;
  }
  return { seed, steps: schedule.length, injected, calls, breaks: [...new Set(breaks)], forged, log };
}

const faultsMet = (world: World) => [...world.boundary.injected.values(), ...world.storeInjected.values()].reduce((a, b) => a + b, 0);

/** Faults off; the held requests delivered; the jobs run on a moving clock until nothing is due. */
async function drain(world: World): Promise<void> {
  world.serving = 0;
  world.boundary.disarm();
  world.clock.advance((world.boundary.lastDue() - world.clock.now().getTime()) / 1000);
  await world.boundary.deliverDue();
  const ctx = world.instances[0].ctx;
  const sender = webhookSender(ctx, { onError: () => {} });
  for (let round = 0; round < DRAIN_ROUNDS; round++) {
    world.clock.advance(DRAIN_STEP_SECONDS);
    const moved = (await reconcileAttempts(ctx)) + (await sender.runOnce()) + (await runPayoutRails(ctx)) + (await expirySweep(ctx, () => {}).runOnce());
    const [{ open }] = await world.db.query<{ open: number }>(
      `SELECT (SELECT count(*) FROM provider_attempts WHERE state IN ('Started', 'Unknown'))
            + (SELECT count(*) FROM provider_refunds WHERE state = 'Queued' AND next_try_at IS NOT NULL)
            + (SELECT count(*) FROM payouts p WHERE p.state IN ('Requested', 'Processing') AND p.waiting_reason IS NULL
                AND NOT EXISTS (SELECT FROM npi_transfers t WHERE t.payout_id = p.id AND t.needs_operator))
            + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS open`,
    );
    if (moved === 0 && Number(open) === 0) return;
  }
}
