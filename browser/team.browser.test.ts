// A merchant's team in headless Chromium (issue 17), with a real SMTP server in the test process
// receiving the e-mails: the owner signs up and invites a developer and a viewer from the team page;
// each follows the link in their e-mail, chooses a password and lands logged in. The developer sees
// the API keys but no refund form, and a refund posted by hand is refused; the viewer sees no form
// anywhere, and every write posted by hand (CSRF token included) is refused. The owner hears of each
// join by e-mail. Every page is watched for console errors, dialogs and requests to other hosts.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paidPayment } from '../test/dashboard-client.js';
import { browserSuite, screenshotsAtBothWidths, signUpInBrowser } from './harness.js';

const OWNER = { name: 'Annapurna Books', email: `books-owner-${Date.now()}@example.com`, password: 'a long owner secret' };
const DEVELOPER = `books-dev-${Date.now()}@example.com`;
const VIEWER = `books-viewer-${Date.now()}@example.com`;

const suite = browserSuite({ merchantName: 'Harness merchant (unused)', mail: true });
const person = () => suite.person();

/** The invitation link in the e-mail to `to`, as a person would copy it. */
async function linkFromMail(to: string): Promise<string> {
  await expect.poll(() => suite.inbox.to(to).length).toBeGreaterThan(0);
  const mail = suite.inbox.to(to)[0];
  expect(mail.html).not.toMatch(/<img/i);
  return /(http:\/\/127\.0\.0\.1:\d+\/dashboard\/invitation\/[\w-]{43})/.exec(mail.text)![1];
}

/** Follows the link, chooses a password, lands on the dashboard logged in. */
async function join(page: Page, link: string, password: string) {
  await page.goto(link);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Join ${OWNER.name}`);
  await page.getByLabel('Choose a password').fill(password);
  await page.getByLabel('The same password again').fill(password);
  await page.getByRole('button', { name: 'Join and log in' }).click();
  await page.waitForURL(`${suite.service.origin}/dashboard`);
}

/**
 * A form this page does not offer, made and submitted by hand in the page, with the CSRF token of
 * the user's own session (taken from the log-out form): what a person with the developer tools does.
 */
async function postByHand(page: Page, action: string, fields: Record<string, string>) {
  const answer = page.waitForResponse((r) => r.url() === `${suite.service.origin}${action}` && r.request().method() === 'POST');
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      const token = (document.querySelector('input[name="csrf_token"]') as HTMLInputElement).value;
      for (const [name, value] of Object.entries({ csrf_token: token, ...fields })) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, fields },
  );
  const response = await answer;
  await page.waitForLoadState();
  return { status: response.status(), heading: await page.getByRole('heading', { level: 1 }).textContent() };
}

describe('the team', () => {
  let testKey = '';
  let pidx = '';

  it('the owner signs up and invites a developer and a viewer from the team page', async () => {
    const { page } = await person();
    await signUpInBrowser(page, suite.service.origin, OWNER);
    testKey = (await page.locator('code.secret').first().textContent())!;
    expect(testKey).toMatch(/^test_secret_key_/);
    pidx = (await paidPayment(suite.service.t.app, testKey)).pidx;

    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/team`);
    for (const [email, role] of [
      [DEVELOPER, 'Developer'],
      [VIEWER, 'Viewer'],
    ]) {
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption({ label: role });
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toBe('Invitation sent.');
    }
    const pending = page.locator('table.invitations tbody tr');
    await expect.poll(() => pending.count()).toBe(2);
  });

  it('the developer follows the e-mail, sets a password, sees the keys but has no refund form; a refund by hand is refused', async () => {
    const { page } = await person();
    await join(page, await linkFromMail(DEVELOPER), 'developer secret 1');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/keys`);
    await expect.poll(() => page.locator('tr.key-row').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Review rotation' }).count()).toBe(1);

    await page.goto(`${suite.service.origin}/dashboard/payments/${pidx}`);
    expect(await page.getByRole('heading', { name: 'Refund', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Review refund' }).count()).toBe(0);
    const refused = await postByHand(page, `/dashboard/payments/${pidx}/refund/confirm`, { amount_paisa: '1000', refunded_before: '0' });
    expect(refused).toEqual({ status: 403, heading: 'Not allowed for your role' });
    const [{ refunded_amount }] = await suite.service.t.db.query<{ refunded_amount: string }>('SELECT refunded_amount FROM payments WHERE pidx = $1', [pidx]);
    expect(Number(refunded_amount)).toBe(0);
  });

  it('the viewer joins too, sees no form to change anything, and every write posted by hand is refused', async () => {
    const { page } = await person();
    await join(page, await linkFromMail(VIEWER), 'viewer secret 12');
    const nav = await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();
    // A viewer sees the payment links (view) but may not make or turn off one (links.manage).
    expect(nav).toEqual(['Home', 'Transactions', 'Payment links', 'Settlements', 'Team']);

    await page.goto(`${suite.service.origin}/dashboard/team`);
    expect(await page.locator('main form').count()).toBe(0);
    await page.goto(`${suite.service.origin}/dashboard/payments/${pidx}`);
    expect(await page.locator('main form').count()).toBe(0);

    const [{ id: ownerId }] = await suite.service.t.db.query<{ id: number }>(`SELECT u.id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1`, [OWNER.email]);
    const writes: [string, Record<string, string>][] = [
      [`/dashboard/payments/${pidx}/refund`, { amount: '10' }],
      [`/dashboard/payments/${pidx}/refund/confirm`, { amount_paisa: '1000', refunded_before: '0' }],
      ['/dashboard/keys/rotate/confirm', { environment: 'test', grace: '0' }],
      ['/dashboard/webhooks/endpoint', { url: 'https://evil.example.com/hook' }],
      ['/dashboard/business', { legal_name: 'Taken over' }],
      ['/dashboard/team/invite', { email: 'friend@example.com', role: 'admin' }],
      [`/dashboard/team/users/${ownerId}/remove`, {}],
      ['/dashboard/team/transfer', { user_id: String(ownerId) }],
      ['/dashboard/links', { name: 'Taken over', pricing: 'fixed', amount: '100' }],
    ];
    for (const [action, fields] of writes) {
      await page.goto(`${suite.service.origin}/dashboard`);
      expect(await postByHand(page, action, fields), action).toEqual({ status: 403, heading: 'Not allowed for your role' });
    }
    const team = await suite.service.t.db.query<{ email: string; role: string }>(`SELECT p.email, u.role FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE u.merchant_id = (SELECT o.merchant_id FROM merchant_users o JOIN merchant_people op ON op.id = o.person_id WHERE op.email = $1) AND u.removed_at IS NULL ORDER BY u.id`, [OWNER.email]);
    expect(team).toEqual([
      { email: OWNER.email, role: 'owner' },
      { email: DEVELOPER, role: 'developer' },
      { email: VIEWER, role: 'viewer' },
    ]);
    expect(await suite.service.t.db.query(`SELECT 1 FROM webhook_endpoints e JOIN merchant_users u ON u.merchant_id = e.merchant_id JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1`, [OWNER.email])).toEqual([]);
    expect(await suite.service.t.db.query(`SELECT 1 FROM payment_links l JOIN merchant_users u ON u.merchant_id = l.merchant_id JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1`, [OWNER.email])).toEqual([]);
  });

  it('the owner was told of both joins by e-mail, and sees the team on its page', async () => {
    await expect.poll(() => suite.inbox.to(OWNER.email).filter((m) => m.subject.startsWith('A new user joined your team')).length).toBe(2);
    const { page } = await person();
    await page.goto(`${suite.service.origin}/dashboard/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard`);
    await page.goto(`${suite.service.origin}/dashboard/team`);
    const rows = await page.locator('table.team tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-user'), tr.querySelector('[data-role]')?.getAttribute('data-role')]));
    expect(rows).toEqual([
      [OWNER.email, 'owner'],
      [DEVELOPER, 'developer'],
      [VIEWER, 'viewer'],
    ]);
    expect(await page.locator('table.invitations').count()).toBe(0);
    await screenshotsAtBothWidths(page, 'team-page');
  });
});
