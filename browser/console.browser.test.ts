// The operator console in headless Chromium, used as staff use it: an admin signs in with password
// and TOTP (codes computed from the secret, as the app would), invites a second operator, who opens
// the e-mailed link (written to the log: no SMTP in tests), chooses a password, enrols from the QR
// page and gets recovery codes; the admin runs the ledger check and finds both actions in the audit
// log. Then pictures of the console pages on a phone and a desktop in browser/screenshots/.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/people/totp.js';
import { merchantApi, validInitiate } from '../test/api-client.js';
import { invitationLinkFor, newOperator, type TestOperator } from '../test/console-client.js';
import { merchantIn } from '../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../test/portal-client.js';
import { requestPayout } from '../src/settlements/request-payout.js';
import { browserSuite, DESKTOP, SCREENS, screenshot } from './harness.js';

// A store of its own: the audit log an operator reads is the whole store's, and the test counts in it.
const suite = browserSuite({ merchantName: 'Console harness merchant', shop: false, ownDb: true });
const person = (viewport: { width: number; height: number } = DESKTOP) => suite.person({ viewport });

let admin: TestOperator;
beforeAll(async () => {
  admin = await newOperator(suite.service.t.ctx, 'admin');
});

const codeNow = (secret: string) => totpCode(secret, suite.service.t.clock.now());

async function signIn(page: Page, operator: TestOperator) {
  await page.goto(`${suite.service.origin}/console`);
  expect(new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(codeNow(operator.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console');
}

describe('an operator’s day in the console', () => {
  it('signs in with TOTP, invites an operator who enrols from the e-mailed link, and finds both in the audit log', async () => {
    const { page } = await person();
    await signIn(page, admin);
    expect(await page.locator('.console-brand').innerText()).toContain('Operator console');

    await page.getByRole('link', { name: 'Operators' }).click();
    const email = `browser-invited-${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.locator('form[action="/console/operators/invite"] select[name=role]').selectOption('support');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => page.locator('.notice.ok').innerText()).toContain('Invitation sent');

    const link = invitationLinkFor(suite.service.t.logs, email)!;
    expect(link).toBeDefined();
    const invited = (await person()).page;
    await invited.goto(`${suite.service.origin}${link}`);
    await invited.getByLabel('Password', { exact: true }).fill('invited person password');
    await invited.getByLabel('Password again').fill('invited person password');
    await invited.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => new URL(invited.url()).pathname).toBe('/console/enrol');
    expect(await invited.locator('.qr svg').count()).toBe(1);
    await screenshot(invited, 'console-enrol-desktop');
    const secret = (await invited.locator('code.secret').getAttribute('data-secret'))!;
    await invited.getByLabel('Code from the app').fill(codeNow(secret));
    await invited.getByRole('button', { name: 'Confirm' }).click();
    expect(await invited.locator('ol.recovery-codes li').count()).toBe(10);
    await screenshot(invited, 'console-recovery-codes-desktop');
    await invited.getByRole('link', { name: 'Continue to the console' }).click();
    expect(await invited.locator('.who').innerText()).toContain(email);
    // Support has no Operators page: not in the menu, and refused when asked.
    expect(await invited.getByRole('link', { name: 'Operators' }).count()).toBe(0);
    const refused = await invited.goto(`${suite.service.origin}/console/operators`);
    expect(refused?.status()).toBe(403);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Run the ledger check now' }).click();
    await expect.poll(() => page.locator('[data-ledger]').getAttribute('data-ledger')).toBe('passed');

    await page.getByRole('link', { name: 'Audit log' }).click();
    const log = await page.locator('table').innerText();
    expect(log).toContain('operator.invite');
    expect(log).toContain('operator.join');
    expect(log).toContain('ledger.verify');
    await page.getByLabel('Action').fill('operator.join');
    await page.getByRole('button', { name: 'Filter' }).click();
    const joined = await page.locator('tbody tr').allInnerTexts();
    expect(joined).toHaveLength(1);
    expect(joined[0]).toContain(email);
  });

  it('works without JavaScript: signs in and signs out', async () => {
    suite.service.t.clock.advance(30);
    const p = await suite.person({ javaScriptEnabled: false });
    await signIn(p.page, admin);
    await p.page.getByRole('button', { name: 'Sign out' }).click();
    expect(new URL(p.page.url()).pathname).toBe('/console/login');
    await p.page.goto(`${suite.service.origin}/console/audit`);
    expect(new URL(p.page.url()).pathname).toBe('/console/login');
  });

  it("the overview's Needs attention figures take one line each, beside their labels, on a desktop and on a phone", async () => {
    // A live payout of more than a crore waiting for export: the widest figure the panel shows.
    const t = suite.service.t;
    const shop = await merchantIn(t.ctx, 'approved');
    const amount = 1_234_567_890;
    const payer = await operatorWallet(t.ctx, { balance: amount });
    const { body } = await merchantApi(t.app, shop.live_secret_key).initiate(validInitiate({ amount }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
    await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'live', requestedBy: 'api' });

    for (const [name, viewport] of SCREENS) {
      suite.service.t.clock.advance(30);
      const { page } = await person(viewport);
      await signIn(page, admin);
      expect(await page.locator('[data-figure="payouts-requested"]').innerText()).toMatch(/^1 · Rs\. \d,\d\d,\d\d,\d{3}\.\d\d$/);
      const attention = page.locator('section', { has: page.getByRole('heading', { name: 'Needs attention' }) });
      const rows = await attention.locator('dd').evaluateAll((figures) =>
        figures.map((dd) => {
          // The lines the figure's text takes: one box per line.
          const text = document.createRange();
          text.selectNodeContents(dd);
          const lineTops = new Set([...text.getClientRects()].map((box) => Math.round(box.top)));
          const labelText = document.createRange();
          labelText.selectNodeContents(dd.previousElementSibling!);
          const firstLabelLine = Math.round(labelText.getClientRects()[0].top);
          return { figure: dd.textContent, lines: lineTops.size, besideLabel: [...lineTops][0] === firstLabelLine };
        }),
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows, name).toEqual(rows.map((row) => ({ figure: row.figure, lines: 1, besideLabel: true })));
      await screenshot(page, `console-overview-attention-${name}`);
    }
  });

  it('the Providers page shows every provider’s figures and its Enable/Disable button within the screen, on a phone and a desktop', async () => {
    for (const [name, viewport] of SCREENS) {
      suite.service.t.clock.advance(30);
      const { page } = await person(viewport);
      await signIn(page, admin);
      await page.goto(`${suite.service.origin}/console/providers`);
      const cards = page.locator('article.provider-card');
      expect(await cards.count()).toBeGreaterThanOrEqual(3);
      // Nothing of a card lies beyond the screen's right edge, nor in a region scrolled sideways.
      const outside = await cards.evaluateAll((all) =>
        all.flatMap((card) =>
          [...card.querySelectorAll('dd, button')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => `${card.getAttribute('data-provider')}: ${e.textContent}`),
        ),
      );
      expect(outside, name).toEqual([]);
      for (const figure of ['fees', 'refunds-due']) expect(await cards.first().locator(`[data-figure="${figure}"]`).isVisible()).toBe(true);
      expect(await cards.first().getByRole('button', { name: 'Disable' }).isVisible()).toBe(true);
      // The set-up forms read as forms: labelled for people, no wider than a form reads.
      await page.getByText('connectIPS', { exact: true }).last().click();
      const gateway = page.getByLabel('Gateway URL (the payer’s login page)');
      await gateway.waitFor();
      expect((await gateway.boundingBox())!.width).toBeLessThanOrEqual(36 * 16);
      await screenshot(page, `console-providers-${name}`);
    }
  });

  it('pictures of the console on a phone and a desktop', async () => {
    for (const [name, viewport] of SCREENS) {
      suite.service.t.clock.advance(30);
      const { page } = await person(viewport);
      await page.goto(`${suite.service.origin}/console/login`);
      await screenshot(page, `console-login-${name}`);
      await signIn(page, admin);
      for (const [shot, path] of [
        ['overview', '/console'],
        ['operators', '/console/operators'],
        ['audit', '/console/audit'],
        ['account', '/console/account'],
      ]) {
        await page.goto(`${suite.service.origin}${path}`);
        await screenshot(page, `console-${shot}-${name}`);
      }
    }
  });
});
