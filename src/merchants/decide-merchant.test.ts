// The operators' decisions on a merchant through the approval state machine: every move from every
// status, allowed or refused, its audit entry, and races between two operators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantIn, validApplication } from '../../test/merchant-approval.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR, type Actor } from '../audit/audit-entry.js';
import { listAudit } from '../audit/audit-store.js';
import { AppError } from '../http/errors.js';
import { applyForLive } from './apply-for-live.js';
import { approvalMoves, canMoveMerchant, type ApprovalMove } from './approval-state-machine.js';
import { changeMerchantFee } from './change-merchant-fee.js';
import { approveMerchant, reactivateMerchant, rejectMerchant, suspendMerchant } from './decide-merchant.js';
import { approvalStatuses, type ApprovalStatus } from './merchant.js';
import { findMerchantByIdx } from './merchant-store.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const operator: Actor = { kind: 'operator', id: 7, label: 'ops@example.com' };

const decisions: Record<Exclude<ApprovalMove, 'apply'>, (merchantIdx: string) => Promise<unknown>> = {
  approve: (merchantIdx) => approveMerchant(t.ctx, { actor: operator, merchantIdx, reason: 'Documents checked.' }),
  reject: (merchantIdx) => rejectMerchant(t.ctx, { actor: operator, merchantIdx, reason: 'The PAN is not registered.' }),
  suspend: (merchantIdx) => suspendMerchant(t.ctx, { actor: operator, merchantIdx, reason: 'Chargebacks.' }),
  reactivate: (merchantIdx) => reactivateMerchant(t.ctx, { actor: operator, merchantIdx }),
};

const statusOf = async (idx: string) => (await findMerchantByIdx(t.db, idx))!.status;
const auditOf = (idx: string) => listAudit(t.db, { objectType: 'merchant', objectId: idx, limit: 20 });

describe('the approval state machine', () => {
  const cases = approvalStatuses.flatMap((from) => (Object.keys(decisions) as (keyof typeof decisions)[]).map((move) => ({ from, move })));

  it.each(cases)('$move from $from', async ({ from, move }) => {
    const { merchant } = await merchantIn(t.ctx, from);
    const auditBefore = await auditOf(merchant.idx);
    const attempt = decisions[move](merchant.idx);
    if (canMoveMerchant(from, move)) {
      await expect(attempt).resolves.toMatchObject({ idx: merchant.idx, status: approvalMoves[move].to });
      expect(await statusOf(merchant.idx)).toBe(approvalMoves[move].to);
      const [entry] = await auditOf(merchant.idx);
      expect(entry).toMatchObject({
        actor: operator,
        action: `merchant.${move}`,
        object: { type: 'merchant', id: merchant.idx },
        before: { status: from },
        after: { status: approvalMoves[move].to },
      });
      expect(await auditOf(merchant.idx)).toHaveLength(auditBefore.length + 1);
    } else {
      const error = await attempt.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'conflict', status: 409 });
      expect((error as AppError).message).toContain(`This merchant is ${from}`);
      expect(await statusOf(merchant.idx)).toBe(from);
      expect(await auditOf(merchant.idx)).toHaveLength(auditBefore.length);
    }
  });

  it('allows exactly the moves of the vocabulary', () => {
    const allowed = approvalStatuses.flatMap((from) => (Object.keys(approvalMoves) as ApprovalMove[]).filter((m) => canMoveMerchant(from, m)).map((m) => `${from} -${m}-> ${approvalMoves[m].to}`));
    expect(allowed.sort()).toEqual(
      ['new -apply-> applied', 'rejected -apply-> applied', 'applied -approve-> approved', 'applied -reject-> rejected', 'approved -suspend-> suspended', 'suspended -reactivate-> approved'].sort(),
    );
  });

  it('two operators approving at once: one wins, the other is told, one audit entry', async () => {
    const { merchant } = await merchantIn(t.ctx, 'applied');
    const results = await Promise.allSettled([decisions.approve(merchant.idx), decisions.approve(merchant.idx), decisions.reject(merchant.idx)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
    const entries = await auditOf(merchant.idx);
    expect(entries.filter((e) => e.action === 'merchant.approve' || e.action === 'merchant.reject')).toHaveLength(1);
    expect(await statusOf(merchant.idx)).toBe(entries[0].after!.status);
  });

  it('a rejection or suspension needs a reason, and the merchant is shown it', async () => {
    const { merchant } = await merchantIn(t.ctx, 'applied');
    for (const reason of ['', '   ']) {
      await expect(rejectMerchant(t.ctx, { actor: operator, merchantIdx: merchant.idx, reason })).rejects.toMatchObject({ code: 'validation_error', fields: { reason: [expect.stringContaining('reason')] } });
    }
    await expect(rejectMerchant(t.ctx, { actor: operator, merchantIdx: merchant.idx, reason: 'x'.repeat(501) })).rejects.toMatchObject({ code: 'validation_error' });
    expect(await statusOf(merchant.idx)).toBe('applied');
    const rejected = await rejectMerchant(t.ctx, { actor: operator, merchantIdx: merchant.idx, reason: '  The PAN is not registered.  ' });
    expect(rejected).toMatchObject({ status: 'rejected', status_reason: 'The PAN is not registered.' });
    expect((await auditOf(merchant.idx))[0].reason).toBe('The PAN is not registered.');
  });

  it('an unknown merchant is not found', async () => {
    await expect(approveMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: 'NoSuchMerchant' })).rejects.toMatchObject({ code: 'not_found', message: 'No merchant has idx NoSuchMerchant.' });
    await expect(changeMerchantFee(t.ctx, { actor: CLI_ACTOR, merchantIdx: 'NoSuchMerchant', feeBps: 10 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a rejected merchant applies again with corrected details and clears the old reason', async () => {
    const { merchant } = await merchantIn(t.ctx, 'rejected');
    const again = await applyForLive(t.ctx, { merchantIdx: merchant.idx, application: validApplication({ pan_number: '601234568' }) });
    expect(again).toMatchObject({ status: 'applied', status_reason: null });
    const [details] = await t.db.query<{ pan_number: string }>('SELECT pan_number FROM merchant_business_details WHERE merchant_id = $1', [merchant.id]);
    expect(details.pan_number).toBe('601234568');
  });

  it('an applied, approved or suspended merchant cannot apply', async () => {
    for (const status of ['applied', 'approved', 'suspended'] as ApprovalStatus[]) {
      const { merchant } = await merchantIn(t.ctx, status);
      await expect(applyForLive(t.ctx, { merchantIdx: merchant.idx, application: validApplication() })).rejects.toMatchObject({ code: 'conflict' });
      expect(await statusOf(merchant.idx)).toBe(status);
    }
  });

  it('an application with bad fields names every one and changes nothing', async () => {
    const { merchant } = await merchantIn(t.ctx, 'new');
    const error = await applyForLive(t.ctx, { merchantIdx: merchant.idx, application: validApplication({ pan_number: '12345', phone: 'call me', website: 'tea.example', business_type: 'Empire', account_number: '12', legal_name: '' }) }).catch((e) => e);
    expect(error).toMatchObject({ code: 'validation_error' });
    expect(Object.keys((error as AppError).fields!).sort()).toEqual(['account_number', 'business_type', 'legal_name', 'pan_number', 'phone', 'website']);
    expect(await statusOf(merchant.idx)).toBe('new');
    expect(await t.db.query('SELECT 1 FROM merchant_business_details WHERE merchant_id = $1', [merchant.id])).toEqual([]);
  });
});

describe('changing the fee', () => {
  it('applies to new payments and is audited with the fee before and after', async () => {
    const created = await newMerchant(t.ctx, { fee_bps: 300 });
    const changed = await changeMerchantFee(t.ctx, { actor: operator, merchantIdx: created.merchant.idx, feeBps: '150', reason: 'Volume discount.' });
    expect(changed.fee_bps).toBe(150);
    const [entry] = await auditOf(created.merchant.idx);
    expect(entry).toMatchObject({ action: 'merchant.fee', reason: 'Volume discount.', before: { fee_bps: 300 }, after: { fee_bps: 150 } });
    const initiated = await t.app.inject({ method: 'POST', url: '/api/v2/epayment/initiate/', headers: { authorization: `Key ${created.test_secret_key}` }, payload: { return_url: 'https://shop.example.com/r', website_url: 'https://shop.example.com', amount: 10000, purchase_order_id: 'fee-1', purchase_order_name: 'x' } });
    expect(initiated.statusCode).toBe(200);
    const [payment] = await t.db.query<{ fee: string | number }>('SELECT fee FROM payments WHERE pidx = $1', [initiated.json().pidx]);
    expect(Number(payment.fee)).toBe(150);
  });

  it('refuses a fee outside 0..10000 bps', async () => {
    const created = await newMerchant(t.ctx);
    for (const feeBps of [-1, 10001, 'lots']) {
      await expect(changeMerchantFee(t.ctx, { actor: operator, merchantIdx: created.merchant.idx, feeBps })).rejects.toMatchObject({ code: 'validation_error', fields: { fee_bps: expect.any(Array) } });
    }
    expect((await findMerchantByIdx(t.db, created.merchant.idx))!.fee_bps).toBe(300);
  });
});
