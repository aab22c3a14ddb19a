// The Fonepay QR page as a payer reads it, over HTTP against the sandbox: what the QR is for (the
// order, the time left), the amount whole, the business and the name the bank app will show (the QR's
// own, EMVCo's data object 59), the steps, in English and in Nepali; "not paid yet" apart from the
// waiting line; another way to pay as a button; a QR declined in the bank app said as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { englishWords } from '../../test/english-words.js';
import type { PortalResponse } from '../../test/portal-client.js';
import { bankAppPicks, onQrPage as qrPayer } from '../../test/qr-payer.js';
import { decodeQrSvg } from '../../test/qr-decode.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { en } from '../language/en.js';
import { ne } from '../language/ne.js';
import { paymentPath } from '../payments/payment-url.js';
import { parseQrMessage } from '../protocols/emvco/merchant-qr.js';

const BUSINESS = 'Himal Tea <House> & Co';
const ORDER = { amount: 123456, purchase_order_name: 'Ilam tea, <two> tins' };
const NEPALI = { 'accept-language': 'ne-NP,ne;q=0.9' };

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider set-up is the whole store's.
  t = await startTestApp({ ownDb: true });
  api = merchantApi(t.app, (await newMerchant(t.ctx, { name: BUSINESS })).test_secret_key);
});
afterAll(() => t.close());

/** A payer who opens the hosted page and presses `Fonepay QR`: the QR page, its address and its payment. */
async function onQrPage(headers: Record<string, string> = {}) {
  const order = validInitiate(ORDER);
  const pidx = (await api.initiate(order)).body.pidx as string;
  const { browser, qrPage, page } = await qrPayer(t.app, pidx, { headers });
  expect(page.status).toBe(200);
  return { browser, pidx, orderId: order.purchase_order_id, qrPage, page };
}

/** The name the QR's bank app shows: the merchant name (59) of the message the page's QR scans to. */
function accountOf(page: PortalResponse): string {
  const message = decodeQrSvg(/<svg[\s\S]*<\/svg>/.exec(page.body)![0])!;
  return parseQrMessage(message)!.get('59')!;
}

const bankApp = (page: PortalResponse, outcome: 'paid' | 'canceled') => bankAppPicks(t.app, t.ctx.config.publicUrl, page, outcome);

const stepsOf = (body: string) => [.../<ol class="qr-steps"[^>]*>([\s\S]*?)<\/ol>/.exec(body)![1].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => pageText(m[1]));

describe('the QR page, in English', () => {
  it('names the order, the time left, the amount, the business and the account the bank app shows, then the steps', async () => {
    const { page, orderId } = await onQrPage();
    const account = accountOf(page);
    expect(account).toBeTruthy();
    const text = pageText(page.body);
    for (const said of [
      'Pay with Fonepay QR',
      'Ilam tea, <two> tins',
      `Order ${orderId} · Time left to pay 1 h 0 min`,
      'Scan to pay with your bank or wallet app.',
      'Amount Rs. 1,234.56',
      `Paying ${BUSINESS}`,
      `Your bank app shows ${account}`,
      `${account} is the account that takes this payment for ${BUSINESS}.`,
    ])
      expect(text).toContain(said);
    expect(stepsOf(page.body)).toEqual(['Open your bank or wallet app.', 'Scan this QR code.', `Check that the app shows Rs. 1,234.56 and ${account}.`, 'Pay there, in the app.']);
    // The merchant's words are text.
    expect(page.body).toContain('Himal Tea &lt;House&gt; &amp; Co');
    expect(page.body).toContain('Ilam tea, &lt;two&gt; tins');
    expect(page.body).not.toMatch(/<House>|<two>/);
    // The timer portal.js counts down, as on the hosted page.
    expect(page.body).toMatch(/<span class="timer" data-expires-at="[^"]+" data-expired="The time to pay ran out.">/);
  });

  it('keeps the amount whole: never a line break between Rs. and the figure', async () => {
    const { page } = await onQrPage();
    expect(page.body).toContain('<dd class="qr-amount">Rs.\u00a01,234.56</dd>');
    expect(page.body).toContain('<li>Check that the app shows Rs.\u00a01,234.56 and ');
    const css = (await t.app.inject({ url: '/assets/portal.css' })).body;
    expect(css).toMatch(/\.qr-facts \.qr-amount \{[^}]*white-space: nowrap/);
  });

  it('offers another way to pay as a button of the page, and the sandbox’s bank app', async () => {
    const { page, pidx } = await onQrPage();
    expect(page.body).toContain(`<a class="button secondary quiet" href="${paymentPath(pidx)}">Pay another way</a>`);
    expect(page.body).toMatch(/<a class="button secondary quiet" href="[^"]+\/sandbox\/fonepay\/bank-app\?qr=[^"]+" target="_blank" rel="noopener">Pay this QR in the sandbox<\/a>/);
    const css = (await t.app.inject({ url: '/assets/portal.css' })).body;
    expect(css).toMatch(/\.secondary\.quiet \{ color: var\(--brand-dark\); \}/);
  });

  it('after "I have paid: check now", says not paid yet in a notice of its own, apart from the waiting line', async () => {
    const { browser, qrPage, page } = await onQrPage();
    expect(page.body).not.toContain(en.qrWay.notYet);
    t.clock.advance(3);
    const asked = await browser.get(`${qrPage}?ask=1`);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain(`<p class="qr-not-yet" role="alert">${en.qrWay.notYet}</p>`);
    // Still waiting, in its own line, which portal.js asks from.
    expect(asked.body).toMatch(new RegExp(`<p class="qr-wait" role="status" data-wait-url="[^"]+">${en.qrWay.waiting}</p>`));
    const css = (await t.app.inject({ url: '/assets/portal.css' })).body;
    expect(css).toMatch(/\.qr-not-yet \{[^}]*background: var\(--warn-bg\)/);
  });

  it('a QR declined in the bank app: the hosted page says the QR was declined, not that the payer came back', async () => {
    const { browser, qrPage, page, pidx } = await onQrPage();
    expect((await bankApp(page, 'canceled')).status).toBe(200);
    t.clock.advance(3);
    const onwards = await browser.get(`${qrPage}?ask=1`);
    expect(onwards.status).toBe(303);
    const back = await browser.get(onwards.location!);
    expect(back.location).toBe(`${paymentPath(pidx)}&notice=provider_not_paid`);
    const hosted = pageText((await browser.get(back.location!)).body);
    expect(hosted).toContain(en.providers.qrDeclined('Fonepay QR'));
    expect(hosted).toContain('Your Fonepay QR payment was declined in the bank app, and you have not been charged.');
    expect(hosted).not.toContain('Back from');
    expect((await api.lookup(pidx)).body.status).toBe('Initiated');
  });
});

describe('the QR page, in Nepali', () => {
  it('says it all in Nepali: the way, the time left, the labels, the steps and the buttons', async () => {
    const { page, pidx, orderId } = await onQrPage(NEPALI);
    const account = accountOf(page);
    expect(page.body).toContain('<html lang="ne">');
    expect(englishWords(page.body, [BUSINESS, ORDER.purchase_order_name, account, pidx, orderId])).toEqual([]);
    const text = pageText(page.body);
    for (const said of [
      'Fonepay QR बाट तिर्नुहोस्',
      `अर्डर ${orderId} · तिर्न बाँकी समय १ घण्टा ० मिनेट`,
      'आफ्नो बैंक वा वालेट एपबाट स्क्यान गरेर तिर्नुहोस्।',
      'रकम रु. १,२३४.५६',
      `भुक्तानी पाउने ${BUSINESS}`,
      `बैंक एपमा देखिने नाम ${account}`,
      `${account} ले यो भुक्तानी ${BUSINESS} का लागि लिन्छ।`,
      'यो QR कोड परीक्षणको बैंक एपमा तिर्नुहोस्',
      'अर्को माध्यमबाट तिर्नुहोस्',
    ])
      expect(text).toContain(said);
    expect(stepsOf(page.body)).toEqual(['आफ्नो बैंक वा वालेट एप खोल्नुहोस्।', 'यो QR कोड स्क्यान गर्नुहोस्।', `एपमा रु. १,२३४.५६ र ${account} देखिएको जाँच्नुहोस्।`, 'एपमै तिर्नुहोस्।']);
    expect(page.body).toContain('<dd class="qr-amount">रु.\u00a0१,२३४.५६</dd>');
    expect(text).not.toMatch(/तरिका|स्क्यान गरी|Pay this QR/);
  });

  it('after asking, not paid yet; declined in the bank app, said so in Nepali', async () => {
    const { browser, qrPage, page } = await onQrPage(NEPALI);
    t.clock.advance(3);
    const asked = await browser.get(`${qrPage}?ask=1`);
    expect(asked.body).toContain(`<p class="qr-not-yet" role="alert">${ne.qrWay.notYet}</p>`);
    await bankApp(page, 'canceled');
    t.clock.advance(3);
    const onwards = await browser.get(`${qrPage}?ask=1`);
    const back = await browser.get(onwards.location!);
    const hosted = pageText((await browser.get(back.location!)).body);
    expect(hosted).toContain('तपाईंको Fonepay QR भुक्तानी बैंक एपमा अस्वीकार भयो, तपाईंको पैसा काटिएको छैन। तिर्ने माध्यम छान्नुहोस्।');
    expect(hosted).not.toContain(ne.providers.notPaidThere('Fonepay'));
  });
});
