// Authentication (contract section 2) for every route under /api. The routes are recorded as the app
// registers them, not listed here, so a route added later is checked without anyone remembering to.
import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { findSecretKeyOwner, revokeSecretKey } from '../src/merchants/merchant-store.js';
import { hashSecretKey } from '../src/merchants/secret-key.js';
import { LOOKUP_PATH, merchantApi, validInitiate } from './api-client.js';
import { newMerchant, startTestApp, type TestApp } from './test-app.js';

interface ApiRoute {
  method: string;
  /** As registered, e.g. `/api/merchant-transaction/:transaction_id/refund/`. */
  path: string;
  /** A concrete URL for it: parameters filled in, with the contract's trailing slash. */
  url: string;
}

/**
 * Starts a test app and records every route it registers under /api, one entry per method. The
 * onRoute hook goes on the instance through Fastify's initialization channel, before any plugin runs.
 */
const PUBLIC_API_ROUTES = ['/api/v2/openapi.json'];
/** eSewa's door (contract section 12) takes no key, as on eSewa: its product code and signature decide (src/doors/esewa-epay/). */
const ESEWA_DOOR = /^\/api\/epay\//;

async function startRecordingRoutes(): Promise<{ t: TestApp; routes: ApiRoute[] }> {
  const routes = new Map<string, ApiRoute>();
  const record = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      if (!/^\/api(\/|$)/.test(route.url)) return;
      // The OpenAPI document describes the API and is public by design; everything else needs a key.
      if (PUBLIC_API_ROUTES.includes(route.url) || ESEWA_DOOR.test(route.url)) return;
      const filled = route.url.replace(/:\w+/g, 'x').replace(/\*/g, 'x');
      const url = filled.endsWith('/') ? filled : `${filled}/`;
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, { method, path: route.url, url });
    });
  };
  diagnostics.subscribe('fastify.initialization', record);
  try {
    const t = await startTestApp();
    return { t, routes: [...routes.values()] };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', record);
  }
}

const NOT_PROVIDED = { detail: 'Authentication credentials were not provided.', status_code: 401 };
const INVALID_TOKEN = { detail: 'Invalid token.', status_code: 401 };

const { t, routes } = await startRecordingRoutes();
afterAll(() => t.close());

const owner = await newMerchant(t.ctx);
const key = owner.test_secret_key;
const revoked = await newMerchant(t.ctx);

async function keyIdOf(secret: string, db = t.db): Promise<number> {
  const found = await findSecretKeyOwner(db, hashSecretKey(secret));
  if (!found) throw new Error('key not stored');
  return found.keyId;
}
await revokeSecretKey(t.db, await keyIdOf(revoked.test_secret_key), new Date(t.clock.now().getTime() - 1000));

const unknownKey = (environment: 'test' | 'live') => `${environment}_secret_key_${randomBytes(16).toString('hex')}`;

/** Calls `route` with this Authorization value (none when undefined); a body-carrying method gets `payload`. */
async function call(route: ApiRoute, authorization: string | undefined, payload: string = '{}') {
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method);
  const response = await t.app.inject({
    method: route.method as 'GET',
    url: route.url,
    headers: {
      ...(authorization !== undefined ? { authorization } : {}),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { payload } : {}),
  });
  return { status: response.statusCode, body: route.method === 'HEAD' ? response.body : response.json() };
}

async function expectRejected(route: ApiRoute, authorization: string | undefined, body: object, payload?: string) {
  const response = await call(route, authorization, payload);
  if (route.method === 'HEAD') expect(response).toStrictEqual({ status: 401, body: '' });
  else expect(response).toStrictEqual({ status: 401, body });
}

async function expectAccepted(route: ApiRoute, authorization: string) {
  const { status } = await call(route, authorization);
  expect(status).not.toBe(401);
  expect(status).toBeLessThan(500);
}

describe('the routes under /api', () => {
  it('are found, the merchant API among them', () => {
    const found = routes.map((r) => `${r.method} ${r.path}`);
    expect(found).toEqual(
      expect.arrayContaining(['POST /api/v2/epayment/initiate/', 'POST /api/v2/epayment/lookup/', 'GET /api/v2/merchant-transaction/']),
    );
  });
});

/** The authentication every /api route must have; run for each route the app registers. */
function authenticationChecks(route: ApiRoute) {
  it('no Authorization header → 401 "Authentication credentials were not provided."', async () => {
    await expectRejected(route, undefined, NOT_PROVIDED);
  });

  it.each([
    ['Bearer', () => `Bearer ${key}`],
    ['Token', () => `Token ${key}`],
    ['Basic', () => `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['the bare key', () => key],
    ['no space after Key', () => `Key${key}`],
    ['an empty value', () => ''],
  ])('a value without the Key word (%s) → 401 "Authentication credentials were not provided."', async (_name, value) => {
    await expectRejected(route, value(), NOT_PROVIDED);
  });

  it.each([
    ['an unknown test key', () => `Key ${unknownKey('test')}`],
    ['an unknown live key', () => `Key ${unknownKey('live')}`],
    ['a malformed key', () => 'Key not-a-key'],
    ['a truncated key', () => `Key ${key.slice(0, -1)}`],
    ['a key with a character added', () => `Key ${key}0`],
    ['a key in upper case', () => `Key ${key.toUpperCase()}`],
    ['a key with the wrong environment prefix', () => `Key ${key.replace(/^test_/, 'live_')}`],
    ['a revoked key', () => `Key ${revoked.test_secret_key}`],
  ])('%s → 401 "Invalid token."', async (_name, value) => {
    await expectRejected(route, value(), INVALID_TOKEN);
  });

  it.each([
    ['Key', () => `Key ${key}`],
    ['key', () => `key ${key}`],
    ['KEY', () => `KEY ${key}`],
    ['a live key', () => `Key ${owner.live_secret_key}`],
  ])('%s <secret> is accepted', async (_name, value) => {
    await expectAccepted(route, value());
  });

  if (!['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method)) {
    it('authenticates before reading the body: malformed JSON without a key → 401', async () => {
      await expectRejected(route, undefined, NOT_PROVIDED, '{"not json');
      await expectRejected(route, `Key ${unknownKey('test')}`, INVALID_TOKEN, '{"not json');
    });
  }
}

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => authenticationChecks(route));

describe('revocation', () => {
  it('revoking one key leaves the merchant’s other key working', async () => {
    const lookup = routes.find((r) => r.method === 'POST' && r.url === LOOKUP_PATH)!;
    await expectRejected(lookup, `Key ${revoked.test_secret_key}`, INVALID_TOKEN);
    await expectAccepted(lookup, `Key ${revoked.live_secret_key}`);
  });

  it('a revocation set in the future takes effect when that time comes', async () => {
    const merchant = await newMerchant(t.ctx);
    const api = merchantApi(t.app, merchant.test_secret_key);
    await revokeSecretKey(t.db, await keyIdOf(merchant.test_secret_key), new Date(t.clock.now().getTime() + 60_000));
    expect((await api.initiate()).status).toBe(200);
    t.clock.advance(61);
    expect(await api.initiate()).toStrictEqual({ status: 401, body: INVALID_TOKEN });
  });
});

describe('logs', () => {
  it('never contain a secret key; the Authorization header shows as [redacted]', async () => {
    const merchant = await newMerchant(t.ctx);
    const secret = merchant.test_secret_key;
    const wrong = unknownKey('live');
    const api = merchantApi(t.app, secret);
    const from = t.logs.length;

    expect((await api.initiate()).status).toBe(200);
    // A secret sent where it does not belong: in the body of a rejected request.
    expect((await api.initiate(validInitiate({ amount: 'x', merchant_extra: secret }))).status).toBe(400);
    const lookup = routes.find((r) => r.method === 'POST' && r.url === LOOKUP_PATH)!;
    await expectRejected(lookup, `Key ${wrong}`, INVALID_TOKEN);
    await expectRejected(lookup, `Bearer ${secret}`, NOT_PROVIDED);

    const lines = t.logs.slice(from);
    const text = lines.join('');
    for (const leaked of [secret, secret.slice('test_secret_key_'.length), wrong, merchant.live_secret_key]) {
      expect(text).not.toContain(leaked);
    }
    const entries = lines.map((line) => JSON.parse(line));
    const shown = entries.filter((e) => e.req?.headers?.authorization !== undefined).map((e) => e.req.headers.authorization);
    expect(shown).toEqual(['[redacted]', '[redacted]', '[redacted]', '[redacted]']);
  });
});

describe('with key caching on', () => {
  it('a revoked key stops working within KEY_CACHE_SECONDS', async () => {
    const cached = await startTestApp({ config: { keyCacheSeconds: 1 } });
    try {
      const merchant = await newMerchant(cached.ctx);
      const api = merchantApi(cached.app, merchant.test_secret_key);
      expect((await api.lookup('no-such-pidx')).status).toBe(404);
      await revokeSecretKey(cached.db, await keyIdOf(merchant.test_secret_key, cached.db), new Date(cached.clock.now().getTime() - 1000));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await api.lookup('no-such-pidx')).toStrictEqual({ status: 401, body: INVALID_TOKEN });
    } finally {
      await cached.close();
    }
  });
});
