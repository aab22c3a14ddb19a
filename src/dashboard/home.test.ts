// The home page's figures and chart, and the switch between test and live data that every page
// obeys and shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { merchantBrowser, pageText, paidPayment } from '../../test/dashboard-client.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { addDays, localDay } from '../local-days.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60;

/** Moves the clock to the next noon in TIME_ZONE, so "today" cannot tip over midnight during a test. */
function advanceToNoon() {
  const zone = t.ctx.config.timeZone;
  const today = localDay(t.clock.now(), zone);
  for (let minutes = 0; minutes < 48 * 60; minutes += 15) {
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(t.clock.now()));
    if (hour === 12 && localDay(t.clock.now(), zone) !== today) return;
    t.clock.advance(15 * 60);
  }
  throw new Error('no noon found');
}

const figure = (body: string, id: string) => pageText(new RegExp(`<div class="figure" data-testid="${id}">([\\s\\S]*?)</div>`).exec(body)![1]);
/** The bars of the wide chart (the narrow one, for phones, draws the same points). */
const bars = (body: string) => [...body.slice(body.indexOf('<div class="chart wide">'), body.indexOf('<div class="chart narrow">')).matchAll(/<rect class="bar[^"]*" data-day="([^"]+)" data-amount="(\d+)"/g)].map((m) => ({ day: m[1], amount: Number(m[2]) }));

describe('the home page', () => {
  it('shows the balance, today’s and this month’s volume and 30 days of daily volume, for the chosen environment', async () => {
    advanceToNoon();
    const browser = merchantBrowser(t.app);
    const { keys, fields } = await browser.signUp();
    await approveSignedUp(t.ctx, fields.email);
    const zone = t.ctx.config.timeZone;

    const longAgo = localDay(t.clock.now(), zone);
    await paidPayment(t.app, keys.test, { amount: 10_000 });
    t.clock.advance(35 * DAY);
    const yesterday = localDay(t.clock.now(), zone);
    await paidPayment(t.app, keys.test, { amount: 20_000 });
    await paidPayment(t.app, keys.test, { amount: 5_000 }, '9800000007'); // held: not volume
    t.clock.advance(DAY);
    const today = localDay(t.clock.now(), zone);
    const p4 = await paidPayment(t.app, keys.test, { amount: 30_000 });
    await paidPayment(t.app, keys.test, { amount: 40_000 });
    await refund(t.app, keys.test, p4.transactionId, { amount: 1_000 });
    // Live money is never in the test figures.
    const wallet = await operatorWallet(t.ctx, { balance: 1_000_000 });
    const { body: live } = await merchantApi(t.app, keys.live).initiate(validInitiate({ amount: 77_700 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, live.pidx, wallet)).status).toBe(303);

    expect((await browser.logIn(fields.email, fields.password)).status).toBe(303);
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    // (10000 − 300) + (20000 − 600) + (30000 − 900) + (40000 − 1200) − 1000 refunded
    expect(figure(home.body, 'balance')).toContain('Rs. 960.00');
    expect(figure(home.body, 'today-volume')).toContain('Rs. 700.00');
    expect(figure(home.body, 'today-volume')).toContain('2 payments');
    const sameMonth = yesterday.slice(0, 7) === today.slice(0, 7);
    expect(longAgo.slice(0, 7)).not.toBe(today.slice(0, 7));
    expect(figure(home.body, 'month-volume')).toContain(sameMonth ? 'Rs. 900.00' : 'Rs. 700.00');
    expect(figure(home.body, 'month-volume')).toContain(sameMonth ? '3 payments' : '2 payments');

    const chart = bars(home.body);
    expect(chart).toHaveLength(30);
    expect(chart[0].day).toBe(addDays(today, -29));
    expect(chart.at(-1)).toEqual({ day: today, amount: 70_000 });
    expect(chart.at(-2)).toEqual({ day: yesterday, amount: 20_000 });
    expect(chart.slice(0, -2).every((b) => b.amount === 0)).toBe(true);
    expect(home.body).toMatch(/<svg class="volume-chart" viewBox="0 0 \d+ \d+" role="img"/);
    const narrow = home.body.slice(home.body.indexOf('<div class="chart narrow">'));
    expect((narrow.match(/<rect class="bar/g) ?? []).length).toBe(30);
    expect(narrow).toContain(`data-day="${today}" data-amount="70000"`);
    expect(home.body).not.toMatch(/<script(?! src="\/assets\/dashboard\.[0-9a-f]{10}\.js")/);
    expect(home.body).not.toMatch(/style=/);
    // The latest records, as the list has them.
    expect((home.body.match(/<tr data-idx=/g) ?? []).length).toBe(5);

    await browser.useEnvironment('live');
    const liveHome = await browser.get('/dashboard');
    expect(figure(liveHome.body, 'balance')).toContain('Rs. 753.69'); // 77700 − 2331
    expect(figure(liveHome.body, 'today-volume')).toContain('Rs. 777.00');
    expect(bars(liveHome.body).at(-1)).toEqual({ day: today, amount: 77_700 });
    expect(bars(liveHome.body).slice(0, -1).every((b) => b.amount === 0)).toBe(true);
  });

  it('draws an empty chart for a new merchant', async () => {
    const browser = merchantBrowser(t.app);
    await browser.signUp();
    const home = await browser.get('/dashboard');
    expect(figure(home.body, 'balance')).toContain('Rs. 0.00');
    expect(bars(home.body).every((b) => b.amount === 0)).toBe(true);
    expect(pageText(home.body)).toContain('No completed payments yet');
  });
});

describe('the switch between test and live data', () => {
  const envBar = (body: string) => /<aside class="env-bar (test|live)"[^>]*>([\s\S]*?)<\/aside>/.exec(body);

  it('is on every page, amber TEST DATA or green LIVE DATA, and every list follows it', async () => {
    const browser = merchantBrowser(t.app);
    const { keys } = await browser.signUp();
    const testPayment = await paidPayment(t.app, keys.test);
    const pages = ['/dashboard', '/dashboard/transactions', '/dashboard/keys', `/dashboard/payments/${testPayment.pidx}`];
    for (const url of pages) {
      const bar = envBar((await browser.get(url)).body);
      expect(bar?.[1], url).toBe('test');
      expect(pageText(bar![2])).toContain('TEST DATA');
      expect(pageText(bar![2])).toContain('Switch to live data');
    }
    expect((await browser.get('/dashboard/transactions')).body).toContain(`data-pidx="${testPayment.pidx}"`);

    await browser.get('/dashboard/transactions');
    const switched = await browser.post('/dashboard/environment', { environment: 'live', back: '/dashboard/transactions?status=Completed' });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe('/dashboard/transactions');
    for (const url of pages.slice(0, 3)) {
      const bar = envBar((await browser.get(url)).body);
      expect(bar?.[1], url).toBe('live');
      expect(pageText(bar![2])).toContain('LIVE DATA');
    }
    const liveList = await browser.get('/dashboard/transactions');
    expect(liveList.body).not.toContain(testPayment.pidx);
    expect(pageText(liveList.body)).toContain('No transactions found.');
    expect((await browser.get('/dashboard/transactions.csv')).body.trim().split('\r\n')).toHaveLength(1);

  });

  it('goes back only to dashboard pages, and ignores an unknown environment', async () => {
    const browser = merchantBrowser(t.app);
    await browser.signUp();
    await browser.get('/dashboard');
    expect((await browser.post('/dashboard/environment', { environment: 'live', back: 'https://evil.example/' })).location).toBe('/dashboard');
    expect((await browser.post('/dashboard/environment', { environment: 'test', back: '/dashboard/keys' })).location).toBe('/dashboard/keys');
    expect((await browser.post('/dashboard/environment', { environment: 'live', back: '/dashboard/payments/abc' })).location).toBe('/dashboard/transactions');
    // From a form's answer (here the rotation's review), back to its section, not to the POST's address.
    await browser.get('/dashboard/keys');
    const review = await browser.post('/dashboard/keys/rotate', { environment: 'test', grace: '0' });
    expect(review.body).toContain('<input type="hidden" name="back" value="/dashboard/keys">');
    await browser.post('/dashboard/environment', { environment: 'production', back: '/dashboard' });
    expect(envBar((await browser.get('/dashboard')).body)?.[1]).toBe('live');
  });

  it('is kept per session: another log-in of the same merchant starts on test data', async () => {
    const browser = merchantBrowser(t.app);
    const { fields } = await browser.signUp();
    await browser.useEnvironment('live');
    const other = merchantBrowser(t.app);
    await other.logIn(fields.email, fields.password);
    expect(envBar((await other.get('/dashboard')).body)?.[1]).toBe('test');
    expect(envBar((await browser.get('/dashboard')).body)?.[1]).toBe('live');
  });
});
