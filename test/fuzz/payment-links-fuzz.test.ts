// Fuzzing payment links (issue 27): hostile bodies for the API's create, hostile ids for its reads
// and switches, hostile form posts to a link's page, hostile paths under /l/. Whatever arrives: no
// 5xx; the API answers in the contract's shapes and stores a link only when it answers 201; the page
// answers HTML (or the API's error shape for a body it cannot read) and starts a payment only when it
// redirects to the hosted page, for an amount the link allows and the details it asks; another
// merchant's link never changes. Size: FUZZ_RUNS runs per property.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, csrfToken } from '../../src/http/csrf.js';
import { serverSecret } from '../../src/http/server-secret.js';
import { codeOf, LINKS_PATH } from '../link-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { type Answer, expectApiError, jsonOf } from './contract-shapes.js';
import { fuzzOptions, fuzzTimeout, hostileString, hostileValue, rawBodies, uriEncode } from './hostile.js';

const t = await startTestApp();
afterAll(() => t.close());
// On PostgreSQL every test file shares one store, and other files run the expiry sweep at their own
// clocks (about now): twenty years ahead, nothing of this file's is ever due for them.
t.clock.advance(20 * 365 * 24 * 3600);
const merchant = await newMerchant(t.ctx);
const KEY = merchant.test_secret_key;
const other = await newMerchant(t.ctx);

async function send(method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string | undefined> = {}, key = KEY): Promise<Answer> {
  const all = Object.fromEntries(Object.entries({ authorization: `Key ${key}`, ...headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const response = await t.app.inject({ method, url, headers: all, ...(payload !== undefined ? { payload } : {}) });
  const answer = { status: response.statusCode, headers: response.headers, body: response.body };
  expect(answer.status, `${method} ${url.slice(0, 200)} → ${answer.status} ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  return answer;
}

const storedLinks = async (merchantId = merchant.merchant.id) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE merchant_id = $1', [merchantId]))[0].n;

const validLink = () => ({ name: 'Momo platter', amount: 45000, description: 'Ten momos.', ask: ['name'] });
const LINK_FIELDS = ['name', 'description', 'amount', 'min_amount', 'max_amount', 'expires_on', 'max_payments', 'ask'];

const mutatedLink = fc
  .record({
    replaced: fc.dictionary(
      fc.constantFrom(...LINK_FIELDS),
      fc.oneof(hostileValue, fc.constantFrom<unknown>('2099-01-01', '2001-01-01', '2099-01-01T00:00:00+05:45', 1000, 100, ['name', 'phone'], 'email')),
      { maxKeys: 3 },
    ),
    removed: fc.subarray(LINK_FIELDS.slice(0, 3), { maxLength: 2 }),
    range: fc.boolean(),
  })
  .map(({ replaced, removed, range }) => {
    const body: Record<string, unknown> = { ...validLink(), ...(range ? { amount: undefined, min_amount: 1000, max_amount: 5000 } : {}), ...replaced };
    for (const field of removed) delete body[field];
    return body;
  });

describe('the payment links API', () => {
  it(
    'hostile create bodies: a link stored only with 201, in its shape; anything else a contract error and nothing stored',
    async () => {
      const body = fc.oneof(
        { weight: 6, arbitrary: mutatedLink.map((b) => JSON.stringify(b)) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: rawBodies(validLink()) },
      );
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom('application/json', 'application/json', 'application/x-www-form-urlencoded', 'text/plain'), async (payload, contentType) => {
          const before = await storedLinks();
          const answer = await send('POST', LINKS_PATH, payload, { 'content-type': contentType });
          const after = await storedLinks();
          if (answer.status === 201) {
            const link = jsonOf(answer) as Record<string, unknown>;
            expect(link.url).toBe(`${t.ctx.config.publicUrl}/l/${codeOf(String(link.url))}`);
            expect(typeof link.amount === 'number' || (typeof link.min_amount === 'number' && typeof link.max_amount === 'number')).toBe(true);
            expect(after).toBe(before + 1);
          } else {
            expectApiError(answer);
            expect(after, `a refused create stored a link: ${answer.body.slice(0, 200)}`).toBe(before);
          }
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'hostile ids: only this merchant’s link is read or switched; another’s stays as it was',
    async () => {
      const own = jsonOf(await send('POST', LINKS_PATH, JSON.stringify(validLink()), { 'content-type': 'application/json' })) as { idx: string };
      const foreign = jsonOf(await send('POST', LINKS_PATH, JSON.stringify(validLink()), { 'content-type': 'application/json' }, other.test_secret_key)) as { idx: string };
      const foreignState = async () => (await t.db.query('SELECT active, updated_at FROM payment_links WHERE idx = $1', [foreign.idx]))[0];
      const before = await foreignState();
      const id = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(own.idx, foreign.idx) },
        { weight: 3, arbitrary: hostileString.map(uriEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%00', '%zz', '..', 'x'.repeat(3000), '%2F') },
      );
      await fc.assert(
        fc.asyncProperty(id, fc.constantFrom('', 'deactivate/', 'activate/'), async (idx, verb) => {
          const url = `${LINKS_PATH}${idx}/${verb}`;
          // An id that URL normalization takes out of one link's path ('..', or '.', which names the
          // list itself) is not an id of a link.
          const path = new URL(url, 'http://x.invalid').pathname;
          fc.pre(path.startsWith(LINKS_PATH) && path.length > LINKS_PATH.length + verb.length);
          const answer = await send(verb ? 'POST' : 'GET', url);
          if (answer.status === 200) expect((jsonOf(answer) as { idx: string }).idx).toBe(own.idx);
          else expectApiError(answer);
        }),
        fuzzOptions(),
      );
      expect(await foreignState()).toEqual(before);
    },
    fuzzTimeout(),
  );
});

// ---- the link's page ------------------------------------------------------------------------------

const csrfSecret = await serverSecret(t.db, 'csrf');
const NONCE = randomBytes(16).toString('base64url');
const tokenFor = (binding: string, nonce = NONCE) =>
  csrfToken({ cookies: { [CSRF_COOKIE]: nonce } } as unknown as FastifyRequest, { setCookie: () => undefined } as unknown as FastifyReply, csrfSecret, { binding, secure: false });

const create = async (body: object) => jsonOf(await send('POST', LINKS_PATH, JSON.stringify(body), { 'content-type': 'application/json' })) as { idx: string; url: string };
const fixed = await create({ name: 'Fixed', amount: 5000, ask: ['phone'] });
const range = await create({ name: 'Range', min_amount: 1000, max_amount: 100_000, ask: ['name', 'email'] });
const closed = await create({ name: 'Closed', amount: 5000 });
await send('POST', `${LINKS_PATH}${closed.idx}/deactivate/`);
const LINKS = { fixed, range, closed };

type LinkName = keyof typeof LINKS;
const paymentsOf = async (idx: string) =>
  t.db.query<{ amount: number; customer_info: Record<string, string> | null }>('SELECT amount, customer_info FROM payments WHERE payment_link = $1 ORDER BY created_at', [idx]);

describe('a link’s page', () => {
  it(
    'hostile form posts: never a 5xx; a payment only for a redirect to the hosted page, with an allowed amount and the asked details',
    async () => {
      const text = fc.oneof(hostileString, fc.constantFrom('1500', '1,500.50', '१,५००', '10', '1000.001', '-5', 'Sita', '9812345678', 'sita@example.com', ''));
      const value = fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: fc.array(text, { minLength: 2, maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant(undefined) });
      const post = fc.record({
        link: fc.constantFrom<LinkName>('fixed', 'range', 'range', 'closed'),
        csrf: fc.constantFrom('valid', 'valid', 'valid', 'another link', 'garbage', 'missing'),
        fields: fc.record({ amount: value, name: value, phone: value, email: value }),
        encoding: fc.constantFrom('form', 'form', 'form', 'json', 'text', 'broken'),
      });
      await fc.assert(
        fc.asyncProperty(post, async ({ link, csrf, fields, encoding }) => {
          const code = codeOf(LINKS[link].url);
          const token = { valid: tokenFor(`link:${code}`), 'another link': tokenFor(`link:${codeOf(LINKS.fixed.url)}x`), garbage: 'x.y', missing: undefined }[csrf];
          const all: Record<string, string | string[] | undefined> = { ...fields, csrf_token: token };
          const form = new URLSearchParams();
          for (const [k, v] of Object.entries(all)) for (const item of v === undefined ? [] : [v].flat()) form.append(k, item);
          const payload = encoding === 'json' ? JSON.stringify(all) : encoding === 'broken' ? '%zz&=&&csrf_token&%E0%A4=%' : form.toString();
          const contentType = { form: 'application/x-www-form-urlencoded', broken: 'application/x-www-form-urlencoded', json: 'application/json', text: 'text/plain' }[encoding];
          const before = (await paymentsOf(LINKS[link].idx)).length;
          const response = await t.app.inject({ method: 'POST', url: `/l/${code}`, headers: { cookie: `${CSRF_COOKIE}=${NONCE}`, 'content-type': contentType }, payload });
          const answer = { status: response.statusCode, headers: response.headers, body: response.body };
          expect(answer.status, `${answer.status} ${answer.body.slice(0, 300)}`).toBeLessThan(500);
          const payments = await paymentsOf(LINKS[link].idx);
          if (answer.status === 303) {
            expect(String(answer.headers.location)).toMatch(/\/pay\/\?pidx=\w+$/);
            expect(payments.length).toBe(before + 1);
            const made = payments.at(-1)!;
            if (link === 'fixed') expect(made.amount).toBe(5000);
            else expect(made.amount >= 1000 && made.amount <= 100_000, String(made.amount)).toBe(true);
            expect(Object.keys(made.customer_info ?? {}).sort()).toEqual(link === 'fixed' ? ['phone'] : ['email', 'name']);
            return;
          }
          expect(payments.length).toBe(before);
          if (String(answer.headers['content-type']).startsWith('application/json')) expectApiError(answer);
          else expect([400, 403, 404, 410, 429]).toContain(answer.status);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'hostile paths under /l/: never a 5xx, HTML, an image, or (refused before routing) the API’s shape',
    async () => {
      const segment = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...Object.values(LINKS).map((l) => codeOf(l.url))) },
        { weight: 3, arbitrary: hostileString.map(uriEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%00', '%zz', '..', 'x'.repeat(300), '%2F', '') },
      );
      await fc.assert(
        fc.asyncProperty(segment, fc.constantFrom('', '/paid', '/paid?pidx=x', '/qr.svg', '/qr.png', '/qr.gif'), fc.constantFrom('GET', 'HEAD', 'POST'), async (code, rest, method) => {
          const url = `/l/${code}${rest}`;
          fc.pre(new URL(url, 'http://x.invalid').pathname.startsWith('/l/'));
          const response = await t.app.inject({ method: method as 'GET', url, remoteAddress: `2001:db8::${randomBytes(2).toString('hex')}` });
          expect(response.statusCode, `${method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`).toBeLessThan(500);
          if (method === 'HEAD') return;
          const type = String(response.headers['content-type']);
          if (type.startsWith('application/json')) expectApiError({ status: response.statusCode, headers: response.headers, body: response.body });
          else expect(type).toMatch(/^(text\/html|image\/svg\+xml|image\/png)/);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});
