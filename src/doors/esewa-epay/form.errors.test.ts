// Hostile input at eSewa's door (issue 25, "Bad input"): every field of both forms and of the status
// check missing, empty, too long, of the wrong kind; amounts negative, non-numeric, with three
// decimals, not adding up; product codes unknown or of the other environment; signatures over other
// fields, in another order, not base64. Each answer is a clear 4xx in eSewa's shapes, never a 5xx,
// and a refused form writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esewaForm, ESEWA_FORM, postForm, postJson, postMultipart, postRaw, sign, statusCheck, v1Form, type Answered } from '../../../test/esewa-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
let merchant: Awaited<ReturnType<typeof newMerchant>>;

beforeAll(async () => {
  t = await startTestApp({ config: { bodyLimitBytes: 4096 } });
  merchant = await newMerchant(t.ctx);
});
afterAll(() => t.close());

const pair = () => merchant.esewa.test;
const stored = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [merchant.merchant.id]))[0].n;

const ES104 = { code: 'ES104', message: 'Invalid payload signature.' };
const UNKNOWN = { code: 0, error_message: 'Unable to fetch merchant key. Please try again later.' };
const refused = (error_message: string) => ({ code: 0, error_message });

/** The answer is the 4xx given, with exactly this body, and nothing of the merchant's was stored. */
async function expectRefused(send: () => Promise<Answered>, status: number, body: unknown) {
  const before = await stored();
  const answer = await send();
  expect([answer.status, answer.contentType, answer.json()]).toEqual([status, 'application/json; charset=utf-8', body]);
  expect(await stored()).toBe(before);
}

/** A signed form with `field` changed after signing only when it is not signed; signed fields are signed as given. */
const formWith = (changes: Record<string, string | undefined>) => {
  const form = esewaForm(pair());
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete form[name];
    else form[name] = value;
  }
  if (!('signature' in changes)) form.signature = sign(pair().secret_key, form, form.signed_field_names ?? 'total_amount,transaction_uuid,product_code');
  return form;
};

const AMOUNTS = ['amount', 'tax_amount', 'total_amount', 'product_service_charge', 'product_delivery_charge'];
/** In the contract's order, which the messages follow. */
const FIELDS = ['amount', 'tax_amount', 'total_amount', 'transaction_uuid', 'product_code', 'product_service_charge', 'product_delivery_charge', 'success_url', 'failure_url', 'signed_field_names', 'signature'];
const LIMIT: Record<string, number> = { transaction_uuid: 100, product_code: 64, success_url: 2048, failure_url: 2048, signed_field_names: 512, signature: 128 };

describe('the v2 form: each field', () => {
  it.each(FIELDS)('%s missing, empty, blank, too long', async (field) => {
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ [field]: undefined })), 400, refused(`${field} is required.`));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ [field]: '' })), 400, refused(`${field} may not be blank.`));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ [field]: '   ' })), 400, refused(`${field} may not be blank.`));
    const limit = LIMIT[field] ?? 20;
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ [field]: '1'.repeat(limit + 1) })), 400, refused(`${field} must be at most ${limit} characters.`));
  });

  it('every missing field at once, in one message', async () => {
    await expectRefused(() => postForm(t.app, ESEWA_FORM, {}), 400, refused(FIELDS.map((f) => `${f} is required.`).join(' ')));
  });

  it.each(AMOUNTS)('%s not an amount in rupees: letters, a sign, an exponent, three decimals, a separator, spaces', async (field) => {
    for (const value of ['abc', '-10', '+10', '1e2', '10.001', '1,000', ' 10', '10.', '.5', 'NaN', '０', '0x10']) {
      await expectRefused(
        () => postForm(t.app, ESEWA_FORM, formWith({ [field]: value })),
        400,
        refused(`${field} must be an amount in rupees such as 100 or 100.50: digits, at most two decimals, no sign.`),
      );
    }
  });

  it('amounts that do not add up, a zero amount, a total under Rs. 0.10 or over the largest', async () => {
    const sum = 'total_amount must be amount + tax_amount + product_service_charge + product_delivery_charge.';
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ total_amount: '111' })), 400, refused(sum));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ product_delivery_charge: '5' })), 400, refused(sum));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ amount: '0', tax_amount: '110' })), 400, refused('amount must be more than 0.'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ amount: '0.05', tax_amount: '0', total_amount: '0.05' })), 400, refused('total_amount must be at least 0.10.'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ amount: '100000001', tax_amount: '0', total_amount: '100000001' })), 400, refused('total_amount must be at most 100000000.'));
  });

  it('a transaction_uuid of other characters; addresses that are not http(s)', async () => {
    for (const uuid of ['a b', 'a_b', 'a/b', 'ünï', 'a.b', '<x>']) {
      await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ transaction_uuid: uuid })), 400, refused('transaction_uuid may hold only letters, digits and hyphens.'));
    }
    for (const [field, url] of [
      ['success_url', 'javascript:alert(1)'],
      ['failure_url', 'ftp://shop.example.com/x'],
      ['success_url', 'shop.example.com/x'],
      ['failure_url', 'https://exa mple.com'],
    ]) {
      await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ [field]: url })), 400, refused(`${field} must be an http(s) URL.`));
    }
  });

  it('a value of the wrong kind in JSON, a field given twice, text that cannot be stored', async () => {
    for (const value of [null, true, {}, [], ['110']]) {
      await expectRefused(() => postJson(t.app, ESEWA_FORM, { ...formWith({}), total_amount: value }), 400, refused(Array.isArray(value) ? 'total_amount must be given once.' : 'total_amount must be text.'));
    }
    const twice = [...Object.entries(formWith({})), ['amount', '100']] as [string, string][];
    await expectRefused(() => postForm(t.app, ESEWA_FORM, twice), 400, refused('amount must be given once.'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ transaction_uuid: 'a\u0000b' })), 400, refused('transaction_uuid contains characters that are not allowed.'));
    await expectRefused(() => postJson(t.app, ESEWA_FORM, { ...formWith({}), success_url: 'https://shop.example.com/\ud800' }), 400, refused('success_url contains characters that are not allowed.'));
  });
});

describe('the v2 form: product code and signature', () => {
  it('an unknown product code is eSewa’s merchant-key error, before any signature is checked', async () => {
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ product_code: 'NO-SUCH-CODE' })), 400, UNKNOWN);
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ product_code: 'epaytest-no' })), 400, UNKNOWN);
  });

  it('another environment’s product code with this key’s signature is ES104', async () => {
    const form = esewaForm(pair(), { product_code: merchant.esewa.live.product_code });
    form.signature = sign(pair().secret_key, form);
    await expectRefused(() => postForm(t.app, ESEWA_FORM, form), 400, ES104);
  });

  it('a signature over other fields, in another order, with another key, of a changed total, not base64: ES104', async () => {
    const good = formWith({});
    const cases: Record<string, string>[] = [
      { signature: sign(pair().secret_key, good, 'transaction_uuid,total_amount,product_code') },
      { signature: sign(pair().secret_key, good, 'total_amount,transaction_uuid') },
      { signature: sign('another key', good) },
      { signature: good.signature, total_amount: '120', amount: '110' },
      { signature: 'not base64 at all!' },
      { signature: good.signature.replace(/[+/]/g, (c) => (c === '+' ? '-' : '_')) },
      { signature: good.signature.slice(0, -1) },
      { signature: Buffer.from('short').toString('base64') },
    ];
    for (const changes of cases) await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith(changes)), 400, ES104);
  });

  it('signed_field_names naming what the form has not, a field twice, or without the three required', async () => {
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ signed_field_names: 'total_amount,transaction_uuid,product_code,merchant_extra' })), 400, refused('signed_field_names names what the form has not: "merchant_extra".'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ signed_field_names: 'total_amount,transaction_uuid,product_code,signature' })), 400, refused('signed_field_names names what the form has not: "signature".'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ signed_field_names: 'total_amount,transaction_uuid,product_code,total_amount' })), 400, refused('signed_field_names names a field twice.'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ signed_field_names: 'total_amount,product_code' })), 400, refused('signed_field_names must include total_amount, transaction_uuid, product_code.'));
    await expectRefused(() => postForm(t.app, ESEWA_FORM, formWith({ signed_field_names: 'total_amount, transaction_uuid,product_code' })), 400, refused('signed_field_names names what the form has not: " transaction_uuid".'));
  });
});

describe('the v2 form: bodies', () => {
  it('malformed JSON, another media type, a body over the limit: 4xx in eSewa’s shape', async () => {
    const json = await postRaw(t.app, ESEWA_FORM, '{"amount":', 'application/json');
    expect([json.status, json.json().code, json.json().error_message.startsWith('JSON parse error')]).toEqual([400, 0, true]);
    await expectRefused(() => postRaw(t.app, ESEWA_FORM, 'amount=100', 'text/plain'), 415, refused('Unsupported media type "text/plain" in request.'));
    await expectRefused(() => postRaw(t.app, ESEWA_FORM, 'x'.repeat(5000), 'application/x-www-form-urlencoded'), 413, refused('Request body is too large.'));
    for (const body of ['null', '[]', '"text"', '1']) await expectRefused(() => postRaw(t.app, ESEWA_FORM, body, 'application/json'), 400, refused(FIELDS.map((f) => `${f} is required.`).join(' ')));
  });

  it('multipart/form-data is read as a form: within the same limit, each field checked; a file or a broken body is refused', async () => {
    await expectRefused(() => postMultipart(t.app, ESEWA_FORM, formWith({ success_url: `https://shop.example.com/${'x'.repeat(5000)}` })), 413, refused('Request body is too large.'));
    await expectRefused(() => postMultipart(t.app, ESEWA_FORM, formWith({ amount: undefined, tax_amount: '' })), 400, refused('amount is required. tax_amount may not be blank.'));
    await expectRefused(() => postMultipart(t.app, ESEWA_FORM, [...Object.entries(formWith({})), ['amount', '100']]), 400, refused('amount must be given once.'));
    await expectRefused(() => postMultipart(t.app, ESEWA_FORM, formWith({}), [{ name: 'receipt', filename: 'receipt.txt', content: 'paid' }]), 415, refused('A multipart/form-data body may hold only text fields, not files.'));
    await expectRefused(() => postRaw(t.app, ESEWA_FORM, '--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n100', 'multipart/form-data; boundary=x'), 400, refused(expect.stringMatching(/^Malformed multipart\/form-data body: /)));
    await expectRefused(() => postRaw(t.app, ESEWA_FORM, 'amount=100', 'multipart/form-data'), 400, refused(expect.stringMatching(/^Malformed multipart\/form-data body: /)));
  });

  it('fields in the query string too: one given in both with another value is a field given twice', async () => {
    const form = formWith({});
    await expectRefused(() => postForm(t.app, `${ESEWA_FORM}?amount=101`, form), 400, refused('amount must be given once.'));
    await expectRefused(() => postRaw(t.app, `${ESEWA_FORM}?${new URLSearchParams({ ...form, total_amount: '111' })}`, ''), 400, ES104);
    const same = await postForm(t.app, `${ESEWA_FORM}?${new URLSearchParams({ amount: form.amount, product_code: form.product_code })}`, form);
    expect(same.status, same.body).toBe(302);
  });
});

describe('the status check', () => {
  const query = () => ({ product_code: pair().product_code, total_amount: '110', transaction_uuid: 'any-uuid' });

  it.each(['product_code', 'total_amount', 'transaction_uuid'])('%s missing, blank, too long, given twice', async (name) => {
    const without = Object.fromEntries(Object.entries(query()).filter(([k]) => k !== name));
    const check = async (params: Record<string, string> | string, message: string) => {
      const answer = await (typeof params === 'string' ? t.app.inject({ url: `/api/epay/transaction/status/?${params}` }).then((r) => ({ status: r.statusCode, json: () => r.json() })) : statusCheck(t.app, params));
      expect([answer.status, answer.json()]).toEqual([400, refused(message)]);
    };
    await check(without, `${name} is required.`);
    await check({ ...query(), [name]: '' }, `${name} may not be blank.`);
    const limit = { product_code: 64, total_amount: 20, transaction_uuid: 100 }[name]!;
    await check({ ...query(), [name]: '1'.repeat(limit + 1) }, `${name} must be at most ${limit} characters.`);
    await check(`${new URLSearchParams(query())}&${name}=1`, `${name} must be given once.`);
  });

  it('a total that is not rupees', async () => {
    for (const total of ['abc', '-110', '110.001', '1e2']) {
      const answer = await statusCheck(t.app, { ...query(), total_amount: total });
      expect([answer.status, answer.json()]).toEqual([400, refused('total_amount must be an amount in rupees such as 100 or 100.50: digits, at most two decimals, no sign.')]);
    }
  });

  it('is limited per product code alike whether or not the code exists: 40 checks at once, as many refused', async () => {
    const limited = await startTestApp({ db: t.db, config: { rateLimitTest: 23 } });
    try {
      const refusedOf = async (productCode: string) => {
        // The limit counts in windows of a second: the burst starts at the beginning of one.
        await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
        const answers = await Promise.all(Array.from({ length: 40 }, () => statusCheck(limited.app, { ...query(), product_code: productCode })));
        const throttled = answers.filter((a) => a.status === 429);
        expect(throttled.map((a) => a.json())).toEqual(throttled.map(() => refused('Request was throttled.')));
        return throttled.length;
      };
      expect([await refusedOf(pair().product_code), await refusedOf('BK-TEST-MADEUP00'), await refusedOf('NO-SUCH')]).toEqual([17, 17, 17]);
    } finally {
      await limited.close();
    }
  });

  it('an unknown transaction_uuid, or an unknown product code, is NOT_FOUND', async () => {
    for (const q of [query(), { ...query(), product_code: 'NO-SUCH' }]) {
      const answer = await statusCheck(t.app, q);
      expect([answer.status, answer.json()]).toEqual([200, { ...q, total_amount: 110, status: 'NOT_FOUND', ref_id: null }]);
    }
  });
});

describe('the v1 form', () => {
  const V1 = ['amt', 'txAmt', 'psc', 'pdc', 'tAmt', 'scd', 'pid', 'su', 'fu'];
  const v1With = (changes: Record<string, string | undefined>) => {
    const form: Record<string, string> = v1Form(pair().product_code);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete form[name];
      else form[name] = value;
    }
    return form;
  };

  it.each(V1)('%s missing, empty, too long', async (field) => {
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ [field]: undefined })), 400, refused(`${field} is required.`));
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ [field]: '' })), 400, refused(`${field} may not be blank.`));
    const limit = { scd: 64, pid: 100, su: 2048, fu: 2048 }[field] ?? 20;
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ [field]: '1'.repeat(limit + 1) })), 400, refused(`${field} must be at most ${limit} characters.`));
  });

  it('amounts not in rupees or not adding up, a bad address, a pid with control characters, an unknown scd', async () => {
    for (const field of ['amt', 'txAmt', 'psc', 'pdc', 'tAmt']) {
      await expectRefused(() => postForm(t.app, '/epay/main', v1With({ [field]: '-1' })), 400, refused(`${field} must be an amount in rupees such as 100 or 100.50: digits, at most two decimals, no sign.`));
    }
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ tAmt: '100' })), 400, refused('tAmt must be amt + txAmt + psc + pdc.'));
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ su: 'javascript:alert(1)' })), 400, refused('su must be an http(s) URL.'));
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ pid: 'a\tb' })), 400, refused('pid may not hold control characters.'));
    await expectRefused(() => postForm(t.app, '/epay/main', v1With({ scd: 'NO-SUCH-CODE' })), 400, UNKNOWN);
  });
});
