// A path parameter too long to be an id (or the hosted page's pidx in its query) gets what a wrong one
// of normal length gets, on every site:
// the dashboard's, the console's and the hosted page's own pages, the API's JSON. Not a JSON 404 from
// the router (Fastify's maxParamLength, 100 by default) on an HTML site.
import type { AddressInfo } from 'node:net';
import { maxHeaderSize } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSignInFailures } from '../src/people/sign-in-throttle.js';
import { newOperator, operatorBrowser } from './console-client.js';
import { merchantBrowser } from './dashboard-client.js';
import { newMerchant, startTestApp, type TestApp } from './test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

// The wrong links this file follows on purpose count against the address they come from (link
// guesses, 10 before a lock-out). They come from an address of this file's own (on PostgreSQL the
// store is shared with the other files: never 127.0.0.1), whose count is forgotten before each
// answer compared, so what is compared is the link's answer, never the lock-out's.
const OWN_ADDRESS = { remoteAddress: '192.0.2.34' };
const forgetOwnLinkGuesses = () => forgetSignInFailures(t.db, `link:ip:${OWN_ADDRESS.remoteAddress}`);

const NORMAL = 'z'.repeat(20);
const LONG = 'z'.repeat(200);
const VERY_LONG = 'z'.repeat(5000);

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  location?: string;
}

/** What a person or a client can tell apart: status, type, where a redirect goes, and the page's title (or the JSON). */
function seen(answer: Answer, param: string) {
  const type = String(answer.headers['content-type'] ?? '');
  return {
    status: answer.status,
    type: type.split(';')[0],
    location: answer.location?.replaceAll(encodeURIComponent(param), '{param}').replaceAll(param, '{param}'),
    page: type.startsWith('text/html') ? /<title>([^<]*)<\/title>/.exec(answer.body)?.[1] : undefined,
    json: type.startsWith('application/json') ? JSON.parse(answer.body) : undefined,
  };
}

async function expectLikeNormal(send: (param: string) => Promise<Answer>, template: string) {
  await forgetOwnLinkGuesses();
  const normal = seen(await send(NORMAL), NORMAL);
  for (const param of [LONG, VERY_LONG]) {
    await forgetOwnLinkGuesses();
    expect(seen(await send(param), param), `${template} with ${param.length} characters`).toEqual(normal);
  }
  return normal;
}

describe('over-long path parameters', () => {
  it('on the dashboard: its own not-found page signed in, the log-in redirect signed out', async () => {
    const browser = merchantBrowser(t.app, OWN_ADDRESS);
    await browser.signUp();
    const pages = ['/dashboard/payments/{p}', '/dashboard/settlements/{p}', '/dashboard/settlements/{p}/statement.csv', '/dashboard/verify-email/{p}', '/dashboard/reset-password/{p}', '/dashboard/invitation/{p}'];
    for (const template of pages) await expectLikeNormal((p) => browser.get(template.replace('{p}', p)), template);
    expect(await expectLikeNormal((p) => browser.get(`/dashboard/payments/${p}`), 'payment')).toMatchObject({ status: 404, type: 'text/html', page: expect.stringContaining('Payment not found') });
    await expectLikeNormal((p) => browser.post(`/dashboard/payments/${p}/refund`, { amount: '10' }), 'refund form');

    const signedOut = merchantBrowser(t.app, OWN_ADDRESS);
    expect(await expectLikeNormal((p) => signedOut.get(`/dashboard/payments/${p}`), 'signed out')).toMatchObject({ status: 303, location: `/dashboard/login?next=${encodeURIComponent('/dashboard/payments/')}{param}` });
  });

  it('on the console: its own not-found page signed in, the sign-in redirect signed out', async () => {
    const operator = await newOperator(t.ctx, 'admin');
    const browser = operatorBrowser(t.app, t.ctx, OWN_ADDRESS);
    expect((await browser.signIn(operator)).status).toBe(303);
    for (const template of ['/console/merchants/{p}', '/console/payments/{p}', '/console/payouts/{p}', '/console/wallets/{p}', '/console/invitation/{p}']) {
      await expectLikeNormal((p) => browser.get(template.replace('{p}', p)), template);
    }
    expect(await expectLikeNormal((p) => browser.get(`/console/merchants/${p}`), 'merchant')).toMatchObject({ status: 404, type: 'text/html', page: expect.stringContaining('not found') });
    await expectLikeNormal((p) => browser.post(`/console/operators/${p}/role`, { role: 'support' }), 'role form');

    const signedOut = operatorBrowser(t.app, t.ctx, OWN_ADDRESS);
    expect(await expectLikeNormal((p) => signedOut.get(`/console/payments/${p}`), 'signed out')).toMatchObject({ status: 303 });
  });

  it("on the hosted page: the portal's page for an unknown payment", async () => {
    const get = async (url: string): Promise<Answer> => {
      const response = await t.app.inject({ method: 'GET', url, ...OWN_ADDRESS });
      return { status: response.statusCode, headers: response.headers, body: response.body, location: response.headers.location as string | undefined };
    };
    expect(await expectLikeNormal((p) => get(`/pay/${p}`), '/pay/{p}')).toMatchObject({ status: 404, type: 'text/html' });
    await expectLikeNormal((p) => get(`/pay/${p}/otp/${p}`), '/pay/{p}/otp/{p}');
    // The page's own address names the payment in its query: the same page for a pidx too long there.
    const notFound = { status: 404, type: 'text/html', page: expect.stringContaining('Payment not found') };
    expect(await expectLikeNormal((p) => get(`/pay/?pidx=${p}`), '/pay/?pidx={p}')).toMatchObject(notFound);
    expect(await expectLikeNormal((p) => get(`/pay/?pidx=${p}&attempt=${p}`), '/pay/?pidx={p}&attempt={p}')).toMatchObject(notFound);
    const post = (url: string) => async (p: string): Promise<Answer> => {
      const response = await t.app.inject({ method: 'POST', url: url.replace('{p}', p), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'mobile=9800000001&mpin=1111' });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    };
    await expectLikeNormal(post('/pay/{p}/wallet'), 'POST /pay/{p}/wallet');
    for (const step of ['wallet', 'confirm', 'cancel']) {
      expect(await expectLikeNormal(post(`/pay/${step}?pidx={p}`), `POST /pay/${step}?pidx={p}`)).toMatchObject(notFound);
    }
  });

  it("on the API: the contract's JSON error", async () => {
    const { test_secret_key: key } = await newMerchant(t.ctx);
    const send = (method: 'GET' | 'POST', url: string) => async (p: string): Promise<Answer> => {
      const response = await t.app.inject({ method, url: url.replace('{p}', p), headers: { authorization: `Key ${key}`, 'content-type': 'application/json' }, payload: method === 'POST' ? '{}' : undefined });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    };
    expect(await expectLikeNormal(send('GET', '/api/v2/settlements/{p}/'), 'settlement')).toMatchObject({ status: 404, json: { detail: 'Not found.' } });
    expect(await expectLikeNormal(send('POST', '/api/merchant-transaction/{p}/refund/'), 'refund')).toMatchObject({ status: 404, type: 'application/json' });
  });

  it('over a socket: the longest parameter a request line can carry still reaches the route', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const longest = 'z'.repeat(maxHeaderSize - 200);
    for (const url of [`/pay/${longest}`, `/pay/?pidx=${longest}`]) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    // Longer, Node's HTTP parser refuses the request line itself, before Fastify.
    expect((await fetch(`http://127.0.0.1:${port}/pay/${longest}${'z'.repeat(400)}`)).status).toBe(431);
  });
});
