// OTP_SENDER=log-insecure is said on every dashboard and console page, so nobody takes real money on
// it unawares.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newOperator, operatorBrowser } from '../../test/console-client.js';
import { merchantBrowser, pageText } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

let insecure: TestApp;
let configured: TestApp;
beforeAll(async () => {
  insecure = await startTestApp({ config: { otpSender: 'log-insecure' } });
  configured = await startTestApp({ db: insecure.db, config: { otpSender: 'sms' } });
});
afterAll(async () => {
  await configured.close();
  await insecure.close();
});

it('with OTP_SENDER=log-insecure every dashboard page warns that live OTPs go to the log; with sms none does', async () => {
  const browser = merchantBrowser(insecure.app);
  const { fields } = await browser.signUp();
  for (const path of ['/dashboard', '/dashboard/transactions', '/dashboard/keys', '/dashboard/webhooks', '/dashboard/no-such-page']) {
    const page = await browser.get(path);
    expect(page.body, path).toContain('data-testid="server-warning"');
    expect(pageText(page.body)).toContain('Insecure server setting. OTP_SENDER=log-insecure: live wallet OTPs are written to the server log');
  }
  const other = merchantBrowser(configured.app);
  await other.logIn(fields.email, fields.password);
  const home = await other.get('/dashboard');
  expect(home.status).toBe(200);
  expect(home.body).toContain('Log out');
  expect(home.body).not.toContain('server-warning');
});

it('with OTP_SENDER=log-insecure every console page warns too; with sms none does', async () => {
  const operator = await newOperator(insecure.ctx, 'admin');
  const browser = operatorBrowser(insecure.app, insecure.ctx);
  expect((await browser.signIn(operator)).status).toBe(303);
  for (const path of ['/console', '/console/payments', '/console/wallets', '/console/audit', '/console/no-such-page']) {
    const page = await browser.get(path);
    expect(page.body, path).toContain('data-testid="server-warning"');
    expect(pageText(page.body)).toContain('Insecure server setting. OTP_SENDER=log-insecure: live wallet OTPs are written to the server log');
  }
  const other = operatorBrowser(configured.app, configured.ctx);
  // A later code: the one used above is spent.
  configured.clock.advance(60);
  const signedIn = await other.signIn(operator);
  expect(signedIn.status).toBe(303);
  const home = await other.get('/console');
  expect(home.status).toBe(200);
  expect(home.body).not.toContain('server-warning');
});
