// A merchant user's account safety over HTTP, as a browser without JavaScript does it: e-mail
// verification, TOTP two-factor (set-up, log-in, recovery codes, turning it off), the team's
// requirement, step-up on the bank account and a live key, password change and reset, the sessions
// list, and the limits on guessing codes and links across two instances of the app on one store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolTotp as enrolTotpAs, mailedLink, merchantBrowser, pageText, type MerchantBrowser, recoveryCodesOf, uniqueSignUp, unverifiedSignUp } from '../../test/dashboard-client.js';
import { invitationLinkFor } from '../../test/console-client.js';
import { validApplication } from '../../test/merchant-approval.js';
import { merchantOwnedBy, teamMember } from '../../test/team-client.js';
import { openTestDb, startTestApp, type TestApp } from '../../test/test-app.js';
import { totpCode } from '../people/totp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const application = () => Object.fromEntries(Object.entries(validApplication()).map(([k, v]) => [k, String(v)]));

async function signedUp(app = t.app) {
  const browser = merchantBrowser(app);
  const { fields, keys } = await browser.signUp(uniqueSignUp());
  return { browser, fields, keys };
}

/** Sets up two-factor on the Security page: the secret read from the page, a code from it; the recovery codes. */
async function enrolTotp(browser: MerchantBrowser) {
  const { page, done, secret, codes } = await enrolTotpAs(browser, t.clock.now());
  expect(page.status).toBe(200);
  expect(page.body).toMatch(/<svg[^>]*>/);
  expect(done.status).toBe(200);
  expect(codes).toHaveLength(10);
  return { secret, codes };
}

/** The next 30-second step, so a new code is not refused as one used already. */
const nextStep = (clock = t.clock) => clock.advance(30);

describe('e-mail verification of an account from before sign-ups were confirmed by e-mail', () => {
  it('a single-use link; until it is followed the dashboard says so and going live is refused, test use is open', async () => {
    const browser = merchantBrowser(t.app);
    const { fields, keys } = await unverifiedSignUp(t.ctx, browser);
    const home = await browser.get('/dashboard');
    expect(pageText(home.body)).toContain(`Confirm your e-mail address. We sent a link to ${fields.email}.`);
    const { merchantApi } = await import('../../test/api-client.js');
    expect((await merchantApi(t.app, keys.test).initiate()).status).toBe(200);

    await browser.get('/dashboard/business');
    const refused = await browser.post('/dashboard/business', application());
    expect(refused.status).toBe(403);
    expect(pageText(refused.body)).toContain('Confirm your e-mail address first');

    // Sent (from the notice), and again: the first link dies, the new one works once.
    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/verify-email')).location).toBe('/dashboard/account?done=verify');
    const first = mailedLink(t.logs, fields.email, 'verify-email');
    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/verify-email')).location).toBe('/dashboard/account?done=verify');
    const second = mailedLink(t.logs, fields.email, 'verify-email');
    expect(second).not.toBe(first);
    expect((await merchantBrowser(t.app).get(first)).status).toBe(404);
    expect((await browser.get(second)).location).toBe('/dashboard/account?done=verified');
    expect((await browser.get(second)).status).toBe(404);
    expect(pageText((await browser.get('/dashboard')).body)).not.toContain('Confirm your e-mail address.');

    await browser.get('/dashboard/business');
    expect((await browser.post('/dashboard/business', application())).status).toBe(303);
  });

  it('expires after 24 hours', async () => {
    const browser = merchantBrowser(t.app);
    const { fields } = await unverifiedSignUp(t.ctx, browser);
    await browser.get('/dashboard/account');
    await browser.post('/dashboard/account/verify-email');
    const link = mailedLink(t.logs, fields.email, 'verify-email');
    t.clock.advance(24 * 60 * 60 + 1);
    expect((await merchantBrowser(t.app).get(link)).status).toBe(404);
  });
});

describe('two-factor log-in', () => {
  it('is set up with a QR code and the secret, asked at log-in before any page, and takes a recovery code once', async () => {
    const { browser, fields } = await signedUp();
    const { secret, codes } = await enrolTotp(browser);
    expect(pageText((await browser.get('/dashboard/account')).body)).toContain('On 10 recovery codes left.');
    await browser.post('/dashboard/logout');

    const again = merchantBrowser(t.app);
    const password = await again.logIn(fields.email, fields.password);
    expect(password.location).toBe('/dashboard/login/code');
    // Only the password: every page leads to the code.
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/account']) expect((await again.get(path)).location).toBe('/dashboard/login/code');
    const codePage = await again.get('/dashboard/login/code');
    expect(pageText(codePage.body)).toContain(`Logging in as ${fields.email}`);
    expect((await again.post('/dashboard/login/code', { code: '000000' })).status).toBe(401);
    nextStep();
    expect((await again.post('/dashboard/login/code', { code: totpCode(secret, t.clock.now()) })).location).toBe('/dashboard');
    expect((await again.get('/dashboard')).status).toBe(200);

    // A recovery code instead of the app, once.
    const third = merchantBrowser(t.app);
    await third.logIn(fields.email, fields.password);
    await third.get('/dashboard/login/code');
    expect((await third.post('/dashboard/login/code', { code: codes[0].toUpperCase() })).location).toBe('/dashboard');
    const fourth = merchantBrowser(t.app);
    await fourth.logIn(fields.email, fields.password);
    await fourth.get('/dashboard/login/code');
    expect((await fourth.post('/dashboard/login/code', { code: codes[0] })).status).toBe(401);
    expect(pageText((await third.get('/dashboard/account')).body)).toContain('9 recovery codes left.');
  });

  it('makes new recovery codes and turns off only with a code from the app', async () => {
    const { browser, fields } = await signedUp();
    const { secret, codes } = await enrolTotp(browser);
    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/two-factor/recovery-codes', { code: '123456' })).status).toBe(401);
    nextStep();
    const fresh = recoveryCodesOf((await browser.post('/dashboard/account/two-factor/recovery-codes', { code: totpCode(secret, t.clock.now()) })).body);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[1]);

    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/two-factor/off', { off_code: codes[1] })).status).toBe(401);
    expect((await browser.post('/dashboard/account/two-factor/off', { off_code: fresh[0] })).location).toBe('/dashboard/account?done=two-factor-off');
    await browser.post('/dashboard/logout');
    expect((await merchantBrowser(t.app).logIn(fields.email, fields.password)).location).toBe('/dashboard');
  });

  it('the owner requires it for the team: a user without it is taken to set-up and can do nothing else until enrolled', async () => {
    const { browser: owner, fields } = await signedUp();
    await owner.get('/dashboard/account');
    // The owner must have it first.
    expect((await owner.post('/dashboard/account/team-two-factor', { required: 'yes' })).status).toBe(409);
    await enrolTotp(owner);
    await owner.get('/dashboard/account');
    expect((await owner.post('/dashboard/account/team-two-factor', { required: 'yes' })).location).toBe('/dashboard/account?done=team-on');

    const merchantId = await merchantOwnedBy(t.db, fields.email);
    const email = `dev-${fields.email}`;
    await teamMember(t.ctx, merchantId, 'developer', { email, password: 'developer password' });
    const developer = merchantBrowser(t.app);
    await developer.logIn(email, 'developer password');
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/account/sessions']) expect((await developer.get(path)).location).toBe('/dashboard/account/two-factor');
    const setUp = await developer.get('/dashboard/account/two-factor');
    expect(pageText(setUp.body)).toContain('Your team requires two-factor log-in.');
    expect((await developer.post('/dashboard/environment', { environment: 'live', back: '/dashboard' })).location).toBe('/dashboard/account/two-factor');
    await enrolTotp(developer);
    expect((await developer.get('/dashboard/keys')).status).toBe(200);

    // Only the owner decides it, and the developer cannot turn theirs off while it is required.
    await developer.get('/dashboard/account');
    expect((await developer.post('/dashboard/account/team-two-factor', { required: 'no' })).status).toBe(403);
    expect((await developer.post('/dashboard/account/two-factor/off', { off_code: '123456' })).status).toBe(409);
  });
});

describe('step-up', () => {
  it('rotating a live key after five minutes asks a code from the app; a test key does not', async () => {
    const { browser } = await signedUp();
    const { secret } = await enrolTotp(browser);
    t.clock.advance(6 * 60);
    await browser.get('/dashboard/keys');
    const review = await browser.post('/dashboard/keys/rotate', { environment: 'live', grace: '0' });
    expect(pageText(review.body)).toContain('Confirm it is you Two-factor code');
    expect((await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '0' })).status).toBe(401);
    expect((await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '0', confirm_identity: '000000' })).status).toBe(401);
    const rotated = await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '0', confirm_identity: totpCode(secret, t.clock.now()) });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatch(/live_secret_key_[0-9a-f]{32}/);
    // Confirmed now: for the next few minutes no code again.
    expect((await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '0' })).status).toBe(200);
    t.clock.advance(6 * 60);
    expect((await browser.post('/dashboard/keys/rotate/confirm', { environment: 'test', grace: '0' })).status).toBe(200);
  });

  it('the bank account (the application to go live) asks the password of a user without two-factor', async () => {
    const { browser, fields } = await signedUp();
    t.clock.advance(6 * 60);
    const page = await browser.get('/dashboard/business');
    expect(pageText(page.body)).toContain('Your password');
    expect((await browser.post('/dashboard/business', application())).status).toBe(401);
    const wrong = await browser.post('/dashboard/business', { ...application(), confirm_identity: 'not my password' });
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.body)).toContain('That is not your password.');
    expect((await browser.post('/dashboard/business', { ...application(), confirm_identity: fields.password })).status).toBe(303);
  });
});

describe('passwords', () => {
  it('changing it asks the current one and ends the other sessions, not this one', async () => {
    const { browser, fields } = await signedUp();
    const other = merchantBrowser(t.app);
    await other.logIn(fields.email, fields.password);
    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/password', { current_password: 'wrong wrong', new_password: 'a new password' })).status).toBe(400);
    expect((await browser.post('/dashboard/account/password', { current_password: fields.password, new_password: 'short' })).status).toBe(400);
    expect((await browser.post('/dashboard/account/password', { current_password: fields.password, new_password: 'a new password' })).location).toBe('/dashboard/account?done=password');
    expect((await browser.get('/dashboard')).status).toBe(200);
    expect((await other.get('/dashboard')).location).toBe('/dashboard/login');
    expect((await merchantBrowser(t.app).logIn(fields.email, 'a new password')).location).toBe('/dashboard');
  });

  it('a reset link (the same answer for an unknown e-mail) sets a new one once, within an hour, and ends every session', async () => {
    const { browser, fields } = await signedUp();
    const visitor = merchantBrowser(t.app);
    await visitor.get('/dashboard/login');
    expect((await visitor.get('/dashboard/forgot-password')).status).toBe(200);
    const unknown = await visitor.post('/dashboard/forgot-password', { email: `nobody-${fields.email}` });
    const known = await visitor.post('/dashboard/forgot-password', { email: fields.email.toUpperCase() });
    expect(unknown.status).toBe(known.status);
    expect(pageText(unknown.body).replace(`nobody-${fields.email}`, 'X')).toBe(pageText(known.body).replace(fields.email.toUpperCase(), 'X'));
    expect(() => mailedLink(t.logs, `nobody-${fields.email}`, 'reset-password')).toThrow();

    const link = mailedLink(t.logs, fields.email, 'reset-password');
    const form = await visitor.get(link);
    expect(pageText(form.body)).toContain(`For ${fields.email}.`);
    expect((await visitor.post(link, { password: 'short' })).status).toBe(400);
    expect((await visitor.post(link, { password: 'reset password' })).location).toBe('/dashboard/login?done=reset');
    expect((await browser.get('/dashboard')).location).toBe('/dashboard/login');
    expect((await visitor.post(link, { password: 'again password' })).status).toBe(404);
    expect((await visitor.get(link)).status).toBe(404);
    expect((await merchantBrowser(t.app).logIn(fields.email, fields.password)).status).toBe(401);
    expect((await merchantBrowser(t.app).logIn(fields.email, 'reset password')).location).toBe('/dashboard');

    // An hour later a new link is dead.
    await merchantBrowser(t.app).get('/dashboard/forgot-password');
    await visitor.post('/dashboard/forgot-password', { email: fields.email });
    const late = mailedLink(t.logs, fields.email, 'reset-password');
    t.clock.advance(60 * 60 + 1);
    expect((await visitor.get(late)).status).toBe(404);
  });

  it('a reset does not pass the second factor', async () => {
    const { browser, fields } = await signedUp();
    await enrolTotp(browser);
    const visitor = merchantBrowser(t.app);
    await visitor.get('/dashboard/forgot-password');
    await visitor.post('/dashboard/forgot-password', { email: fields.email });
    const link = mailedLink(t.logs, fields.email, 'reset-password');
    await visitor.get(link);
    await visitor.post(link, { password: 'reset password' });
    expect((await visitor.logIn(fields.email, 'reset password')).location).toBe('/dashboard/login/code');
  });
});

describe('sessions', () => {
  it('lists where the user is logged in, ends one, and logs out everywhere', async () => {
    const { fields } = await signedUp();
    const laptop = merchantBrowser(t.app, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36', remoteAddress: '192.0.2.10' });
    const phone = merchantBrowser(t.app, { userAgent: 'Mozilla/5.0 (Android 14) Firefox/133.0', remoteAddress: '192.0.2.20' });
    await laptop.logIn(fields.email, fields.password);
    await phone.logIn(fields.email, fields.password);
    const list = await laptop.get('/dashboard/account/sessions');
    const text = pageText(list.body);
    expect(text).toContain('192.0.2.10');
    expect(text).toContain('192.0.2.20');
    expect(text).toContain('Chrome');
    expect(text).toContain('Firefox');
    expect(text).toContain('This session');
    expect(list.body).not.toMatch(/[0-9a-f]{64}/);

    // Ends the phone's session (the row that is not this one).
    const phoneRef = /<tr data-session="([0-9a-f]{24})">(?:(?!<\/tr>)[\s\S])*?192\.0\.2\.20/.exec(list.body)![1];
    expect((await laptop.post('/dashboard/account/sessions/end', { session: phoneRef })).location).toBe('/dashboard/account/sessions?done=session');
    expect((await phone.get('/dashboard')).location).toBe('/dashboard/login');

    // Another user cannot end this user's sessions by their ref.
    const stranger = await signedUp();
    const laptopRef = /<tr data-session="([0-9a-f]{24})" aria-current="true">/.exec((await laptop.get('/dashboard/account/sessions')).body)![1];
    await stranger.browser.get('/dashboard/account/sessions');
    await stranger.browser.post('/dashboard/account/sessions/end', { session: laptopRef });
    expect((await laptop.get('/dashboard')).status).toBe(200);

    const tablet = merchantBrowser(t.app);
    await tablet.logIn(fields.email, fields.password);
    await laptop.get('/dashboard/account/sessions');
    expect((await laptop.post('/dashboard/account/sessions/end-all')).location).toBe('/dashboard/login?done=everywhere');
    expect((await laptop.get('/dashboard')).location).toBe('/dashboard/login');
    expect((await tablet.get('/dashboard')).location).toBe('/dashboard/login');
  });
});

describe('guessing, across two instances of the app on one store', () => {
  let other: TestApp;
  beforeAll(async () => {
    // PGlite lives in this process: the second instance shares it. PostgreSQL: a pool of its own.
    other = await startTestApp({ db: process.env.DATABASE_URL?.startsWith('postgres') ? await openTestDb() : t.db });
  });
  /** The two instances' clocks agree, as two servers' do. */
  const sameTime = () => other.clock.advance((t.clock.now().getTime() - other.clock.now().getTime()) / 1000);
  afterAll(async () => {
    await other.close();
    if (process.env.DATABASE_URL?.startsWith('postgres')) await other.db.close();
  });

  it('five wrong two-factor codes on one instance lock the code on the other, even the right one', async () => {
    const { browser, fields } = await signedUp();
    const { secret } = await enrolTotp(browser);
    nextStep();
    sameTime();
    const onA = merchantBrowser(t.app);
    await onA.logIn(fields.email, fields.password);
    await onA.get('/dashboard/login/code');
    for (let i = 0; i < 4; i += 1) expect((await onA.post('/dashboard/login/code', { code: '000000' })).status).toBe(401);
    expect((await onA.post('/dashboard/login/code', { code: '000000' })).status).toBe(429);

    const onB = merchantBrowser(other.app);
    await onB.logIn(fields.email, fields.password);
    await onB.get('/dashboard/login/code');
    const locked = await onB.post('/dashboard/login/code', { code: totpCode(secret, other.clock.now()) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('ten wrong reset links from one address on one instance lock reset links from it on the other', async () => {
    const { fields } = await signedUp();
    sameTime();
    const guesser = merchantBrowser(t.app, { remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 9; i += 1) expect((await guesser.get(`/dashboard/reset-password/${'x'.repeat(42)}${i}`)).status).toBe(404);
    expect((await guesser.get(`/dashboard/reset-password/${'y'.repeat(43)}`)).status).toBe(429);

    const visitor = merchantBrowser(other.app, { remoteAddress: '198.51.100.7' });
    await visitor.get('/dashboard/forgot-password');
    await visitor.post('/dashboard/forgot-password', { email: fields.email });
    const real = await visitor.get(mailedLink(other.logs, fields.email, 'reset-password'));
    expect(real.status).toBe(429);
    // From another address the link still works.
    expect((await merchantBrowser(other.app, { remoteAddress: '198.51.100.8' }).get(mailedLink(other.logs, fields.email, 'reset-password'))).status).toBe(200);
  });

  it('ten wrong links of any kind from one address lock invitation links from it on the other instance, the right one too, until the lock passes', async () => {
    const { browser } = await signedUp();
    sameTime();
    const invitee = `invitee-${process.pid}-${Date.now()}@example.com`;
    await browser.get('/dashboard/team');
    expect((await browser.post('/dashboard/team/invite', { email: invitee, role: 'viewer' })).status).toBe(303);
    const link = invitationLinkFor(t.logs, invitee, 'dashboard')!;

    // Made-up invitation links, looked at and posted to, and made-up reset links: one count per address.
    const guesser = merchantBrowser(t.app, { remoteAddress: '198.51.100.9' });
    await guesser.get('/dashboard/login');
    for (let i = 0; i < 3; i += 1) {
      expect((await guesser.get(`/dashboard/invitation/${'x'.repeat(42)}${i}`)).status).toBe(404);
      const posted = await guesser.post(`/dashboard/invitation/${'y'.repeat(42)}${i}`, { password: 'guessing away', password_again: 'guessing away' });
      expect(posted.status).toBe(404);
      expect(pageText(posted.body)).toContain('This invitation link cannot be used');
      expect((await guesser.get(`/dashboard/reset-password/${'z'.repeat(42)}${i}`)).status).toBe(404);
    }
    const tenth = await guesser.get(`/dashboard/invitation/${'w'.repeat(43)}`);
    expect(tenth.status).toBe(429);
    expect(tenth.headers['retry-after']).toBe('30');
    expect(pageText(tenth.body)).toContain('This invitation link cannot be used Too many failed attempts. Try again in 30 seconds.');

    // On the other instance, from that address, the right link is refused and cannot be accepted.
    const locked = merchantBrowser(other.app, { remoteAddress: '198.51.100.9' });
    const refused = await locked.get(link);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(pageText(refused.body)).not.toContain(invitee);
    await locked.get('/dashboard/login');
    expect((await locked.post(link, { password: 'invitee password', password_again: 'invitee password' })).status).toBe(429);
    expect(await t.db.query('SELECT accepted_at FROM merchant_invitations WHERE email = $1', [invitee])).toEqual([{ accepted_at: null }]);
    // From another address the link works meanwhile (and stays usable: looking does not spend it).
    expect((await merchantBrowser(other.app, { remoteAddress: '198.51.100.10' }).get(link)).status).toBe(200);

    // Once the lock has passed, the right link works from the guessing address too.
    t.clock.advance(31);
    sameTime();
    expect((await locked.get(link)).status).toBe(200);
    const joined = await locked.post(link, { password: 'invitee password', password_again: 'invitee password' });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/dashboard');
  });
});

describe('the step-up box', () => {
  it('confirms the session for a page of many forms, and comes back', async () => {
    const { browser, fields } = await signedUp();
    t.clock.advance(6 * 60);
    await browser.get('/dashboard/account');
    const wrong = await browser.post('/dashboard/account/confirm', { back: '/dashboard/keys', confirm_identity: 'not my password' });
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.body)).toContain('That is not your password.');
    expect((await browser.post('/dashboard/account/confirm', { back: 'https://evil.example/', confirm_identity: fields.password })).location).toBe('/dashboard');
    // Fresh now: a live key rotates without a field.
    expect((await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '0' })).status).toBe(200);
  });
});

describe('step-up on the team', () => {
  it('after five minutes, a change of the team waits for the box at the top of the team page', async () => {
    const { browser, fields } = await signedUp();
    t.clock.advance(6 * 60);
    const page = await browser.get('/dashboard/team');
    expect(page.body).toContain('action="/dashboard/account/confirm"');
    const invitee = `invitee-${fields.email}`;
    const refused = await browser.post('/dashboard/team/invite', { email: invitee, role: 'viewer' });
    expect(refused.status).toBe(401);
    expect(pageText(refused.body)).toContain('Use the box at the top of the page');
    expect((await t.db.query('SELECT 1 FROM merchant_invitations WHERE lower(email) = lower($1)', [invitee])).length).toBe(0);

    expect((await browser.post('/dashboard/account/confirm', { back: '/dashboard/team', confirm_identity: fields.password })).location).toBe('/dashboard/team');
    expect((await browser.get('/dashboard/team')).body).not.toContain('action="/dashboard/account/confirm"');
    expect((await browser.post('/dashboard/team/invite', { email: invitee, role: 'viewer' })).location).toBe('/dashboard/team?done=invited');
  });
});
