// Fuzzing eSewa's door (issue 25): thousands of hostile forms (signed and not, form-encoded and
// JSON, fields replaced, dropped, repeated, extra), raw bodies with right and wrong content types,
// hostile status-check query strings, v1 forms and verifications. Whatever arrives, the door
// answers below 500, in eSewa's shapes (a 302 to the hosted page, `{"code":"ES104",…}`,
// `{"code":0,"error_message":…}`, the status check's answer, v1's XML), and a refused form stores
// nothing. FUZZ_RUNS runs per property; FUZZ_SEED (and FUZZ_PATH) replays a failure.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { esewaForm, ESEWA_FORM, ESEWA_STATUS, sign, v1Form } from '../esewa-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { type Answer, jsonOf } from './contract-shapes.js';
import { contentTypes, fuzzOptions, fuzzTimeout, hostileString, hostileValue, numericStrings, rawBodies, uriEncode } from './hostile.js';

const t = await startTestApp();
afterAll(() => t.close());
// Far from the other files' sweeps and senders on a shared PostgreSQL store (as api-fuzz.test.ts).
t.clock.advance(20 * 365 * 24 * 3600);
const PUBLIC_URL = t.ctx.config.publicUrl;
const merchant = await newMerchant(t.ctx);
const pair = merchant.esewa.test;
const other = await newMerchant(t.ctx);

async function send(method: 'GET' | 'POST', url: string, payload?: string, contentType?: string): Promise<Answer & { location?: string }> {
  const response = await t.app.inject({ method, url, headers: contentType === undefined ? {} : { 'content-type': contentType }, ...(payload !== undefined ? { payload } : {}) });
  const answer = { status: response.statusCode, headers: response.headers, body: response.body, location: response.headers.location as string | undefined };
  expect(answer.status, `${method} ${url.slice(0, 200)} → ${answer.status} ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  return answer;
}

const stored = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = ANY($1)', [[merchant.merchant.id, other.merchant.id]]))[0].n;

/** One of eSewa's error bodies, exactly. */
function expectEsewaError(answer: Answer) {
  const shown = `${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, shown).toBeGreaterThanOrEqual(400);
  expect(answer.status, shown).toBeLessThan(500);
  const body = jsonOf(answer) as Record<string, unknown>;
  if (body.code === 'ES104') expect(body, shown).toStrictEqual({ code: 'ES104', message: 'Invalid payload signature.' });
  else {
    expect(Object.keys(body).sort(), shown).toEqual(['code', 'error_message']);
    expect(body.code, shown).toBe(0);
    expect(typeof body.error_message === 'string' && body.error_message.length > 0, shown).toBe(true);
  }
}

/** A form: a success is a 302 to the hosted page that stored one payment (or resumed one), anything else a refusal that stored nothing. */
async function formChecked(payload: string, contentType: string | undefined) {
  const before = await stored();
  const answer = await send('POST', ESEWA_FORM, payload, contentType);
  const after = await stored();
  if (answer.status === 302) {
    expect(answer.location).toMatch(new RegExp(`^${PUBLIC_URL}/pay/\\?pidx=\\w+$`));
    expect(after - before).toBeLessThanOrEqual(1);
  } else {
    expectEsewaError(answer);
    expect(after, `a refused form stored a payment: ${answer.status} ${answer.body.slice(0, 200)}`).toBe(before);
  }
  return answer;
}

const FIELDS = ['amount', 'tax_amount', 'total_amount', 'transaction_uuid', 'product_code', 'product_service_charge', 'product_delivery_charge', 'success_url', 'failure_url', 'signed_field_names', 'signature'];
const hostileText = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: numericStrings }, { weight: 1, arbitrary: fc.constantFrom('110', '110.0', '0', '10', 'EPAYTEST', other.esewa.test.product_code, merchant.esewa.live.product_code) });

/** A valid signed form with some fields replaced, some removed, some added; signed again (over what it then holds) or not. */
const mutatedForm = fc
  .record({
    replaced: fc.dictionary(fc.constantFrom(...FIELDS), hostileText, { maxKeys: 3 }),
    removed: fc.subarray(FIELDS, { maxLength: 2 }),
    extra: fc.dictionary(fc.string({ maxLength: 10 }), hostileText, { maxKeys: 2 }),
    resign: fc.boolean(),
    names: fc.constantFrom('total_amount,transaction_uuid,product_code', 'transaction_uuid,total_amount,product_code', 'total_amount,transaction_uuid,product_code,amount,success_url'),
  })
  .map(({ replaced, removed, extra, resign, names }) => {
    const form: Record<string, string> = { ...extra, ...esewaForm(pair, {}, names), ...replaced };
    for (const field of removed) delete form[field];
    if (resign && !('signature' in replaced)) form.signature = sign(pair.secret_key, form, form.signed_field_names ?? names);
    return form;
  });

describe('the v2 form', () => {
  it(
    'hostile forms, form-encoded: a 302 for a valid one, eSewa’s errors otherwise, nothing stored when refused',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedForm, fc.array(fc.tuple(fc.constantFrom(...FIELDS), hostileText), { maxLength: 2 }), async (form, repeated) => {
          const body = new URLSearchParams(form);
          for (const [name, value] of repeated) body.append(name, value);
          await formChecked(body.toString(), 'application/x-www-form-urlencoded');
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'hostile JSON values in every field',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedForm, fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 2 }), async (form, values) => {
          await formChecked(JSON.stringify({ ...form, ...values }), 'application/json');
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'raw bodies (duplicate keys, truncation, deep nesting, huge arrays) with right and wrong content types',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawBodies(esewaForm(pair)), contentTypes, async (raw, contentType) => {
          await formChecked(raw, contentType);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

const STATUS_KEYS = ['product_code', 'total_amount', 'transaction_uuid'];
const queryValue = fc.oneof(
  { weight: 2, arbitrary: hostileText.map(uriEncode) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', '%ff', '+', '%2B', '=', '[]', '%5B%5D', '', pair.product_code, '110') },
);
const statusQuery = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STATUS_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map(uriEncode) }), queryValue), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

describe('the status check', () => {
  it(
    'hostile query strings: the status answer (never another merchant’s payment) or eSewa’s error',
    async () => {
      await fc.assert(
        fc.asyncProperty(statusQuery, fc.constantFrom('', '/'), async (query, slash) => {
          const answer = await send('GET', `${ESEWA_STATUS.slice(0, -1)}${slash}?${query}`);
          if (answer.status !== 200) return expectEsewaError(answer);
          const body = jsonOf(answer) as Record<string, unknown>;
          expect(Object.keys(body).sort()).toEqual(['product_code', 'ref_id', 'status', 'total_amount', 'transaction_uuid']);
          expect(['NOT_FOUND', 'PENDING']).toContain(body.status);
          expect(body.ref_id).toBeNull();
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

const V1 = ['amt', 'txAmt', 'psc', 'pdc', 'tAmt', 'scd', 'pid', 'su', 'fu'];
const VERIFY = ['amt', 'rid', 'pid', 'scd'];
const XML = /^<response><response_code>(Success|failure)<\/response_code><\/response>$/;

describe('ePay v1', () => {
  it(
    'hostile v1 forms: a 302 to the hosted page, or eSewa’s errors and nothing stored',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...V1), hostileText, { maxKeys: 3 }), fc.subarray(V1, { maxLength: 2 }), fc.boolean(), async (replaced, removed, json) => {
          const form: Record<string, string> = { ...v1Form(pair.product_code), ...replaced };
          for (const field of removed) delete form[field];
          const before = await stored();
          const answer = await send('POST', '/epay/main', json ? JSON.stringify(form) : new URLSearchParams(form).toString(), json ? 'application/json' : 'application/x-www-form-urlencoded');
          if (answer.status === 302) expect(answer.location).toMatch(new RegExp(`^${PUBLIC_URL}/pay/\\?pidx=\\w+$`));
          else {
            expectEsewaError(answer);
            expect(await stored()).toBe(before);
          }
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'hostile verifications, POST and GET: XML, a 200 failure for what matches nothing, a 400 failure for what is malformed',
    async () => {
      const fields = fc.dictionary(fc.oneof(fc.constantFrom(...VERIFY), fc.string({ maxLength: 5 })), hostileText, { maxKeys: 6 });
      await fc.assert(
        fc.asyncProperty(fields, fc.boolean(), contentTypes, async (values, get, contentType) => {
          const answer = get
            ? await send('GET', `/epay/transrec?${Object.entries(values).map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&')}`)
            : await send('POST', '/epay/transrec', new URLSearchParams(values).toString(), contentType);
          expect([200, 400, 413, 415]).toContain(answer.status);
          expect(answer.body).toMatch(XML);
          expect(answer.body).not.toContain('Success');
          expect(String(answer.headers['content-type'])).toBe('text/xml; charset=utf-8');
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});
