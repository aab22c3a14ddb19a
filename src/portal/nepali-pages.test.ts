// Every page a payer sees, rendered for a browser that asks for Nepali: the
// hosted page's steps and notices, a payment link's pages and receipts, the outage page, the demo
// shop. Each must be in Nepali: `lang="ne"`, amounts in रु. with Devanagari digits, and no English
// word left in its text but the merchant's own data (names, ids, what the payer typed), the brand,
// MPIN and OTP, and what is marked English on purpose (the switch's `English`, TEST MODE). A
// sentence left in a template, or a message the catalogue lacks, fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import type { Db, Queryable } from '../db/db.js';
import { noticePage as demoNotice, unavailablePage } from '../demo/demo-pages.js';
import { ensureDemoMerchant } from '../demo/ensure-demo-merchant.js';
import { speechIn } from '../language/payer-speech.js';
import { suspendMerchant } from '../merchants/decide-merchant.js';
import { resolvePayment } from '../payments/resolve-payment.js';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { englishWords } from '../../test/english-words.js';
import { codeOf, linkApi, linkPayer, pathOf } from '../../test/link-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { freePort } from '../../test/processes.js';
import { newMerchant, openTestDb, startTestApp, type TestApp } from '../../test/test-app.js';

const NEPALI = { 'accept-language': 'ne-NP,ne;q=0.9,en-US;q=0.8,en;q=0.7' };
const BUSINESS = 'Himal Tea House';
const ORDER = {
  purchase_order_name: 'Ilam tea, two tins',
  amount: 123456,
  amount_breakdown: [
    { label: 'Tea', amount: 100000 },
    { label: 'Delivery', amount: 23456 },
  ],
  product_details: [{ identity: 'tea-ilam', name: 'Ilam first flush', total_price: 100000, quantity: 2, unit_price: 50000 }],
};
/** The merchant's own words on the pages: never translated. */
const DATA = [BUSINESS, ORDER.purchase_order_name, 'Tea', 'Delivery', 'Ilam first flush', 'Momo platter', 'Tuition', 'Sita Sharma', 'Demo Shop', 'Ilam First Flush', 'Kathmandu Masala Chai', 'Himalayan Golden Tips'];

let t: TestApp;
let origin: string;
let api: ReturnType<typeof merchantApi>;
let key: string;

beforeAll(async () => {
  // The demo shop calls the API at PUBLIC_URL, so the server listens where its public URL says. A
  // store of its own: the demo merchant it makes must not be the shared store's (src/demo/demo.test.ts).
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ config: { publicUrl: origin }, ownDb: true });
  await t.app.listen({ port, host: '127.0.0.1' });
  key = (await newMerchant(t.ctx, { name: BUSINESS })).test_secret_key;
  api = merchantApi(t.app, key);
});
afterAll(() => t?.close());

const nepali = () => payerBrowser(t.app, { headers: NEPALI });
const initiate = async (overrides: Record<string, unknown> = {}) => (await api.initiate(validInitiate({ ...ORDER, ...overrides }))).body.pidx as string;

/** The page is Nepali: its language, no English word but `data`, and what it must say. */
function expectNepali(what: string, page: { status: number; body: string }, says: string[] = [], data: string[] = []) {
  expect(page.body, what).toContain('<html lang="ne">');
  expect(englishWords(page.body, [...DATA, ...data]), `${what}: English words left`).toEqual([]);
  for (const text of says) expect(pageText(page.body), what).toContain(text);
}

describe('the hosted page in Nepali', () => {
  it('each step, its refusals, and the notices after it', async () => {
    const payer = nepali();
    const pidx = await initiate();
    const orderId = (await api.lookup(pidx)).body.purchase_order_id as string;
    const ids = [pidx, orderId];
    const wallet = await payer.get(`/pay/?pidx=${pidx}`);
    expectNepali('the wallet step', wallet, ['Himal Tea House लाई भुक्तानी', 'रु. १,२३४.५६', 'जम्मा', 'मोबाइल नम्बर', 'MPIN', 'तिर्नुहोस्', 'रद्द गर्नुहोस्', 'तिर्न बाँकी समय १ घण्टा ० मिनेट', '× २'], ids);
    expectNepali('a wrong MPIN', await payer.wallet(pidx, '9800000001', '0000'), ['MPIN मिलेन। अझै ४ पटक प्रयास गर्न सकिन्छ।'], ids);
    for (let i = 0; i < 3; i++) await payer.wallet(pidx, '9800000001', '0000');
    expectNepali('a wallet locked', await payer.wallet(pidx, '9800000001', '0000'), ['१५ मिनेटपछि फेरि प्रयास गर्नुहोस्।'], ids);
    expectNepali('an unknown wallet', await payer.wallet(pidx, '9700000000', '1111'), ['यो मोबाइल नम्बरमा कुनै वालेट दर्ता छैन।'], ids);

    const second = await initiate();
    const secondIds = [second, (await api.lookup(second)).body.purchase_order_id as string];
    const otpPayer = nepali();
    await otpPayer.get(`/pay/?pidx=${second}`);
    // A Nepali keyboard's digits are read as the digits they are.
    const otp = await otpPayer.wallet(second, '९८०००००००२', '११११');
    expectNepali('the OTP step', otp, ['98XXXXXXX2 मा ६ अङ्कको OTP पठाइएको छ।', 'पुष्टि गर्नुहोस्'], [...secondIds, '98XXXXXXX2']);
    expectNepali('a wrong OTP', await otpPayer.otp(second, '000000'), ['OTP मिलेन। अझै २ पटक प्रयास गर्न सकिन्छ।'], [...secondIds, '98XXXXXXX2']);
    await otpPayer.otp(second, '000000');
    expectNepali('too many wrong OTPs', await otpPayer.otp(second, '000000'), ['धेरै पटक गलत OTP हालियो।'], secondIds);
    await otpPayer.wallet(second, '9800000002', '1111');
    const paid = await otpPayer.otp(second, '९८७६५४');
    expect(paid.status).toBe(303);
    expectNepali('a payment finished', await otpPayer.get(`/pay/?pidx=${second}`), ['भुक्तानीको अवस्था', 'यो भुक्तानी पूरा भयो।', 'Himal Tea House मा फर्कनुहोस्']);

    const canceled = await initiate();
    const cancelPayer = nepali();
    await cancelPayer.get(`/pay/?pidx=${canceled}`);
    await cancelPayer.cancel(canceled);
    expectNepali('a payment canceled', await cancelPayer.get(`/pay/?pidx=${canceled}`), ['यो भुक्तानी रद्द गरिएको थियो।']);
    const held = await initiate();
    await nepali().pay(held, '9800000007');
    expectNepali('a payment held', await nepali().get(`/pay/?pidx=${held}`), ['यो भुक्तानी प्रक्रियामा छ।']);

    const order = `order-${Date.now()}`;
    const [first, other] = [await initiate({ purchase_order_id: order }), await initiate({ purchase_order_id: order })];
    await nepali().pay(first);
    expectNepali('an order paid through another payment', await nepali().get(`/pay/?pidx=${other}`), ['अर्डरको भुक्तानी भइसक्यो']);
    expectNepali('a payment not found', await nepali().get('/pay/?pidx=nosuchpayment'), ['भुक्तानी फेला परेन']);

    const expiring = await initiate();
    t.clock.advance(3601);
    try {
      expectNepali('a payment expired', await nepali().get(`/pay/?pidx=${expiring}`), ['भुक्तानीको समय सकियो']);
    } finally {
      t.clock.advance(-3601);
    }

    const formPayer = nepali();
    const unsigned = await initiate();
    await formPayer.get(`/pay/?pidx=${unsigned}`);
    expectNepali('a form expired', await formPayer.post(`/pay/wallet?pidx=${unsigned}`, { csrf_token: 'x.y', mobile: '9800000001', mpin: '1111' }), ['फारमको समय सकियो']);
  });

  it('a merchant that may not take live payments', async () => {
    const approved = await merchantIn(t.ctx, 'approved');
    const live = (await merchantApi(t.app, approved.live_secret_key).initiate(validInitiate())).body.pidx as string;
    await suspendMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: approved.merchant.idx, reason: 'Review.' });
    expectNepali('payments unavailable', await nepali().get(`/pay/?pidx=${live}`), ['ले अहिले भुक्तानी लिन सक्दैन। तपाईंको पैसा काटिएको छैन।'], [approved.merchant.name]);
  });

  it('too many attempts from one network', async () => {
    const strict = await startTestApp({ config: { payerAttemptsPerMinute: 1 } });
    try {
      const pidx = (await merchantApi(strict.app, (await newMerchant(strict.ctx)).test_secret_key).initiate()).body.pidx as string;
      const payer = payerBrowser(strict.app, { headers: NEPALI });
      await payer.get(`/pay/?pidx=${pidx}`);
      await payer.wallet(pidx, '9800000001', '0000');
      const refused = await payer.wallet(pidx, '9800000001', '0000');
      expect(refused.status).toBe(429);
      expectNepali('too many attempts', refused, ['धेरै पटक प्रयास भयो']);
    } finally {
      await strict.close();
    }
  });

  it('the outage page, on the hosted page and a link’s', async () => {
    const store = await openTestDb();
    let down = false;
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const gate = <T>(work: () => Promise<T>): Promise<T> => (down ? Promise.reject(refused()) : work());
    const gated = (q: Queryable): Queryable => ({ query: (sql, params) => gate(() => q.query(sql, params)), exec: (sql) => gate(() => q.exec(sql)) });
    const db: Db = { kind: store.kind, ...gated(store), batches: store.batches && gated(store.batches), transaction: (work) => gate(() => store.transaction((tx) => work(gated(tx)))), close: () => store.close() };
    const away = await startTestApp({ db });
    try {
      down = true;
      for (const url of ['/pay/?pidx=somepayment', '/l/SomeCode12']) {
        const page = await away.app.inject({ url, headers: NEPALI });
        expect(page.statusCode).toBe(503);
        expectNepali(`the outage page at ${url}`, { status: page.statusCode, body: page.body }, ['सेवा केही बेर रोकिएको छ', 'फेरि प्रयास गर्नुहोस्']);
      }
    } finally {
      down = false;
      await away.close();
      await store.close();
    }
  });
});

describe('a payment link’s pages in Nepali', () => {
  it('the link, its refusals, its closed pages and its receipts', async () => {
    const links = linkApi(t.app, key);
    const fixed = (await links.create({ name: 'Momo platter', amount: 45000, ask: ['name', 'phone', 'email'] })).body;
    const payer = linkPayer(t.app, { headers: NEPALI });
    expectNepali('a fixed link', await payer.open(codeOf(fixed.url)), ['Himal Tea House लाई भुक्तानी', 'रु. ४५०.००', 'तपाईंको नाम', 'भुक्तानी गर्न अगाडि बढ्नुहोस्']);
    const refused = (await payer.start(codeOf(fixed.url), { name: '', phone: 'call me', email: 'sita' })).answer;
    expectNepali('a link’s form refused', refused, ['यो विवरण भर्नुहोस्।', 'सही फोन नम्बर हाल्नुहोस्, जस्तै 98XXXXXXXX।', 'सही इमेल ठेगाना हाल्नुहोस्'], ['call me', 'sita']);

    const range = (await links.create({ name: 'Tuition', min_amount: 100000, max_amount: 10000000, expires_on: '2099-12-31', max_payments: 2 })).body;
    expectNepali('a link of the payer’s amount', await payer.open(codeOf(range.url)), ['रु. १,०००.०० देखि रु. १,००,०००.०० सम्मको जुनसुकै रकम।', '३१ डिसेम्बर २०९९ सम्म भुक्तानी लिइन्छ।']);
    expectNepali('an amount below the least', (await payer.start(codeOf(range.url), { amount: '५००' })).answer, ['यहाँ कम्तीमा रु. १,०००.०० तिर्नुपर्छ।']);

    // Paid, held, canceled, not finished, refunded: each receipt.
    const receipt = async (start: { pidx?: string }, browser: ReturnType<typeof linkPayer>) => browser.browser.get(`/l/${codeOf(range.url)}/paid?pidx=${start.pidx}`);
    const started = await payer.start(codeOf(range.url), { amount: '1,500' });
    expectNepali('a receipt, not finished', await receipt(started, payer), ['भुक्तानी पूरा भएको छैन', 'भुक्तानी जारी राख्नुहोस्'], [started.pidx!]);
    const { done, receipt: paidPage } = await payer.pay(started.pidx!);
    const transactionId = callbackParams(done.location!).transaction_id;
    expectNepali('a receipt, paid', paidPage!, ['भुक्तानी पूरा भयो', 'तपाईंले Himal Tea House लाई रु. १,५००.०० तिर्नुभयो।', 'कारोबार आईडी'], [transactionId]);
    expect((await refund(t.app, key, transactionId, { amount: 100 })).status).toBe(200);
    expectNepali('a receipt, partly refunded', await receipt(started, payer), ['भुक्तानीको केही रकम फिर्ता भयो'], [transactionId]);
    const canceler = linkPayer(t.app, { headers: NEPALI });
    const cancelStart = await canceler.start(codeOf(range.url), { amount: '1000' });
    await canceler.browser.open(cancelStart.pidx!);
    const canceled = await canceler.browser.cancel(cancelStart.pidx!);
    expectNepali('a receipt, canceled', await canceler.browser.get(pathOf(canceled.location!)), ['तपाईंले भुक्तानी रद्द गर्नुभयो। तपाईंको पैसा काटिएको छैन।']);
    const holder = linkPayer(t.app, { headers: NEPALI });
    const heldStart = await holder.start(codeOf(range.url), { amount: '1000' });
    const heldPage = (await holder.pay(heldStart.pidx!, '9800000007')).receipt!;
    const [{ transaction_id: heldTransaction }] = await t.db.query<{ transaction_id: string }>('SELECT transaction_id FROM payments WHERE pidx = $1', [heldStart.pidx]);
    expectNepali('a receipt, held', heldPage, ['भुक्तानी प्रक्रियामा छ'], [heldTransaction]);
    expectNepali('a receipt not of this link', await payer.browser.get(`/l/${codeOf(fixed.url)}/paid?pidx=${started.pidx}`), ['भुक्तानी फेला परेन']);

    // Used up (two places: paid and held), inactive, expired; on the hosted page too.
    const late = linkPayer(t.app, { headers: NEPALI });
    expectNepali('a used-up link', await late.open(codeOf(range.url)), ['अब भुक्तानी लिइँदैन', 'तपाईंको पैसा काटिएको छैन।']);
    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: heldStart.pidx!, resolution: 'User canceled' });
    const lastPlace = linkPayer(t.app, { headers: NEPALI });
    const lastStart = await lastPlace.start(codeOf(range.url), { amount: '1000' });
    const racer = linkPayer(t.app, { headers: NEPALI });
    const racerStart = await racer.start(codeOf(range.url), { amount: '1000' });
    await lastPlace.pay(lastStart.pidx!);
    expectNepali('the hosted page of a used-up link', await racer.browser.open(racerStart.pidx!), ['अब भुक्तानी लिइँदैन']);
    await links.deactivate(fixed.idx);
    expectNepali('an inactive link', await late.open(codeOf(fixed.url)), ['ले यो भुक्तानी लिङ्क बन्द गरेको छ।']);
    const soon = (await links.create({ name: 'Momo platter', amount: 1000, expires_on: new Date(t.clock.now().getTime() + 60_000).toISOString() })).body;
    t.clock.advance(61);
    try {
      expectNepali('an expired link', await late.open(codeOf(soon.url)), ['को यो भुक्तानी लिङ्कको समय सकियो।']);
    } finally {
      t.clock.advance(-61);
    }
    expectNepali('a link not found', await late.open('NoSuchCode1'), ['भुक्तानी लिङ्क फेला परेन']);
    const unsigned = linkPayer(t.app, { headers: NEPALI });
    await unsigned.open(codeOf(soon.url));
    expectNepali('a link’s form expired', await unsigned.browser.post(`/l/${codeOf(range.url)}`, { csrf_token: 'x.y' }), ['फारमको समय सकियो']);
  });

  it('too many wrong links from one address', async () => {
    const address = `2001:db8::${Date.now().toString(16).slice(-4)}:${Math.floor(Math.random() * 65535).toString(16)}`;
    let last = await t.app.inject({ url: '/l/NoSuchCode1', remoteAddress: address, headers: NEPALI });
    for (let i = 0; i < 40 && last.statusCode !== 429; i++) last = await t.app.inject({ url: '/l/NoSuchCode1', remoteAddress: address, headers: NEPALI });
    expect(last.statusCode).toBe(429);
    expectNepali('too many wrong links', { status: last.statusCode, body: last.body }, ['धेरै पटक गलत लिङ्क खोलियो', '३० सेकेन्डपछि']);
  });
});

describe('the demo shop in Nepali', () => {
  it('the shop, an order paid and one canceled, and its notices', async () => {
    await ensureDemoMerchant(t.ctx, { storeIsEmpty: async () => true });
    const payer = nepali();
    const shop = await payer.get('/demo');
    expectNepali('the shop', shop, ['ताजा चिया, भुक्तानी Bhuktani बाट', 'रु. ६५०.००', '+ रु. १००.०० ढुवानी', 'किन्नुहोस्']);
    const bought = await payer.post('/demo/buy', { product: 'ilam-first-flush' });
    expect(bought.status).toBe(303);
    const pidx = new URL(bought.location!).searchParams.get('pidx')!;
    // The shop wrote its order in the payer's language: the hosted page's breakdown says ढुवानी.
    expectNepali('the hosted page of the shop’s order', await payer.get(pathOf(bought.location!)), ['ढुवानी', 'रु. ७५०.००'], [pidx, (await t.db.query<{ purchase_order_id: string }>('SELECT purchase_order_id FROM payments WHERE pidx = $1', [pidx]))[0].purchase_order_id]);
    const done = await payer.pay(pidx);
    const result = await payer.get(pathOf(done.location!));
    const params = callbackParams(done.location!);
    expectNepali('an order paid', result, ['अर्डरको भुक्तानी भयो', 'पूरा भयो', 'रु. ७५०.००'], [params.transaction_id, params.purchase_order_id, pidx]);

    const canceling = nepali();
    await canceling.get('/demo');
    const second = await canceling.post('/demo/buy', { product: 'masala-chai' });
    const secondPidx = new URL(second.location!).searchParams.get('pidx')!;
    await canceling.get(pathOf(second.location!));
    const canceled = await canceling.cancel(secondPidx);
    const canceledParams = callbackParams(canceled.location!);
    expectNepali('an order canceled', await canceling.get(pathOf(canceled.location!)), ['भुक्तानी रद्द भयो'], [canceledParams.purchase_order_id, secondPidx]);

    expectNepali('no order here', await payer.get('/demo/return'), ['यहाँ कुनै अर्डर छैन']);
    expectNepali('a return not signed', await payer.get('/demo/return?pidx=forged&status=Completed'), ['भुक्तानी पक्का भएन']);
    expectNepali('a buy form expired', await payer.post('/demo/buy', { csrf_token: 'x.y', product: 'masala-chai' }), ['फारमको समय सकियो']);
    await payer.get('/demo');
    expectNepali('a tea not in the shop', await payer.post('/demo/buy', { product: 'coffee' }), ['तलका चियामध्ये एउटा रोज्नुहोस्।']);
    const frame = { speech: speechIn('ne'), back: '/demo' };
    expectNepali('no demo on this server', { status: 404, body: unavailablePage(frame).value }, ['यो सर्भरमा डेमो पसल राखिएको छैन']);
    expectNepali('Bhuktani could not be reached', { status: 502, body: demoNotice(frame, { title: speechIn('ne').t.demo.couldNotStart, message: speechIn('ne').t.demo.bhuktaniAnswered('') }).value }, ['भुक्तानी सुरु गर्न सकिएन']);
  });

  it('the switch’s own page', async () => {
    const page = await t.app.inject({ url: '/language/ne' });
    expectNepali('the language changed', { status: page.statusCode, body: page.body }, ['भाषा बदलियो']);
  });
});

describe('in English', () => {
  it('keeps the hosted page’s labels (Mobile, MPIN, OTP) and buttons (Pay, Confirm, Cancel)', async () => {
    const pidx = await initiate();
    const payer = payerBrowser(t.app, { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    const page = pageText((await payer.get(`/pay/?pidx=${pidx}`)).body);
    for (const words of ['Mobile number', 'MPIN', 'Pay', 'Cancel', 'Rs. 1,234.56', 'TEST MODE']) expect(page).toContain(words);
    const otp = pageText((await payer.wallet(pidx, '9800000001', '1111')).body);
    for (const words of ['OTP', 'Confirm', 'Cancel']) expect(otp).toContain(words);
    expect(englishWords((await payer.get(`/pay/?pidx=${pidx}`)).body, DATA)).toContain('Mobile');
  });
});
