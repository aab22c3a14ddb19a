// Automatic payouts: the merchant chooses a schedule on the Settlements page, and the periodic job
// requests one payout per period once the minimum is available, moved along by the test clock;
// several runs at once (as several instances would) still make one payout a period.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantBrowser, pageText, paidPayment } from '../../test/dashboard-client.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { suspendMerchant } from '../merchants/decide-merchant.js';
import { choosePayoutSchedule } from './choose-payout-schedule.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { localDay } from '../local-days.js';
import { claimSchedulePeriod } from './payout-schedule-store.js';
import { requestPayout } from './request-payout.js';
import { runPayoutSchedules } from './run-payout-schedules.js';
import { settlementBalance } from './settlement-balance.js';

// Its own database: the job acts on every schedule of the store.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

const DAY = 24 * 3600;

async function shop(amounts: number[]) {
  const browser = merchantBrowser(t.app);
  const { fields, keys } = await browser.signUp();
  const [{ id }] = await t.db.query<{ id: number }>('SELECT id FROM merchants WHERE email = $1', [fields.email]);
  for (const amount of amounts) await paidPayment(t.app, keys.test, { amount });
  return { browser, keys, id, owner: { merchantId: id, environment: 'test' as const } };
}

async function chooseSchedule(browser: ReturnType<typeof merchantBrowser>, fields: Record<string, string>) {
  await browser.get('/dashboard/settlements');
  return browser.post('/dashboard/settlements/schedule', fields);
}

const refusals: unknown[] = [];
const run = () => runPayoutSchedules(t.ctx, (_merchantId, error) => refusals.push(error));
const scheduledPayouts = (merchantId: number) =>
  t.db.query<{ amount: number; requested_by: string; period_start: string }>(
    `SELECT p.amount, p.requested_by, to_char(s.period_start, 'YYYY-MM-DD') AS period_start
       FROM payouts p LEFT JOIN scheduled_payouts s ON s.payout_id = p.id WHERE p.merchant_id = $1 ORDER BY p.id`,
    [merchantId],
  );
const today = () => localDay(t.clock.now(), t.ctx.config.timeZone);

describe('choosing a schedule', () => {
  it('saves daily or weekly with a minimum, names each wrong field, and turns off', async () => {
    const { browser } = await shop([]);
    expect(pageText((await browser.get('/dashboard/settlements')).body)).toContain('Off: payouts are made only when you request them.');

    const daily = await chooseSchedule(browser, { frequency: 'daily', weekday: '5', minimum_amount: '1,000.50' });
    expect(daily.status).toBe(303);
    expect(daily.location).toBe('/dashboard/settlements?done=schedule');
    expect(pageText((await browser.get('/dashboard/settlements')).body)).toContain('Daily, when at least Rs. 1,000.50 is available.');

    const weekly = await chooseSchedule(browser, { frequency: 'weekly', weekday: '5', minimum_amount: '' });
    expect(weekly.status).toBe(303);
    expect(pageText((await browser.get('/dashboard/settlements')).body)).toContain('Weekly on Friday, whatever is available.');

    const wrong = await chooseSchedule(browser, { frequency: 'weekly', weekday: '9', minimum_amount: 'lots' });
    expect(wrong.status).toBe(400);
    expect(pageText(wrong.body)).toContain('Choose the day of the week.');
    expect(pageText(wrong.body)).toContain('Enter an amount in rupees');
    expect(wrong.body).toContain('value="lots"');
    expect((await chooseSchedule(browser, { frequency: 'hourly', minimum_amount: '0' })).status).toBe(400);
    // Nothing changed by the refused posts.
    expect(pageText((await browser.get('/dashboard/settlements')).body)).toContain('Weekly on Friday, whatever is available.');

    expect((await chooseSchedule(browser, { frequency: 'none' })).status).toBe(303);
    expect(pageText((await browser.get('/dashboard/settlements')).body)).toContain('Off: payouts are made only when you request them.');
  });
});

describe('the schedule job', () => {
  it('daily: waits for the minimum, pays out once a day, and again the next day', async () => {
    const { browser, keys, id, owner } = await shop([10_000]);
    expect((await chooseSchedule(browser, { frequency: 'daily', minimum_amount: '150' })).status).toBe(303);

    await run();
    expect(await scheduledPayouts(id)).toEqual([]);

    await paidPayment(t.app, keys.test, { amount: 10_000 });
    await run();
    expect(await scheduledPayouts(id)).toEqual([{ amount: 19_400, requested_by: 'schedule', period_start: today() }]);
    expect(await settlementBalance(t.ctx, owner)).toMatchObject({ available: 0, clearing: 19_400 });

    // More money the same day: this period has had its payout.
    await paidPayment(t.app, keys.test, { amount: 20_000 });
    await run();
    expect(await scheduledPayouts(id)).toHaveLength(1);

    t.clock.advance(DAY);
    await run();
    expect((await scheduledPayouts(id)).map((p) => [p.amount, p.period_start])).toEqual([
      [19_400, localDay(new Date(t.clock.now().getTime() - DAY * 1000), t.ctx.config.timeZone)],
      [19_400, today()],
    ]);
  });

  it('weekly: not before its day, then once for the week', async () => {
    const { browser, id } = await shop([10_000]);
    const tomorrow = (new Date(`${today()}T00:00:00Z`).getUTCDay() + 1) % 7;
    expect((await chooseSchedule(browser, { frequency: 'weekly', weekday: String(tomorrow), minimum_amount: '0' })).status).toBe(303);
    await run();
    expect(await scheduledPayouts(id)).toEqual([]);
    t.clock.advance(DAY);
    await run();
    await run();
    expect(await scheduledPayouts(id)).toEqual([{ amount: 9_700, requested_by: 'schedule', period_start: today() }]);
  });

  it('makes one payout a period when several instances run it at once', async () => {
    const { browser, id } = await shop([10_000, 10_000, 10_000]);
    expect((await chooseSchedule(browser, { frequency: 'daily', minimum_amount: '0' })).status).toBe(303);
    const before = refusals.length;
    const made = await Promise.all(Array.from({ length: 6 }, run));
    expect(made.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await scheduledPayouts(id)).toEqual([{ amount: 29_100, requested_by: 'schedule', period_start: today() }]);
    // The runs that lost found the period paid: nothing to report.
    expect(refusals.length).toBe(before);
  });

  it('refuses a second payout of a claimed period: its payout rolls back with the claim', async () => {
    const { id, owner } = await shop([10_000]);
    const claim = (amount: number) =>
      requestPayout(t.ctx, {
        ...owner,
        amount,
        requestedBy: 'schedule',
        inTransaction: async (tx, payout) => {
          if (!(await claimSchedulePeriod(tx, { ...owner, periodStart: today(), payoutId: payout.id, now: t.clock.now() }))) throw new Error('period taken');
        },
      });
    await claim(5_000);
    await expect(claim(1_000)).rejects.toThrow('period taken');
    expect(await scheduledPayouts(id)).toEqual([{ amount: 5_000, requested_by: 'schedule', period_start: today() }]);
    expect(await settlementBalance(t.ctx, owner)).toMatchObject({ available: 4_700, clearing: 5_000 });
  });

  it('skips a merchant its request refuses (live, suspended) and goes on with the others', async () => {
    const suspended = await merchantIn(t.ctx, 'approved');
    const payer = await operatorWallet(t.ctx, { balance: 100_000 });
    const { body } = await merchantApi(t.app, suspended.live_secret_key).initiate(validInitiate({ amount: 10_000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
    await choosePayoutSchedule(t.ctx, { merchantId: suspended.merchant.id, environment: 'live', choice: { frequency: 'daily', minimumAmount: 0 } });
    await suspendMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: suspended.merchant.idx, reason: 'Chargebacks under review.' });
    const paying = await shop([10_000]);
    expect((await chooseSchedule(paying.browser, { frequency: 'daily', minimum_amount: '0' })).status).toBe(303);

    const before = refusals.length;
    await run();
    expect(await scheduledPayouts(suspended.merchant.id)).toEqual([]);
    expect(refusals.slice(before).map((e) => (e as Error).message)).toEqual([expect.stringMatching(/suspended/i)]);
    expect(await scheduledPayouts(paying.id)).toHaveLength(1);
    expect(await settlementBalance(t.ctx, { merchantId: suspended.merchant.id, environment: 'live' })).toMatchObject({ available: 9_700, clearing: 0 });
  });
});
