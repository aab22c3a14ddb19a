// Lookups on a new store, before and after a burst of initiates: the plans a new store's
// first requests make must still serve once the tables have grown. A service on a database of its
// own, created for the run: lookups of its first 20 payments, then initiates (tens of thousands of
// payments), then the same lookups again; the second lookup round against the first. Autovacuum is
// off for `payments` here: whether its minute falls between the rounds (and its ANALYZE makes every
// plan anew) must not decide the figure. The rounds after the burst run once its writes have settled
// (a CHECKPOINT has written them out: the lookups are not measured against the flush of tens of
// thousands of rows). Before and after, three pairs alternate a run of the SELECT reference and a
// run of lookups (3 s each after 1 s of warm-up); a side's figure is the median of its pairs'
// lookups ÷ SELECT, and the figure is after ÷ before: a machine shared with other work, faster or
// slower between runs, moves both runs of a pair alike, and one slow run moves no median.
import { lookupRun, preparePayments, type LookupRun } from './lookup.js';
import { client } from './http.js';
import { initiateRun, type InitiateRun } from './initiate.js';
import { admin, recreateDatabase } from './postgres.js';
import { createMerchant, startService } from './service.js';
import { selectRoute, type ReferenceRun, type ReferenceServer } from './references.js';
import { databaseUrl, pg } from './settings.js';

export interface NewStoreRun {
  /** The pair of each side whose lookups ÷ SELECT is the side's median. */
  before: LookupRun;
  initiate: InitiateRun;
  after: LookupRun;
  /** The SELECT reference run of those pairs, just before their lookups. */
  selectBefore: ReferenceRun;
  selectAfter: ReferenceRun;
  /** Every pair's lookups ÷ SELECT, before and after the burst. */
  pairRatios: { before: number[]; after: number[] };
  /** The median pair after ÷ the median pair before. */
  ratio: number;
  /** Payments in the store when the second lookup round started. */
  payments: number;
}

const PAIRS = 3;
const PAIR_SECONDS = { warmup: 1, measured: 3 };

/** Three pairs of a SELECT reference run and a lookup run; the pair of median ratio, and every ratio. */
async function pairs(reference: ReferenceServer, service: Awaited<ReturnType<typeof startService>>, key: string, pidxs: string[]) {
  const runs: { select: ReferenceRun; lookup: LookupRun; ratio: number }[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const select = await selectRoute(reference, PAIR_SECONDS);
    const lookup = await lookupRun(service, key, pidxs, PAIR_SECONDS);
    runs.push({ select, lookup, ratio: lookup.rps / select.rps });
  }
  const median = [...runs].sort((a, b) => a.ratio - b.ratio)[PAIRS >> 1];
  return { ...median, ratios: runs.map((r) => r.ratio) };
}

export async function newStoreRun(reference: ReferenceServer, log: (line: string) => void): Promise<NewStoreRun> {
  await recreateDatabase(pg.newStoreDb);
  const env = { DATABASE_URL: databaseUrl(pg.newStoreDb) };
  const service = await startService(env);
  try {
    const merchant = await createMerchant('Bench New Shop', (email) => admin(async (c) => Number((await c.query('SELECT id FROM merchants WHERE email = $1', [email])).rows[0].id), pg.newStoreDb), env);
    await admin((c) => c.query('ALTER TABLE payments SET (autovacuum_enabled = false)'), pg.newStoreDb);
    const api = client(service.port, 8);
    const pidxs = await preparePayments(api, merchant.liveKey, 20);
    api.close();
    const first = await pairs(reference, service, merchant.liveKey, pidxs);
    log(`  lookups on the new store: ${first.lookup.rps.toFixed(0)}/s, p50 ${first.lookup.p50} ms (SELECT ${first.select.rps.toFixed(0)}/s); pairs ${first.ratios.map((r) => r.toFixed(2)).join(', ')} × SELECT`);
    const initiate = await initiateRun(service, merchant.liveKey, 7);
    const payments = await admin(async (c) => Number((await c.query('SELECT count(*) FROM payments')).rows[0].count), pg.newStoreDb);
    log(`  initiates: ${initiate.rps.toFixed(0)}/s, ${payments} payments in the store`);
    await admin((c) => c.query('CHECKPOINT'), pg.newStoreDb);
    const again = await pairs(reference, service, merchant.liveKey, pidxs);
    const ratio = again.ratio / first.ratio;
    log(`  lookups again: ${again.lookup.rps.toFixed(0)}/s, p50 ${again.lookup.p50} ms (SELECT ${again.select.rps.toFixed(0)}/s); pairs ${again.ratios.map((r) => r.toFixed(2)).join(', ')} × SELECT: ${ratio.toFixed(2)} × the first round against the reference, ${(again.lookup.rps / first.lookup.rps).toFixed(2)} × unadjusted`);
    const [before, after, selectBefore, selectAfter] = [first.lookup, again.lookup, first.select, again.select];
    const pairRatios = { before: first.ratios, after: again.ratios };
    return { before, initiate, after, selectBefore, selectAfter, pairRatios, ratio, payments };
  } finally {
    await service.stop();
  }
}
