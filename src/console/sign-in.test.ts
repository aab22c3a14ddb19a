import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../audit/audit-store.js';
import type { Queryable } from '../db/db.js';
import { serverSecret } from '../http/server-secret.js';
import { totpCode } from '../people/totp.js';
import { newOperator, operatorBrowser, type TestOperator } from '../../test/console-client.js';
import { merchantBrowser, pageText, uniqueSignUp } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

describe('signing in to the console', () => {
  let t: TestApp;
  let admin: TestOperator;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await newOperator(t.ctx, 'admin');
  });
  afterAll(() => t.close());

  it('sends a signed-out browser to the sign-in page', async () => {
    const page = await operatorBrowser(t.app, t.ctx).get('/console/operators?x=1');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/console/login?next=%2Fconsole%2Foperators%3Fx%3D1');
  });

  it('signs in with the password and then a TOTP code, with a strict cookie for /console only, and audits it', async () => {
    const browser = operatorBrowser(t.app, t.ctx);
    const first = await browser.password(admin.email, admin.password);
    expect(first.status).toBe(303);
    expect(first.location).toBe('/console/login/code');
    // Half-way, the pages stay closed.
    expect((await browser.get('/console')).location).toBe('/console/login');
    const second = await browser.post('/console/login/code', { code: browser.codeNow(admin.secret) });
    expect(second.status).toBe(303);
    expect(second.location).toBe('/console');
    const cookie = first.setCookies.find((c) => c.startsWith('bhuktani_console='))!;
    expect(cookie).toMatch(/Path=\/console/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const home = await browser.get('/console');
    expect(home.status).toBe(200);
    expect(pageText(home.body)).toContain('Operator console');
    expect(pageText(home.body)).toContain(admin.email);
    expect(home.headers['content-security-policy']).toContain("default-src 'none'");
    const [entry] = await listAudit(t.db, { operatorId: admin.id, action: 'operator.sign_in', limit: 1 });
    expect(entry).toMatchObject({ object: { type: 'operator', id: String(admin.id) }, after: { second_factor: 'totp' } });
  });

  it('refuses a wrong password and a wrong code, and a code used once already', async () => {
    const operator = await newOperator(t.ctx, 'support');
    const browser = operatorBrowser(t.app, t.ctx);
    expect((await browser.password(operator.email, 'not the password 1')).status).toBe(401);
    await browser.password(operator.email, operator.password);
    const code = browser.codeNow(operator.secret);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await browser.post('/console/login/code', { code: wrong });
    expect(refused.status).toBe(401);
    expect(pageText(refused.body)).toContain('That code is not valid');
    expect((await browser.post('/console/login/code', { code })).status).toBe(303);

    const again = operatorBrowser(t.app, t.ctx);
    await again.password(operator.email, operator.password);
    expect((await again.post('/console/login/code', { code })).status).toBe(401);
    // The next step's code works (the app's clock moved on).
    t.clock.advance(30);
    expect((await again.post('/console/login/code', { code: again.codeNow(operator.secret) })).status).toBe(303);
  });

  it('locks the second factor after five wrong codes, even with a right code after', async () => {
    const operator = await newOperator(t.ctx, 'finance');
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.password(operator.email, operator.password);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await browser.post('/console/login/code', { code: '000000' === browser.codeNow(operator.secret) ? '111111' : '000000' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await browser.post('/console/login/code', { code: browser.codeNow(operator.secret) });
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('30');
    t.clock.advance(31);
    expect((await browser.post('/console/login/code', { code: browser.codeNow(operator.secret) })).status).toBe(303);
  });

  it('accepts a recovery code once, in place of the app', async () => {
    const operator = await newOperator(t.ctx, 'support');
    const [code] = operator.recoveryCodes;
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.password(operator.email, operator.password);
    expect((await browser.post('/console/login/code', { code: code.toUpperCase() })).status).toBe(303);
    const [entry] = await listAudit(t.db, { operatorId: operator.id, action: 'operator.sign_in', limit: 1 });
    expect(entry.after).toEqual({ second_factor: 'recovery_code' });
    const again = operatorBrowser(t.app, t.ctx);
    await again.password(operator.email, operator.password);
    expect((await again.post('/console/login/code', { code })).status).toBe(401);
  });

  it('ends a session after 30 minutes idle and after 8 hours whatever happens', async () => {
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.signIn(admin);
    t.clock.advance(29 * 60);
    expect((await browser.get('/console')).status).toBe(200);
    t.clock.advance(29 * 60);
    expect((await browser.get('/console')).status).toBe(200);
    t.clock.advance(31 * 60);
    expect((await browser.get('/console')).location).toBe('/console/login');

    t.clock.advance(60);
    const busy = operatorBrowser(t.app, t.ctx);
    await busy.signIn(admin);
    for (let minutes = 0; minutes < 8 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60);
      expect((await busy.get('/console')).status, `after ${minutes + 20} minutes`).toBe(200);
    }
    t.clock.advance(21 * 60);
    expect((await busy.get('/console')).location).toBe('/console/login');
  });

  it('signs out: the session is gone on the server', async () => {
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.signIn(admin);
    const token = browser.cookies.get('bhuktani_console')!;
    await browser.get('/console');
    expect((await browser.post('/console/logout')).location).toBe('/console/login');
    const replay = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie: `bhuktani_console=${token}` } });
    expect(replay.statusCode).toBe(303);
  });

  it('means nothing to a merchant session: the dashboard cookie opens no console page', async () => {
    const merchant = merchantBrowser(t.app);
    await merchant.signUp(uniqueSignUp());
    const page = await merchant.get('/console');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/console/login');
  });

  it('audits the creation of an operator as the CLI', async () => {
    const [entry] = await listAudit(t.db, { objectType: 'operator', objectId: String(admin.id), action: 'operator.create', limit: 1 });
    expect(entry).toMatchObject({ actor: { kind: 'cli', label: 'cli' }, after: { email: admin.email, role: 'admin' } });
  });

  it('keeps the TOTP secret sealed in the database', async () => {
    const [row] = await t.db.query<{ totp_secret_sealed: string }>('SELECT totp_secret_sealed FROM operators WHERE id = $1', [admin.id]);
    expect(row.totp_secret_sealed).toMatch(/^s1\./);
    expect(row.totp_secret_sealed).not.toContain(admin.secret);
    expect(totpCode(admin.secret, t.clock.now())).toMatch(/^\d{6}$/);
  });

  it('signs in an operator whose TOTP secret was sealed in the format before (v1), as stores made earlier hold it', async () => {
    const operator = await newOperator(t.ctx, 'support');
    await t.db.query('UPDATE operators SET totp_secret_sealed = $2 WHERE id = $1', [operator.id, await sealedAsBefore(t.db, operator.secret)]);
    const browser = operatorBrowser(t.app, t.ctx);
    const signedIn = await browser.signIn(operator);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/console');
  });
});

/** A TOTP secret as it was sealed before secrets/seal.ts: `v1.<iv>.<tag>.<ciphertext>` under the store's `totp-seal` key. */
async function sealedAsBefore(db: Queryable, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await serverSecret(db, 'totp-seal'), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}
