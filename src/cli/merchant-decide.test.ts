// `bhuktani merchant approve|reject|suspend|reactivate|fee`, run as real processes on one data
// directory: exit codes, messages, and the audit entries they leave (as the CLI actor).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validApplication } from '../../test/merchant-approval.js';
import { runCli, tempDir } from '../../test/processes.js';
import { cryptoIds, systemClock } from '../clock.js';
import { listAudit } from '../audit/audit-store.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { openDb } from '../db/open.js';
import { applyForLive } from '../merchants/apply-for-live.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { findMerchantByIdx } from '../merchants/merchant-store.js';

const PROCESS_TIMEOUT = 300_000;

const dir = tempDir('bhuktani-decide-');
const env = { DATA_DIR: dir.path };
afterAll(() => dir.remove());

/** The data directory's store, opened between commands (a command holds its lock while it runs). */
async function withStore<T>(work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATA_DIR: dir.path });
  const db = await openDb(config, 'command');
  try {
    return await work({ db, clock: systemClock, ids: cryptoIds, config } as AppContext);
  } finally {
    await db.close();
  }
}

let approvedIdx: string;
let appliedIdx: string;

beforeAll(async () => {
  const created = await runCli(['merchant', 'create', '--name', 'Tea House', '--email', 'tea@example.com', '--password', 'correct horse battery', '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  approvedIdx = JSON.parse(created.stdout).idx;
  appliedIdx = await withStore(async (ctx) => {
    const signedUp = await createMerchant(ctx, { name: 'Momo Stall', email: 'momo@example.com', password: 'correct horse battery' }, { status: 'new' });
    await applyForLive(ctx, { merchantIdx: signedUp.merchant.idx, application: validApplication() });
    return signedUp.merchant.idx;
  });
}, PROCESS_TIMEOUT);

describe('bhuktani merchant approve|reject|suspend|reactivate|fee', () => {
  it(
    'merchant create still makes an approved merchant; approve moves an applied one, audited as the CLI',
    async () => {
      expect(await withStore(async (ctx) => (await findMerchantByIdx(ctx.db, approvedIdx))!.status)).toBe('approved');
      const approved = await runCli(['merchant', 'approve', appliedIdx, '--reason', 'Documents checked.'], env);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toBe(`Merchant Momo Stall (idx ${appliedIdx}) is now approved.\n`);
      const [entry] = await withStore((ctx) => listAudit(ctx.db, { objectId: appliedIdx, limit: 5 }));
      expect(entry).toMatchObject({ actor: { kind: 'cli', label: 'cli' }, action: 'merchant.approve', reason: 'Documents checked.', before: { status: 'applied' }, after: { status: 'approved' } });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'suspend needs --reason (exit 2), suspends with one, refuses twice (exit 1); reactivate undoes it',
    async () => {
      const bare = await runCli(['merchant', 'suspend', approvedIdx], env);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('bhuktani: --reason is required');
      expect(bare.stderr).toContain('usage: bhuktani merchant suspend IDX --reason R');

      const suspended = await runCli(['merchant', 'suspend', approvedIdx, '--reason', 'Chargebacks under review.', '--json'], env);
      expect(suspended.code, suspended.stderr).toBe(0);
      expect(JSON.parse(suspended.stdout)).toMatchObject({ idx: approvedIdx, status: 'suspended', status_reason: 'Chargebacks under review.' });

      const again = await runCli(['merchant', 'suspend', approvedIdx, '--reason', 'Again.'], env);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr).toBe('bhuktani: This merchant is suspended; only a merchant that is approved can be suspended.\n');

      const reactivated = await runCli(['merchant', 'reactivate', approvedIdx], env);
      expect(reactivated.code, reactivated.stderr).toBe(0);
      expect(reactivated.stdout).toContain('is now approved.');
      const entries = await withStore((ctx) => listAudit(ctx.db, { objectId: approvedIdx, limit: 5 }));
      expect(entries.map((e) => e.action)).toEqual(['merchant.reactivate', 'merchant.suspend']);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'reject of an approved merchant, an unknown idx and a missing idx are refused clearly',
    async () => {
      const reject = await runCli(['merchant', 'reject', approvedIdx, '--reason', 'No.'], env);
      expect(reject.code).toBe(1);
      expect(reject.stderr).toContain('bhuktani: This merchant is approved; only a merchant that is applied can be rejected.');
      const unknown = await runCli(['merchant', 'approve', 'NoSuchMerchant'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('bhuktani: No merchant has idx NoSuchMerchant.');
      const missing = await runCli(['merchant', 'approve'], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('give exactly one merchant IDX');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'fee sets the bps for new payments, audited; a bad value names --bps',
    async () => {
      const fee = await runCli(['merchant', 'fee', approvedIdx, '--bps', '125', '--json'], env);
      expect(fee.code, fee.stderr).toBe(0);
      expect(JSON.parse(fee.stdout)).toMatchObject({ idx: approvedIdx, fee_bps: 125 });
      const bad = await runCli(['merchant', 'fee', approvedIdx, '--bps', '20000'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('bhuktani: --bps: Ensure this value is less than or equal to 10000.');
      const [entry] = await withStore((ctx) => listAudit(ctx.db, { objectId: approvedIdx, action: 'merchant.fee', limit: 5 }));
      expect(entry).toMatchObject({ actor: { kind: 'cli' }, before: { fee_bps: 300 }, after: { fee_bps: 125 } });
    },
    PROCESS_TIMEOUT,
  );
});
