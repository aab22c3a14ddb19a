// The API keys page: what it shows of each key, and rotation, immediate or after a grace period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { merchantBrowser, pageText, type MerchantBrowser } from '../../test/dashboard-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const INVALID_TOKEN = { status: 401, body: { detail: 'Invalid token.', status_code: 401 } };

/** The rows of the keys table: environment, key prefix, last used, status. */
function keyRows(body: string) {
  return [...body.matchAll(/<tr class="key-row (\w+)" data-environment="(\w+)">([\s\S]*?)<\/tr>/g)].map((m) => {
    const cells = [...m[3].matchAll(/<td data-label="([^"]+)">([\s\S]*?)<\/td>/g)].map((c) => pageText(c[2]));
    return { status: m[1], environment: m[2], key: cells[1], created: cells[2], lastUsed: cells[3], shown: cells[4] };
  });
}

/** Rotation through the forms: choose, review, confirm. Returns the review page and the new key's page. */
async function rotate(browser: MerchantBrowser, environment: 'test' | 'live', grace: string) {
  await browser.get('/dashboard/keys');
  const review = await browser.post('/dashboard/keys/rotate', { environment, grace });
  const done = await browser.post('/dashboard/keys/rotate/confirm', { environment, grace });
  const key = new RegExp(`<code class="secret"[^>]*>(${environment}_secret_key_[0-9a-f]{32})</code>`).exec(done.body)?.[1];
  return { review, done, key: key! };
}

describe('the keys page', () => {
  it('shows each key’s environment, prefix, creation, last use and status, never the key', async () => {
    const browser = merchantBrowser(t.app);
    const { keys, fields } = await browser.signUp();
    await approveSignedUp(t.ctx, fields.email);
    const page = await browser.get('/dashboard/keys');
    expect(page.status).toBe(200);
    const rows = keyRows(page.body);
    expect(rows.map((r) => [r.environment, r.key, r.lastUsed, r.shown])).toEqual([
      ['test', `${keys.test.slice(0, 22)}…`, 'Never', 'Active'],
      ['live', `${keys.live.slice(0, 22)}…`, 'Never', 'Active'],
    ]);
    expect(rows[0].created).toMatch(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d$/);
    expect(page.body).not.toContain(keys.test);

    expect((await merchantApi(t.app, keys.live).lookup('nothing')).status).toBe(404);
    await expect.poll(async () => keyRows((await browser.get('/dashboard/keys')).body)[1].lastUsed).toMatch(/^\d{1,2} \w{3} \d{4}, /);
    expect(keyRows((await browser.get('/dashboard/keys')).body)[0].lastUsed).toBe('Never');
  });
});

describe('rotation', () => {
  it('immediately: the new key is shown once and works, the old one stops at once', async () => {
    const browser = merchantBrowser(t.app);
    const { keys, fields } = await browser.signUp();
    await approveSignedUp(t.ctx, fields.email);
    const { review, done, key } = await rotate(browser, 'test', '0');
    expect(pageText(review.body)).toContain(`Rotate the test secret key?`);
    expect(pageText(review.body)).toContain(`${keys.test.slice(0, 22)}… will stop working immediately`);
    expect(done.status).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(pageText(done.body)).toContain("They can't be shown again");
    expect(pageText(done.body)).toContain('The old key no longer works.');
    expect(key).toMatch(/^test_secret_key_[0-9a-f]{32}$/);

    expect(await merchantApi(t.app, keys.test).initiate()).toEqual(INVALID_TOKEN);
    expect((await merchantApi(t.app, key).initiate()).status).toBe(200);
    expect((await merchantApi(t.app, keys.live).initiate()).status).toBe(200);

    const page = await browser.get('/dashboard/keys');
    expect(page.body).not.toContain(key);
    expect(keyRows(page.body).map((r) => [r.environment, r.key, r.status])).toEqual([
      ['test', `${key.slice(0, 22)}…`, 'active'],
      ['test', `${keys.test.slice(0, 22)}…`, 'revoked'],
      ['live', `${keys.live.slice(0, 22)}…`, 'active'],
    ]);
  });

  it('with a grace period: the old key works until it ends, then stops', async () => {
    const browser = merchantBrowser(t.app);
    const { keys, fields } = await browser.signUp();
    await approveSignedUp(t.ctx, fields.email);
    const { review, done, key } = await rotate(browser, 'live', '3600');
    expect(pageText(review.body)).toMatch(/will stop working at \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d/);
    expect(pageText(done.body)).toContain('The old key keeps working until');

    const oldKey = merchantApi(t.app, keys.live);
    expect((await oldKey.initiate()).status).toBe(200);
    expect((await merchantApi(t.app, key).initiate()).status).toBe(200);
    expect(keyRows((await browser.get('/dashboard/keys')).body).find((r) => r.key.startsWith(keys.live.slice(0, 22)))?.shown).toMatch(/^Revokes at /);

    t.clock.advance(3599);
    expect((await oldKey.initiate()).status).toBe(200);
    t.clock.advance(2);
    expect(await oldKey.initiate()).toEqual(INVALID_TOKEN);
    expect((await merchantApi(t.app, key).initiate()).status).toBe(200);
    expect((await merchantApi(t.app, keys.test).initiate()).status).toBe(200);
  });

  it('an immediate rotation during a grace period ends that grace period too', async () => {
    const browser = merchantBrowser(t.app);
    const { keys } = await browser.signUp();
    const first = await rotate(browser, 'test', '604800');
    const second = await rotate(browser, 'test', '0');
    const review = pageText(second.review.body);
    expect(review).toContain(`${first.key.slice(0, 22)}…, ${keys.test.slice(0, 22)}… will stop working immediately`);
    expect(await merchantApi(t.app, keys.test).initiate()).toEqual(INVALID_TOKEN);
    expect(await merchantApi(t.app, first.key).initiate()).toEqual(INVALID_TOKEN);
    expect((await merchantApi(t.app, second.key).initiate()).status).toBe(200);
  });

  it('refuses a grace period it does not offer, and an unknown environment', async () => {
    const browser = merchantBrowser(t.app);
    const { keys } = await browser.signUp();
    for (const [environment, grace] of [
      ['test', '5'],
      ['test', ''],
      ['prod', '0'],
    ]) {
      await browser.get('/dashboard/keys');
      const response = await browser.post('/dashboard/keys/rotate/confirm', { environment, grace });
      expect(response.status).toBe(400);
      expect(pageText(response.body)).toContain('Choose a key and when to revoke the old one.');
    }
    expect((await merchantApi(t.app, keys.test).initiate()).status).toBe(200);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM secret_keys k JOIN merchants m ON m.id = k.merchant_id WHERE m.idx = (SELECT m2.idx FROM merchants m2 JOIN secret_keys k2 ON k2.merchant_id = m2.id WHERE k2.prefix = $1)', [`${keys.test.slice(0, 22)}…`]);
    expect(n).toBe(2);
  });
});
