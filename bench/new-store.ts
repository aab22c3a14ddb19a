// Lookups on a new store, before and after a burst of initiates (issue 24): the plans a new store's
// first requests make must still serve once the tables have grown. A service on a database of its
// own, created for the run: lookups of its first 20 payments, then initiates (tens of thousands of
// payments), then the same lookups again; the second lookup round against the first. Autovacuum is
// off for `payments` here: whether its minute falls between the rounds (and its ANALYZE makes every
// plan anew) must not decide the figure. The second round runs once the burst's writes have settled
// (a CHECKPOINT has written them out: the lookups are not measured against the flush of tens of
// thousands of rows), and each round right after a run of the SELECT reference, so that the figure
// is the lookups' ratio to the reference after the burst against the same ratio before it: a machine
// shared with other work, faster or slower between the two rounds, moves both runs of a pair alike.
import { lookupRun, preparePayments, type LookupRun } from './lookup.js';
import { client } from './http.js';
import { initiateRun, type InitiateRun } from './initiate.js';
import { admin, recreateDatabase } from './postgres.js';
import { createMerchant, startService } from './service.js';
import { selectRoute, type ReferenceRun, type ReferenceServer } from './references.js';
import { databaseUrl, pg } from './settings.js';

export interface NewStoreRun {
  before: LookupRun;
  initiate: InitiateRun;
  after: LookupRun;
  /** The SELECT reference just before each lookup round. */
  selectBefore: ReferenceRun;
  selectAfter: ReferenceRun;
  /** (after ÷ its SELECT) ÷ (before ÷ its SELECT). */
  ratio: number;
  /** Payments in the store when the second lookup round started. */
  payments: number;
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
    const selectBefore = await selectRoute(reference);
    const before = await lookupRun(service, merchant.liveKey, pidxs);
    log(`  lookups on the new store: ${before.rps.toFixed(0)}/s, p50 ${before.p50} ms (SELECT ${selectBefore.rps.toFixed(0)}/s)`);
    const initiate = await initiateRun(service, merchant.liveKey, 7);
    const payments = await admin(async (c) => Number((await c.query('SELECT count(*) FROM payments')).rows[0].count), pg.newStoreDb);
    log(`  initiates: ${initiate.rps.toFixed(0)}/s, ${payments} payments in the store`);
    await admin((c) => c.query('CHECKPOINT'), pg.newStoreDb);
    const selectAfter = await selectRoute(reference);
    const after = await lookupRun(service, merchant.liveKey, pidxs);
    const ratio = after.rps / selectAfter.rps / (before.rps / selectBefore.rps);
    log(`  lookups again: ${after.rps.toFixed(0)}/s, p50 ${after.p50} ms (SELECT ${selectAfter.rps.toFixed(0)}/s): ${ratio.toFixed(2)} × the first round against the reference, ${(after.rps / before.rps).toFixed(2)} × unadjusted`);
    return { before, initiate, after, selectBefore, selectAfter, ratio, payments };
  } finally {
    await service.stop();
  }
}
