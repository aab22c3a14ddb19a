// Sign-up, log-in, log-out, the session cookie, CSRF and the log-in guard of every dashboard page.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { merchantApi } from '../../test/api-client.js';
import { mailedLinkSoon, merchantBrowser, pageText, uniqueSignUp } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { SESSION_COOKIE } from '../merchants/merchant-sessions.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sessionCookieOf = (setCookies: string[]) => setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));

describe('sign-up', () => {
  it('creates the merchant when its e-mailed link is followed: logged in, both secret keys shown once, and the keys work', async () => {
    const browser = merchantBrowser(t.app);
    const form = await browser.get('/dashboard/signup');
    expect(form.status).toBe(200);
    expect(form.headers['content-security-policy']).toContain("default-src 'none'");
    for (const label of ['Business name', 'Email', 'Password']) expect(form.body).toContain(`>${label}</label>`);

    // The form's answer: check your e-mail (this server writes it to its log). Nothing exists yet.
    const fields = uniqueSignUp();
    const asked = await browser.post('/dashboard/signup', fields);
    expect(asked.status).toBe(200);
    expect(pageText(asked.body)).toContain(`We sent an e-mail to ${fields.email}. Open the link in it to continue`);
    expect(pageText(asked.body)).toContain("the e-mail, link included, is in the server's log");
    expect(sessionCookieOf(asked.setCookies)).toBeUndefined();
    expect(await t.db.query('SELECT 1 FROM merchants WHERE email = $1', [fields.email])).toEqual([]);
    // Opening the link creates nothing either (mail scanners open links); its button does.
    const link = await mailedLinkSoon(fields.email, 'signup');
    const finish = await browser.get(link);
    expect(pageText(finish.body)).toContain(`Create the merchant account of ${fields.name}, for ${fields.email}.`);
    expect(await t.db.query('SELECT 1 FROM merchants WHERE email = $1', [fields.email])).toEqual([]);
    const page = await browser.post(link);
    const keys = {
      test: /<code class="secret"[^>]*>(test_secret_key_[0-9a-f]{32})<\/code>/.exec(page.body)![1],
      live: /<code class="secret"[^>]*>(live_secret_key_[0-9a-f]{32})<\/code>/.exec(page.body)![1],
    };
    expect(pageText(page.body)).toContain("They can't be shown again");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(sessionCookieOf(page.setCookies)).toBeDefined();

    expect((await merchantApi(t.app, keys.test).initiate()).status).toBe(200);
    // Live waits for the operators' approval of the business details.
    expect(await merchantApi(t.app, keys.live).initiate()).toEqual({ status: 403, body: { detail: expect.stringContaining('not approved yet'), status_code: 403 } });
    await approveSignedUp(t.ctx, fields.email);
    expect((await merchantApi(t.app, keys.live).initiate()).status).toBe(200);

    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    // The keys page never shows a key again, only its prefix.
    const keysPage = await browser.get('/dashboard/keys');
    expect(keysPage.body).not.toContain(keys.test);
    expect(keysPage.body).not.toContain(keys.live);
    expect(keysPage.body).toContain(keys.test.slice(0, 22));
    // The e-mail is confirmed by the link; the link is spent.
    expect(await t.db.query('SELECT email_verified_at IS NOT NULL AS verified FROM merchant_people WHERE email = $1', [fields.email])).toEqual([{ verified: true }]);
    expect((await merchantBrowser(t.app, { remoteAddress: '192.0.2.41' }).get(link)).status).toBe(404);
    const again = merchantBrowser(t.app, { remoteAddress: '192.0.2.41' });
    await again.get('/dashboard/login');
    expect((await again.post(link)).status).toBe(404);
    expect(await t.db.query('SELECT count(*)::int AS n FROM merchants WHERE email = $1', [fields.email])).toEqual([{ n: 1 }]);
  });

  it('shows every problem with the form, keeping what was typed', async () => {
    const browser = merchantBrowser(t.app);
    await browser.get('/dashboard/signup');
    const page = await browser.post('/dashboard/signup', { name: '', email: 'not-an-email', password: 'short' });
    expect(page.status).toBe(400);
    const text = pageText(page.body);
    expect(text).toContain('This field may not be blank.');
    expect(text).toContain('Enter a valid email address.');
    expect(text).toContain('Ensure this field has at least 8 characters.');
    expect(page.body).toContain('value="not-an-email"');
    expect(page.body).not.toContain('value="short"');
  });

  it('ignores a fee sent with the form', async () => {
    const browser = merchantBrowser(t.app);
    await browser.get('/dashboard/signup');
    const fields = uniqueSignUp();
    expect((await browser.post('/dashboard/signup', { ...fields, fee_bps: '0' })).status).toBe(200);
    const link = await mailedLinkSoon(fields.email, 'signup');
    await browser.get(link);
    expect((await browser.post(link, { fee_bps: '0' })).status).toBe(200);
    const [row] = await t.db.query<{ fee_bps: number }>('SELECT fee_bps FROM merchants WHERE email = $1', [fields.email]);
    expect(row.fee_bps).toBe(300);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for /dashboard only, and not Secure over http', async () => {
    const { page } = await merchantBrowser(t.app).signUp();
    const cookie = sessionCookieOf(page.setCookies)!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard(;|$)/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const secure = await startTestApp({ config: { publicUrl: 'https://pay.example.com' } });
    try {
      const { page } = await merchantBrowser(secure.app).signUp();
      expect(sessionCookieOf(page.setCookies)).toMatch(/; Secure/);
      const login = await merchantBrowser(secure.app).get('/dashboard/login');
      expect(login.setCookies.find((c) => c.startsWith('bhuktani_csrf='))).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('is stored only as a hash', async () => {
    const browser = merchantBrowser(t.app);
    await browser.signUp();
    const token = browser.cookies.get(SESSION_COOKIE)!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM merchant_sessions WHERE token_hash IN ($1, $2)', [
      token,
      createHash('sha256').update(token).digest('hex'),
    ]);
    expect(rows.map((r) => r.token_hash)).toEqual([createHash('sha256').update(token).digest('hex')]);
  });

  it('stops working after 12 hours', async () => {
    const browser = merchantBrowser(t.app);
    await browser.signUp();
    expect((await browser.get('/dashboard')).status).toBe(200);
    t.clock.advance(12 * 60 * 60 + 1);
    const page = await browser.get('/dashboard');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/dashboard/login');
  });
});

describe('log-in and log-out', () => {
  it('logs in with the right password, out with the button, and the old cookie is then useless', async () => {
    const { fields } = await merchantBrowser(t.app).signUp();
    const browser = merchantBrowser(t.app);
    const loggedIn = await browser.logIn(fields.email, fields.password);
    expect(loggedIn.status).toBe(303);
    expect(loggedIn.location).toBe('/dashboard');
    const cookie = sessionCookieOf(loggedIn.setCookies)!;
    expect(cookie).toMatch(/HttpOnly/);
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(pageText(home.body)).toContain(fields.name);

    const stolen = browser.cookies.get(SESSION_COOKIE)!;
    const out = await browser.post('/dashboard/logout');
    expect(out.status).toBe(303);
    expect(out.location).toBe('/dashboard/login');
    expect(sessionCookieOf(out.setCookies)).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    const replay = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: `${SESSION_COOKIE}=${stolen}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/dashboard/login');
  });

  it('matches the email in any letter case', async () => {
    const { fields } = await merchantBrowser(t.app).signUp();
    const response = await merchantBrowser(t.app).logIn(fields.email.toUpperCase(), fields.password);
    expect(response.status).toBe(303);
  });

  it('says "Wrong email or password." for a wrong password and for an unknown email alike', async () => {
    const { fields } = await merchantBrowser(t.app, { remoteAddress: '10.1.0.1' }).signUp();
    const wrongPassword = await merchantBrowser(t.app, { remoteAddress: '10.1.0.2' }).logIn(fields.email, 'not the password');
    const unknownEmail = await merchantBrowser(t.app, { remoteAddress: '10.1.0.3' }).logIn(`nobody-${fields.email}`, fields.password);
    for (const page of [wrongPassword, unknownEmail]) {
      expect(page.status).toBe(401);
      expect(pageText(page.body)).toContain('Wrong email or password.');
      expect(sessionCookieOf(page.setCookies)).toBeUndefined();
    }
    expect(wrongPassword.body).toContain(`value="${fields.email}"`);
  });

  it('returns to the page asked for, but never to another site', async () => {
    const { fields } = await merchantBrowser(t.app).signUp();
    const browser = merchantBrowser(t.app);
    const guarded = await browser.get('/dashboard/transactions?status=Completed');
    expect(guarded.location).toBe('/dashboard/login?next=%2Fdashboard%2Ftransactions%3Fstatus%3DCompleted');
    await browser.get(guarded.location!);
    const back = await browser.post('/dashboard/login', { email: fields.email, password: fields.password, next: '/dashboard/transactions?status=Completed' });
    expect(back.location).toBe('/dashboard/transactions?status=Completed');
    for (const next of ['https://evil.example/dashboard', '//evil.example/dashboard', '/dashboard/../pay/x', '/\\evil.example']) {
      const other = merchantBrowser(t.app);
      await other.get('/dashboard/login');
      const response = await other.post('/dashboard/login', { email: fields.email, password: fields.password, next });
      expect(response.location).toBe('/dashboard');
    }
  });
});

describe('the slow-down after failed log-ins', () => {
  it('locks an email after 5 failures with a clear message, for a time that grows, even with the right password', async () => {
    const { fields } = await merchantBrowser(t.app).signUp();
    // Each try from its own address, so only the email's count is at work.
    const attempt = (password: string, n: number) => merchantBrowser(t.app, { remoteAddress: `10.2.0.${n}` }).logIn(fields.email, password);
    for (let i = 1; i <= 4; i++) expect((await attempt('wrong password', i)).status).toBe(401);
    const fifth = await attempt('wrong password', 5);
    expect(fifth.status).toBe(429);
    expect(pageText(fifth.body)).toContain('Too many failed log-ins. Try again in 30 seconds.');
    expect(fifth.headers['retry-after']).toBe('30');

    const locked = await attempt(fields.password, 6);
    expect(locked.status).toBe(429);
    expect(sessionCookieOf(locked.setCookies)).toBeUndefined();
    t.clock.advance(10);
    expect(pageText((await attempt(fields.password, 7)).body)).toContain('Try again in 20 seconds.');

    t.clock.advance(21);
    const sixth = await attempt('wrong password', 8);
    expect(sixth.status).toBe(429);
    expect(pageText(sixth.body)).toContain('Try again in 60 seconds.');
    t.clock.advance(61);
    expect((await attempt(fields.password, 9)).status).toBe(303);
    // A success clears the email's count.
    expect((await attempt('wrong password', 10)).status).toBe(401);
  });

  it('locks an address after 20 failures, whatever the emails', async () => {
    const address = '10.3.0.1';
    const { fields } = await merchantBrowser(t.app).signUp();
    for (let i = 1; i <= 19; i++) {
      expect((await merchantBrowser(t.app, { remoteAddress: address }).logIn(`guess-${i}@example.com`, 'password123')).status).toBe(401);
    }
    const twentieth = await merchantBrowser(t.app, { remoteAddress: address }).logIn('guess-20@example.com', 'password123');
    expect(twentieth.status).toBe(429);
    const blocked = await merchantBrowser(t.app, { remoteAddress: address }).logIn(fields.email, fields.password);
    expect(blocked.status).toBe(429);
    expect((await merchantBrowser(t.app, { remoteAddress: '10.3.0.2' }).logIn(fields.email, fields.password)).status).toBe(303);
  });
});

describe('CSRF', () => {
  it('rejects every dashboard form posted without the token, or with another session’s', async () => {
    const browser = merchantBrowser(t.app);
    const { fields } = await browser.signUp();
    const other = merchantBrowser(t.app);
    await other.signUp();
    const forms: [string, Record<string, string>][] = [
      ['/dashboard/environment', { environment: 'live', back: '/dashboard' }],
      ['/dashboard/logout', {}],
      ['/dashboard/keys/rotate', { environment: 'test', grace: '0' }],
      ['/dashboard/keys/rotate/confirm', { environment: 'test', grace: '0' }],
      ['/dashboard/payments/x/refund', { amount: '1' }],
      ['/dashboard/payments/x/refund/confirm', { amount_paisa: '100', refunded_before: '0' }],
    ];
    for (const [url, body] of forms) {
      for (const token of ['', 'forged.token', other.csrf]) {
        const page = await browser.post(url, { ...body, csrf_token: token });
        expect(page.status, `${url} with "${token}"`).toBe(403);
        expect(pageText(page.body)).toContain('Form expired');
      }
    }
    // Still logged in, still on test data, keys untouched.
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(pageText(home.body)).toContain('TEST DATA');
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM secret_keys k JOIN merchants m ON m.id = k.merchant_id WHERE m.email = $1 AND k.revoked_at IS NULL', [fields.email]);
    expect(n).toBe(2);
  });

  it('rejects a sign-up or log-in posted without the token', async () => {
    const fields = uniqueSignUp();
    for (const url of ['/dashboard/signup', '/dashboard/login']) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
      expect(response.statusCode).toBe(403);
    }
    const rows = await t.db.query('SELECT 1 FROM merchants WHERE email = $1', [fields.email]);
    expect(rows).toEqual([]);
  });
});

describe('without a session', () => {
  it('every dashboard page and form sends the browser to log in', async () => {
    const anonymous = merchantBrowser(t.app);
    for (const url of ['/dashboard', '/dashboard/transactions', '/dashboard/transactions.csv', '/dashboard/payments/anything', '/dashboard/keys', '/dashboard/no-such-page']) {
      const page = await anonymous.get(url);
      expect(page.status, url).toBe(303);
      expect(page.location, url).toMatch(/^\/dashboard\/login/);
    }
    for (const url of ['/dashboard/environment', '/dashboard/logout', '/dashboard/keys/rotate', '/dashboard/keys/rotate/confirm', '/dashboard/payments/x/refund', '/dashboard/payments/x/refund/confirm']) {
      const page = await anonymous.post(url, {});
      expect(page.status, url).toBe(303);
      expect(page.location, url).toBe('/dashboard/login');
    }
  });

  it('a forged or malformed session cookie is no session', async () => {
    for (const cookie of [`${SESSION_COOKIE}=${'a'.repeat(43)}`, `${SESSION_COOKIE}=x`, `${SESSION_COOKIE}=`]) {
      const response = await t.app.inject({ method: 'GET', url: '/dashboard/keys', headers: { cookie } });
      expect(response.statusCode).toBe(303);
    }
  });

  it('/ leads to the dashboard', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/dashboard');
  });
});
