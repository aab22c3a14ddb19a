// A merchant's account safety in headless Chromium, with a real SMTP server in the test process: sign
// up by the e-mailed link (which confirms the address), set up TOTP two-factor (the secret read from the page, codes
// computed with otpauth as the app would), log out, log in with a code, reset the password from the
// e-mail, and log out everywhere: another browser context's session is gone.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../src/people/totp.js';
import type { ReceivedMail } from '../test/mail-inbox.js';
import { browserSuite, screenshotsAtBothWidths, signUpInBrowser } from './harness.js';

const suite = browserSuite({ merchantName: 'Security harness merchant', mail: true, shop: false });
const person = () => suite.person();

/** The link of the last e-mail with `subject` to `to`, once it has arrived. */
async function mailedLink(to: string, subject: string): Promise<string> {
  let mail: ReceivedMail | undefined;
  await expect.poll(() => (mail = suite.inbox.to(to).reverse().find((m) => m.subject === subject)), { timeout: 10_000 }).toBeDefined();
  expect(mail!.html).not.toMatch(/<img/i);
  const link = new RegExp(`${suite.service.origin.replace(/[.]/g, '\\.')}/dashboard/[\\w-]+/[\\w-]{43}`).exec(mail!.text)![0];
  expect(mail!.html).toContain(link);
  return link;
}

/** A code of a step not used yet: the service's clock moves on 30 s first. */
function nextCode(secret: string): string {
  suite.service.t.clock.advance(30);
  return totpCode(secret, suite.service.t.clock.now());
}

async function logIn(page: Page, email: string, password: string, secret: string) {
  await page.goto(`${suite.service.origin}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Two-factor code' }).waitFor();
  await page.getByLabel('Code').fill(nextCode(secret));
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${suite.service.origin}/dashboard`);
}

describe('a merchant keeps its account safe', () => {
  it('signs up by its e-mail, turns on two-factor, logs in with a code, resets its password and logs out everywhere', async () => {
    const email = `safety-${Date.now()}@example.com`;
    const { page } = await person();

    // The sign-up's e-mailed link confirms the address: no notice to confirm it.
    await signUpInBrowser(page, suite.service.origin, { name: 'Annapurna Books', email, password: 'books books books' });
    await page.getByRole('heading', { name: 'Welcome, Annapurna Books' }).waitFor();
    expect(await page.getByText('Confirm your e-mail address.').count()).toBe(0);
    await page.getByRole('link', { name: 'Security' }).click();

    // Two-factor: the QR code is drawn on the page; the key is there in text too.
    await page.getByRole('link', { name: 'Set up two-factor' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor log-in' }).waitFor();
    expect(await page.locator('figure.qr svg').count()).toBe(1);
    await screenshotsAtBothWidths(page, 'security-two-factor-setup');
    const secret = (await page.locator('code.secret').textContent())!.replace(/\s+/g, '');
    await page.getByLabel('Code from the app').fill(totpCode(secret, suite.service.t.clock.now()));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBe(10);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByText('10 recovery codes left.').waitFor();
    await screenshotsAtBothWidths(page, 'security-page');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/login`);
    await logIn(page, email, 'books books books', secret);

    // Forgot the password: the e-mail's link sets a new one; the code is still asked after it.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('we have sent it a link to choose a new password').waitFor();
    await page.goto(await mailedLink(email, 'Reset your Bhuktani password'));
    await page.getByLabel('New password').fill('new books password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await logIn(page, email, 'new books password', secret);

    // Another browser logs in too; "log out everywhere" here ends it there.
    const other = await person();
    await logIn(other.page, email, 'new books password', secret);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('link', { name: 'Your sessions' }).click();
    expect(await page.locator('table.sessions tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Log out everywhere' }).click();
    await page.getByText('You were logged out everywhere.').waitFor();
    await other.page.goto(`${suite.service.origin}/dashboard/keys`);
    await other.page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(new URL(other.page.url()).pathname).toBe('/dashboard/login');
  });
});
