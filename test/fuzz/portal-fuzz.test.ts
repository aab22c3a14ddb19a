// Fuzzing the hosted payment page (issue 6): random and hostile form posts — mobile, MPIN, OTP,
// CSRF token and attempt with garbage, arrays through repeated keys, JSON and odd content types,
// foreign cookies, another payment's token or attempt — against payments in every status, at both
// addresses of each step (the payment in the query, missing, empty, repeated or hostile there, and in
// the path as given out before). The
// page never answers 5xx, answers HTML (or the API's JSON error shape for a body it cannot read),
// never shows another payment, and a payment's status only ever moves for a valid post, to the
// status that post gives. Size: FUZZ_RUNS runs per property (default 1000).
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, csrfToken } from '../../src/http/csrf.js';
import { serverSecret } from '../../src/http/server-secret.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { operatorWallet, payerBrowser } from '../portal-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { type Answer, expectApiError } from './contract-shapes.js';
import { fuzzOptions, fuzzTimeout, hostileString, uriEncode } from './hostile.js';

const t = await startTestApp();
afterAll(() => t.close());
// On PostgreSQL every test file shares one store, and other files run the expiry sweep and the
// webhook sender at their own clocks (about now): twenty years ahead, nothing of this file's is
// ever due for them.
t.clock.advance(20 * 365 * 24 * 3600);
const csrfSecret = await serverSecret(t.db, 'csrf');
const merchant = await newMerchant(t.ctx);
const testApi = merchantApi(t.app, merchant.test_secret_key);
const liveApi = merchantApi(t.app, merchant.live_secret_key);
const payer = await operatorWallet(t.ctx, { balance: 100_000_000, mpin: '2468' });

/** The payer's browser: its CSRF cookie, and the token it holds for each payment's forms. */
const NONCE = randomBytes(16).toString('base64url');
const OTHER_NONCE = randomBytes(16).toString('base64url');
const tokenFor = (pidx: string, nonce = NONCE) =>
  csrfToken({ cookies: { [CSRF_COOKIE]: nonce } } as unknown as FastifyRequest, { setCookie: () => undefined } as unknown as FastifyReply, csrfSecret, { binding: pidx, secure: false });

interface Attempt {
  token: string;
  otp: string;
  /** The status a right OTP gives. */
  pays: 'Completed' | 'Pending';
}

interface Fixture {
  pidx: string;
  environment: 'test' | 'live';
  attempts: Attempt[];
}

async function initiate(environment: 'test' | 'live') {
  const { status, body } = await (environment === 'test' ? testApi : liveApi).initiate(validInitiate());
  expect(status).toBe(200);
  return body.pidx as string;
}

/** Step one through the form, as the payer does; the attempt's token and OTP. */
async function startAttempt(pidx: string, mobile: string, mpin: string): Promise<Attempt> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/pay/${pidx}/wallet`,
    headers: { cookie: `${CSRF_COOKIE}=${NONCE}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf_token: tokenFor(pidx), mobile, mpin }).toString(),
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(303);
  const token = new URL(String(response.headers.location), 'http://x.invalid').searchParams.get('attempt')!;
  const otp = mobile === payer.mobile ? t.sentOtps.filter((m) => m.pidx === pidx).at(-1)!.otp : '987654';
  return { token, otp, pays: mobile === '9800000007' ? 'Pending' : 'Completed' };
}

/** An Initiated payment with open attempts: the kind a post can move. */
async function payable(environment: 'test' | 'live'): Promise<Fixture> {
  const pidx = await initiate(environment);
  const attempts =
    environment === 'test' ? [await startAttempt(pidx, '9800000001', '1111'), await startAttempt(pidx, '9800000007', '1111')] : [await startAttempt(pidx, payer.mobile, payer.mpin)];
  return { pidx, environment, attempts };
}

// Payments in every status. Expired first: the clock moves past it before the others are made.
const fixtures: Record<string, Fixture> = {};
fixtures.expired = { pidx: await initiate('test'), environment: 'test', attempts: [] };
fixtures.expired.attempts.push(await startAttempt(fixtures.expired.pidx, '9800000001', '1111'));
t.clock.advance(t.ctx.config.paymentTtlSeconds + 1);
fixtures.initiated = await payable('test');
fixtures.live = await payable('live');
fixtures.completed = { pidx: await initiate('test'), environment: 'test', attempts: [] };
await payerBrowser(t.app).pay(fixtures.completed.pidx);
fixtures.pending = { pidx: await initiate('test'), environment: 'test', attempts: [] };
await payerBrowser(t.app).pay(fixtures.pending.pidx, '9800000007');
fixtures.canceled = { pidx: await initiate('test'), environment: 'test', attempts: [] };
await payerBrowser(t.app).cancel(fixtures.canceled.pidx);
/** An Initiated payment, with an attempt started, of an order another payment then paid. */
async function orderPaidElsewhere(): Promise<Fixture> {
  const order = validInitiate();
  const first = (await testApi.initiate(order)).body.pidx as string;
  const pidx = (await testApi.initiate(order)).body.pidx as string;
  const attempts = [await startAttempt(pidx, '9800000002', '1111')];
  await payerBrowser(t.app).pay(first);
  return { pidx, environment: 'test', attempts };
}
fixtures.orderPaid = await orderPaidElsewhere();

const NAMES = Object.keys(fixtures);

/** A payment like the one a valid post just moved, in its place. */
async function recreate(name: string): Promise<Fixture> {
  if (name === 'orderPaid') return orderPaidElsewhere();
  return payable(fixtures[name].environment);
}

async function statuses(): Promise<Record<string, string>> {
  const pidxs = NAMES.map((name) => fixtures[name].pidx);
  const rows = await t.db.query<{ pidx: string; status: string }>('SELECT pidx, status FROM payments WHERE pidx = ANY($1)', [pidxs]);
  const byPidx = new Map(rows.map((r) => [r.pidx, r.status]));
  return Object.fromEntries(NAMES.map((name) => [name, byPidx.get(fixtures[name].pidx)!]));
}

// ---- the posts --------------------------------------------------------------------------------

type FieldValue = string | string[] | undefined;
const garbage = fc.oneof(hostileString, fc.constantFrom('', ' ', '987654 987654', '98000000011', '980000000', '+9779800000001', '1111 ', '０１２３'));
/** A field: the right value, another one, garbage, repeated (an array), or absent. */
const fieldOf = (...right: fc.Arbitrary<string>[]): fc.Arbitrary<FieldValue> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...right) },
    { weight: 3, arbitrary: garbage },
    { weight: 1, arbitrary: fc.array(fc.oneof(garbage, ...right), { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

type CsrfKind = 'valid' | 'another payment' | 'another browser' | 'garbage' | 'missing' | 'repeated';
type CookieKind = 'ours' | 'none' | 'another browser' | 'garbage';
type AttemptKind = 'own' | 'another payment' | 'garbage' | 'missing' | 'repeated';
type Encoding = 'form' | 'json' | 'multipart' | 'text' | 'none' | 'broken form';
/** Where the post names the payment: the step's address (`/pay/<step>?pidx=`) in each way a query can hold it, or the path given out before. */
type Address = 'query' | 'query repeated' | 'query empty' | 'query missing' | 'path';

/** The hosted page's address of `pidx` (already URI-encoded) for `step`, as `address` names it. */
function addressOf(address: Address, pidx: string, step: string): string {
  const query = { query: `?pidx=${pidx}`, 'query repeated': `?pidx=${pidx}&pidx=${pidx}`, 'query empty': '?pidx=', 'query missing': '', path: '' }[address];
  return address === 'path' ? `/pay/${pidx}${step ? `/${step}` : ''}` : `/pay/${step}${query}`;
}

interface Post {
  route: 'wallet' | 'confirm' | 'cancel';
  target: string | { garbage: string };
  csrf: CsrfKind;
  cookie: CookieKind;
  attempt: AttemptKind;
  attemptIndex: number;
  otp: 'right' | 'spaced' | FieldValue;
  mobile: FieldValue;
  mpin: FieldValue;
  extra: Record<string, string>;
  encoding: Encoding;
  address: Address;
}

const postArb: fc.Arbitrary<Post> = fc.record({
  route: fc.constantFrom('wallet', 'confirm', 'confirm', 'cancel'),
  target: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...NAMES, 'initiated', 'initiated', 'live') },
    { weight: 1, arbitrary: fc.oneof(hostileString.map(uriEncode), fc.constantFrom('%00', 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(200), '..', '%zz', '%2F')).map((garbage) => ({ garbage })) },
  ),
  csrf: fc.constantFrom<CsrfKind>('valid', 'valid', 'valid', 'another payment', 'another browser', 'garbage', 'missing', 'repeated'),
  cookie: fc.constantFrom<CookieKind>('ours', 'ours', 'ours', 'none', 'another browser', 'garbage'),
  attempt: fc.constantFrom<AttemptKind>('own', 'own', 'another payment', 'garbage', 'missing', 'repeated'),
  attemptIndex: fc.nat(3),
  otp: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<'right' | 'spaced'>('right', 'right', 'spaced') }, { weight: 2, arbitrary: fieldOf(fc.constant('987654')) }),
  mobile: fieldOf(fc.constantFrom('9800000001', '9800000007', '9800000002', payer.mobile, ` ${payer.mobile} `)),
  mpin: fieldOf(fc.constantFrom('1111', '2468', '0000')),
  extra: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 }),
  encoding: fc.constantFrom<Encoding>('form', 'form', 'form', 'form', 'json', 'json', 'multipart', 'text', 'none', 'broken form'),
  address: fc.constantFrom<Address>('query', 'query', 'query', 'path', 'path', 'query repeated', 'query empty', 'query missing'),
});

interface Built {
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What a browser following the forms would have sent: the move a valid post may make. */
  valid?: { fixture: string; to: string };
}

function build(post: Post): Built {
  const fixtureName = typeof post.target === 'string' ? post.target : undefined;
  const fixture = fixtureName ? fixtures[fixtureName] : undefined;
  const pidx = fixture ? fixture.pidx : (post.target as { garbage: string }).garbage;
  const others = NAMES.filter((n) => n !== fixtureName);
  const another = fixtures[others[post.attemptIndex % others.length]];
  const otherAttempts = NAMES.flatMap((n) => (n === fixtureName ? [] : fixtures[n].attempts));

  const ownAttempt = fixture?.attempts.length ? fixture.attempts[post.attemptIndex % fixture.attempts.length] : undefined;
  const attemptToken: FieldValue = {
    own: ownAttempt?.token ?? 'no-attempt',
    'another payment': otherAttempts.length ? otherAttempts[post.attemptIndex % otherAttempts.length].token : 'none',
    garbage: ['\u0000', 'x'.repeat(300), '', ' ', '%00', '../x'][post.attemptIndex % 6],
    missing: undefined,
    repeated: ownAttempt ? [ownAttempt.token, ownAttempt.token] : ['a', 'b'],
  }[post.attempt];
  const otp: FieldValue = post.otp === 'right' ? (ownAttempt?.otp ?? '987654') : post.otp === 'spaced' ? ` ${ownAttempt?.otp ?? '987654'} ` : post.otp;
  const csrf: FieldValue = {
    valid: tokenFor(pidx),
    'another payment': tokenFor(another.pidx),
    'another browser': tokenFor(pidx, OTHER_NONCE),
    garbage: 'x.y',
    missing: undefined,
    repeated: [tokenFor(pidx), tokenFor(pidx)],
  }[post.csrf];
  const cookie = { ours: `${CSRF_COOKIE}=${NONCE}`, none: undefined, 'another browser': `${CSRF_COOKIE}=${OTHER_NONCE}`, garbage: `${CSRF_COOKIE}=${'\u00e9'.repeat(3)}; x=%zz` }[post.cookie];

  const fields: Record<string, FieldValue> = { ...post.extra, csrf_token: csrf };
  if (post.route === 'wallet') Object.assign(fields, { mobile: post.mobile, mpin: post.mpin });
  if (post.route === 'confirm') Object.assign(fields, { attempt: attemptToken, otp });

  const headers: Record<string, string> = cookie ? { cookie } : {};
  let payload: string | undefined;
  switch (post.encoding) {
    case 'form':
    case 'text': {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const item of v === undefined ? [] : [v].flat()) form.append(k, item);
      payload = form.toString();
      headers['content-type'] = post.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'text/plain';
      break;
    }
    case 'json':
      payload = JSON.stringify(fields);
      headers['content-type'] = 'application/json';
      break;
    case 'multipart':
      payload = Object.entries(fields)
        .filter(([, v]) => typeof v === 'string')
        .map(([k, v]) => `--x\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('')
        .concat('--x--\r\n');
      headers['content-type'] = 'multipart/form-data; boundary=x';
      break;
    case 'broken form':
      payload = '%zz&=&&csrf_token&%E0%A4=%';
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'none':
      break;
  }

  // A post the hosted page's own forms would send: this browser's token for this payment, once.
  const readable = post.encoding === 'form' || post.encoding === 'json';
  // (Another browser's token with that browser's own cookie is that browser's valid post.)
  const sameBrowser = (post.csrf === 'valid' && post.cookie === 'ours') || (post.csrf === 'another browser' && post.cookie === 'another browser');
  const named = post.address === 'query' || post.address === 'path';
  const csrfOk = readable && sameBrowser && fixture !== undefined && named;
  let valid: Built['valid'];
  if (csrfOk && post.route === 'cancel') valid = { fixture: fixtureName!, to: 'User canceled' };
  const otpRight = typeof otp === 'string' && ownAttempt !== undefined && otp.trim() === ownAttempt.otp;
  if (csrfOk && post.route === 'confirm' && post.attempt === 'own' && otpRight) valid = { fixture: fixtureName!, to: ownAttempt!.pays };
  return { url: addressOf(post.address, pidx, post.route), headers, payload, valid };
}

/**
 * The page's answer: HTML, a redirect, or (for a body it cannot read) the API's error shape. At a
 * step's address with the payment in the query the route is always found: a payment it cannot find
 * gets the page's own not-found page, never the API's 404.
 */
function expectPortalAnswer(answer: Answer, target: string, address: Address) {
  const shown = `${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, shown).toBeLessThan(500);
  if (answer.status === 303) {
    const location = String(answer.headers.location);
    expect(location.startsWith(`/pay/?pidx=${target}&attempt=`) || location.startsWith('https://shop.example.com/return?'), location).toBe(true);
    return;
  }
  if (String(answer.headers['content-type']).startsWith('application/json')) {
    // A body it cannot read, or a path refused before routing (a parameter over Fastify's length limit).
    expect(address === 'path' ? [400, 404, 413, 415] : [400, 413, 415], shown).toContain(answer.status);
    expectApiError(answer);
    return;
  }
  expect(String(answer.headers['content-type']), shown).toMatch(/^text\/html/);
  expect([200, 400, 403, 404, 409, 410, 429], shown).toContain(answer.status);
}

describe('the hosted page', () => {
  it(
    'hostile form posts: never a 5xx, never another payment shown, a status moves only for a valid post',
    async () => {
      let moves = 0;
      await fc.assert(
        fc.asyncProperty(postArb, async (post) => {
          const request = build(post);
          fc.pre(new URL(request.url, 'http://x.invalid').pathname.startsWith('/pay/'));
          const before = await statuses();
          const response = await t.app.inject({ method: 'POST', url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
          const answer = { status: response.statusCode, headers: response.headers, body: response.body };
          const target = typeof post.target === 'string' ? fixtures[post.target].pidx : '';
          expectPortalAnswer(answer, target, post.address);
          for (const name of NAMES) if (fixtures[name].pidx !== target) expect(answer.body, `${name}'s pidx shown`).not.toContain(fixtures[name].pidx);

          const after = await statuses();
          const moved = NAMES.filter((name) => after[name] !== before[name]);
          if (moved.length === 0) return;
          // A fresh payment takes the moved one's place, whatever the verdict below.
          for (const name of moved) fixtures[name] = await recreate(name);
          // Only the target, only from Initiated, only for a valid post, only to what that post gives.
          expect({ moved, from: before[moved[0]], to: after[moved[0]] }).toEqual({ moved: [request.valid?.fixture], from: 'Initiated', to: request.valid?.to });
          moves += 1;
        }),
        fuzzOptions(),
      );
      console.log(`portal fuzz: ${moves} valid posts moved a payment`);
    },
    fuzzTimeout(),
  );

  it(
    'hostile paths and attempt tokens on the pages: never a 5xx, HTML or a redirect',
    async () => {
      const segment = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...NAMES).map((name) => fixtures[name].pidx) },
        { weight: 2, arbitrary: hostileString.map(uriEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%00', '%zz', '..', 'x'.repeat(65), 'x'.repeat(150), '%2F', '') },
      );
      const token = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...NAMES.flatMap((n) => fixtures[n].attempts.map((a) => a.token))) },
        { weight: 2, arbitrary: hostileString.map(uriEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%00', 'x'.repeat(150)) },
      );
      const address = fc.constantFrom<Address>('query', 'query', 'path', 'path', 'query repeated', 'query empty', 'query missing');
      await fc.assert(
        fc.asyncProperty(segment, fc.option(token), fc.boolean(), address, fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'), async (pidx, attempt, attemptRepeated, shape, method) => {
          const attemptQuery = attempt === null ? '' : `${shape === 'query missing' ? '?' : '&'}attempt=${attempt}${attemptRepeated ? `&attempt=${attempt}` : ''}`;
          const url = shape === 'path' ? `/pay/${pidx}${attempt === null ? '' : `/otp/${attempt}`}` : `${addressOf(shape, pidx, '')}${attemptQuery}`;
          // `..` may climb out of /pay: that is another part of the site.
          fc.pre(new URL(url, 'http://x.invalid').pathname.startsWith('/pay/'));
          const before = await statuses();
          const response = await t.app.inject({ method: method as 'GET', url, headers: { cookie: `${CSRF_COOKIE}=${NONCE}` } });
          expect(response.statusCode, `${method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`).toBeLessThan(500);
          if (method === 'GET') {
            const answer = { status: response.statusCode, headers: response.headers, body: response.body };
            // An attempt that names nothing sends the payer back to the payment's page, at its address.
            if (response.statusCode === 303) expect(String(response.headers.location)).toBe(`/pay/?pidx=${pidx}`);
            else if (String(response.headers['content-type']).startsWith('application/json') && shape === 'path') expectApiError(answer);
            else expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
            const own = NAMES.find((n) => fixtures[n].pidx === pidx);
            for (const name of NAMES) if (name !== own) expect(response.body).not.toContain(fixtures[name].pidx);
          }
          expect(await statuses()).toEqual(before);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

describe('the payer’s language', () => {
  it(
    'hostile Accept-Language headers, cookies and switch addresses: never a 5xx, English or Nepali, back only to a payer page',
    async () => {
      const header = fc.oneof(
        fc.constantFrom('ne', 'ne-NP,ne;q=0.9', 'en;q=0, ne;q=0', '*;q=0.1', 'ne;q=2', 'ne;q=-1', ',,,;;;', 'x'.repeat(4000), 'ne;q=0.5;q=0.9'),
        fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
      );
      const back = fc.oneof(
        fc.constantFrom('/pay/?pidx=x', '//evil.example', 'https://evil.example/pay', '/pay/../dashboard', '/%2F%2Fevil.example', '/pay\\x', '/demo', '/l/abc', '/pay?x=%0d%0aSet-Cookie:a=b'),
        hostileString,
      );
      await fc.assert(
        fc.asyncProperty(header, fc.constantFrom('en', 'ne', 'fr', '', '%00'), back, fc.constantFrom('', 'ne', 'en', 'zz', '%ff'), async (accept, language, to, cookie) => {
          const page = await t.app.inject({ url: `/pay/?pidx=${fixtures.initiated.pidx}`, headers: { 'accept-language': accept, cookie: `bhuktani_lang=${cookie}` } });
          expect(page.statusCode).toBe(200);
          expect(page.body).toMatch(/^<!doctype html>\n<html lang="(en|ne)">/);
          const switched = await t.app.inject({ url: `/language/${language}?back=${uriEncode(to)}` });
          expect(switched.statusCode).toBeLessThan(500);
          if (switched.statusCode === 303) expect(String(switched.headers.location)).toMatch(/^\/(pay[/?]|pay$|l\/|demo([/?]|$))/);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});
