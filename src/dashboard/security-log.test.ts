// The team's record of its users' security acts: each act done through the dashboard's
// forms as a person does it, then the team page's log shows it with who did it, to every role that
// sees the team; never a code, a secret, a password or a link's token; escaped; and another
// merchant's log shows none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolTotp, mailedLink, merchantBrowser, type MerchantBrowser, pageText, recoveryCodesOf, unverifiedSignUp } from '../../test/dashboard-client.js';
import { loggedInAs, merchantOwnedBy, teamMember } from '../../test/team-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { totpCode } from '../people/totp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The next 30-second step, so a new code from the app is not refused as one used already. */
const nextStep = () => t.clock.advance(30);

async function owner() {
  const browser = merchantBrowser(t.app);
  const { fields } = await browser.signUp();
  const id = await merchantOwnedBy(t.db, fields.email);
  return { browser, fields, merchantId: Number(id) };
}

/** An owner whose e-mail is not verified yet (an account from before sign-ups were confirmed by e-mail), sent the link. */
async function unverifiedOwner() {
  const browser = merchantBrowser(t.app);
  const { fields, merchantId } = await unverifiedSignUp(t.ctx, browser);
  await browser.get('/dashboard/account');
  expect((await browser.post('/dashboard/account/verify-email')).location).toBe('/dashboard/account?done=verify');
  return { browser, fields, merchantId };
}

/** The team page's log as `browser` sees it, newest first: each line's action and its text without the time. */
async function teamLog(browser: MerchantBrowser) {
  const page = await browser.get('/dashboard/team');
  expect(page.status).toBe(200);
  return [...page.body.matchAll(/<li data-action="(\w+)"><span class="time">[^<]*<\/span>([\s\S]*?)<\/li>/g)].map((m) => ({ action: m[1], text: pageText(m[2]) }));
}

/** Every stored line of the merchant's log, as one string, to look for what must never be in it. */
async function storedLog(merchantId: number): Promise<string> {
  return JSON.stringify(await t.db.query('SELECT * FROM merchant_team_events WHERE merchant_id = $1', [merchantId]));
}

describe('the team log of security acts', () => {
  it('two-factor turned on, new recovery codes, a recovery code to log in and to confirm a change, turned off: each with who did it, no code, to every role; not in another team', async () => {
    const o = await owner();
    const developer = await teamMember(t.ctx, o.merchantId, 'developer');
    const dev = await loggedInAs(t.app, developer);

    const { secret, codes } = await enrolTotp(dev, t.clock.now());
    expect(codes).toHaveLength(10);
    nextStep();
    await dev.get('/dashboard/account');
    // A wrong code does nothing, and records nothing.
    expect((await dev.post('/dashboard/account/two-factor/recovery-codes', { code: '000000' })).status).toBe(401);
    expect((await teamLog(o.browser)).map((e) => e.action)).toEqual(['two_factor_on']);
    const fresh = await dev.post('/dashboard/account/two-factor/recovery-codes', { code: totpCode(secret, t.clock.now()) });
    const newCodes = recoveryCodesOf(fresh.body);
    expect(newCodes).toHaveLength(10);

    const again = merchantBrowser(t.app);
    await again.logIn(developer.email, developer.password);
    await again.get('/dashboard/login/code');
    expect((await again.post('/dashboard/login/code', { code: newCodes[0] })).location).toBe('/dashboard');
    t.clock.advance(6 * 60);
    await again.get('/dashboard/account');
    expect((await again.post('/dashboard/account/confirm', { back: '/dashboard/team', confirm_identity: newCodes[1] })).location).toBe('/dashboard/team');
    await again.get('/dashboard/account');
    expect((await again.post('/dashboard/account/two-factor/off', { off_code: newCodes[2] })).location).toBe('/dashboard/account?done=two-factor-off');

    const log = await teamLog(o.browser);
    expect(log).toEqual([
      { action: 'two_factor_off', text: `${developer.email} turned two-factor log-in off (with a recovery code)` },
      { action: 'recovery_code_used', text: `${developer.email} used a recovery code (to confirm a change; 8 left)` },
      { action: 'recovery_code_used', text: `${developer.email} used a recovery code (to log in; 9 left)` },
      { action: 'recovery_codes_new', text: `${developer.email} made new recovery codes (the old ones stopped working)` },
      { action: 'two_factor_on', text: `${developer.email} turned two-factor log-in on` },
    ]);
    const stored = await storedLog(o.merchantId);
    for (const secretThing of [secret, ...codes, ...newCodes]) expect(stored).not.toContain(secretThing);

    // Every role that sees the team sees its log (the permission table's `view`): a viewer too.
    const viewer = await loggedInAs(t.app, await teamMember(t.ctx, o.merchantId, 'viewer'));
    expect(await teamLog(viewer)).toEqual(log);
    // Another merchant's log has none of it.
    const other = await owner();
    expect(await teamLog(other.browser)).toEqual([]);
    expect((await other.browser.get('/dashboard/team')).body).not.toContain(developer.email);
  });

  it('password changed, one session logged out, logged out everywhere, password reset by link, e-mail confirmed: each with who did it, no password or token', async () => {
    const o = await unverifiedOwner();
    await o.browser.verifyEmail(t.logs, o.fields.email);
    const verifyToken = mailedLink(t.logs, o.fields.email, 'verify-email').split('/').pop()!;
    const finance = await teamMember(t.ctx, o.merchantId, 'finance');
    const laptop = await loggedInAs(t.app, finance);
    const phone = merchantBrowser(t.app, { remoteAddress: '192.0.2.41' });
    await phone.logIn(finance.email, finance.password);

    await laptop.get('/dashboard/account');
    expect((await laptop.post('/dashboard/account/password', { current_password: 'not it at all', new_password: 'changed password 1' })).status).toBe(400);
    expect((await laptop.post('/dashboard/account/password', { current_password: finance.password, new_password: 'changed password 1' })).location).toBe('/dashboard/account?done=password');
    await phone.logIn(finance.email, 'changed password 1');
    const sessions = await laptop.get('/dashboard/account/sessions');
    const phoneRef = /<tr data-session="([0-9a-f]{24})">(?:(?!<\/tr>)[\s\S])*?192\.0\.2\.41/.exec(sessions.body)![1];
    expect((await laptop.post('/dashboard/account/sessions/end', { session: phoneRef })).location).toBe('/dashboard/account/sessions?done=session');
    await laptop.get('/dashboard/account/sessions');
    expect((await laptop.post('/dashboard/account/sessions/end-all')).location).toBe('/dashboard/login?done=everywhere');

    const visitor = merchantBrowser(t.app);
    await visitor.get('/dashboard/forgot-password');
    await visitor.post('/dashboard/forgot-password', { email: finance.email });
    const link = mailedLink(t.logs, finance.email, 'reset-password');
    await visitor.get(link);
    expect((await visitor.post(link, { password: 'reset password 1' })).location).toBe('/dashboard/login?done=reset');

    expect(await teamLog(o.browser)).toEqual([
      { action: 'password_reset', text: `${finance.email} reset their password by an e-mailed link` },
      { action: 'logout_everywhere', text: `${finance.email} logged out everywhere` },
      { action: 'session_end', text: `${finance.email} logged out one of their sessions` },
      { action: 'password_change', text: `${finance.email} changed their password` },
      { action: 'email_confirmed', text: `${o.fields.email} confirmed their e-mail address` },
    ]);
    const stored = await storedLog(o.merchantId);
    for (const secretThing of [finance.password, 'changed password 1', 'reset password 1', link.split('/').pop()!, verifyToken, phoneRef]) expect(stored).not.toContain(secretThing);
    expect(await teamLog((await owner()).browser)).toEqual([]);
  });

  it('an e-mail confirmed by a reset link first is not recorded again when the verification link is followed', async () => {
    const o = await unverifiedOwner();
    const verifyLink = mailedLink(t.logs, o.fields.email, 'verify-email');
    const visitor = merchantBrowser(t.app);
    await visitor.get('/dashboard/forgot-password');
    await visitor.post('/dashboard/forgot-password', { email: o.fields.email });
    const link = mailedLink(t.logs, o.fields.email, 'reset-password');
    await visitor.get(link);
    expect((await visitor.post(link, { password: 'reset password 2' })).location).toBe('/dashboard/login?done=reset');
    expect((await visitor.get(verifyLink)).status).toBe(200);
    const again = await loggedInAs(t.app, { email: o.fields.email, password: 'reset password 2' });
    expect((await teamLog(again)).map((e) => e.action)).toEqual(['password_reset']);
  });

  it('the owner requiring two-factor of the team, and no longer: once each, by the owner; asking for it as it is records nothing', async () => {
    const o = await owner();
    await enrolTotp(o.browser, t.clock.now());
    await o.browser.get('/dashboard/account');
    expect((await o.browser.post('/dashboard/account/team-two-factor', { required: 'yes' })).location).toBe('/dashboard/account?done=team-on');
    expect((await o.browser.post('/dashboard/account/team-two-factor', { required: 'yes' })).location).toBe('/dashboard/account?done=team-on');
    expect((await o.browser.post('/dashboard/account/team-two-factor', { required: 'no' })).location).toBe('/dashboard/account?done=team-off');
    // An admin may not set it: refused, and nothing recorded.
    const admin = await loggedInAs(t.app, await teamMember(t.ctx, o.merchantId, 'admin'));
    await admin.get('/dashboard/account');
    expect((await admin.post('/dashboard/account/team-two-factor', { required: 'yes' })).status).toBe(403);

    expect(await teamLog(o.browser)).toEqual([
      { action: 'team_two_factor_off', text: `${o.fields.email} stopped requiring two-factor log-in of the team` },
      { action: 'team_two_factor_on', text: `${o.fields.email} required two-factor log-in of everyone on the team` },
      { action: 'two_factor_on', text: `${o.fields.email} turned two-factor log-in on` },
    ]);
  });

  it('shows an e-mail escaped', async () => {
    const o = await owner();
    const email = `x"><script>alert(1)</script>-${process.pid}-${Date.now()}@example.com`;
    await teamMember(t.ctx, o.merchantId, 'viewer', { email, password: 'viewer password' });
    const marked = await loggedInAs(t.app, { email, password: 'viewer password' });
    await marked.get('/dashboard/account/sessions');
    expect((await marked.post('/dashboard/account/sessions/end-all')).location).toBe('/dashboard/login?done=everywhere');

    const page = await o.browser.get('/dashboard/team');
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect((await teamLog(o.browser))[0]).toEqual({ action: 'logout_everywhere', text: `${email} logged out everywhere` });
  });
});
