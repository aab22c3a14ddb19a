// Which language a payer's page speaks: the browser's Accept-Language first,
// the payer's choice with the switch after (a cookie, a year); the switch brings the payer back only
// to one of the payer's own pages, never elsewhere.
import { afterAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { newMerchant, startTestApp } from '../../test/test-app.js';
import { safeBack } from './language-switch.js';
import { fromAcceptLanguage, LANGUAGE_COOKIE } from './payer-speech.js';

const t = await startTestApp();
afterAll(() => t.close());

describe('Accept-Language', () => {
  it.each([
    ['ne-NP,ne;q=0.9,en-US;q=0.8,en;q=0.7', 'ne'],
    ['ne', 'ne'],
    ['NE-np', 'ne'],
    ['en-GB,en;q=0.9,ne;q=0.8', 'en'],
    ['hi-IN,hi;q=0.9,ne;q=0.8,en;q=0.7', 'ne'],
    ['en;q=0.5, ne;q=0.6', 'ne'],
    ['ne;q=0, en;q=0.1', 'en'],
    ['fr-FR,de;q=0.9', undefined],
    ['*', undefined],
    ['', undefined],
    ['ne;q=x', 'ne'],
    [';;;,,,', undefined],
  ])('%j asks for %s', (header, language) => {
    expect(fromAcceptLanguage(header)).toBe(language);
  });
});

describe('the language of a payer’s page', () => {
  it('follows Accept-Language, then the switch, which is remembered and comes back to the page', async () => {
    const { body } = await merchantApi(t.app, (await newMerchant(t.ctx, { name: 'Pokhara Books' })).test_secret_key).initiate();
    const page = `/pay/?pidx=${body.pidx}`;
    const english = await t.app.inject({ url: page });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain(`<a href="/language/ne?back=${encodeURIComponent(page)}" lang="ne" hreflang="ne">नेपाली</a>`);
    expect(english.body).toContain('<span lang="en" aria-current="true">English</span>');

    const nepali = await t.app.inject({ url: page, headers: { 'accept-language': 'ne-NP,ne;q=0.9,en;q=0.8' } });
    expect(nepali.body).toContain('<html lang="ne">');
    expect(pageText(nepali.body)).toContain('Pokhara Books लाई भुक्तानी');
    expect(nepali.body).toContain(`<a href="/language/en?back=${encodeURIComponent(page)}" lang="en" hreflang="en">English</a>`);

    // The switch: a cookie for a year, and back to the page.
    const switched = await t.app.inject({ url: `/language/ne?back=${encodeURIComponent(page)}` });
    expect(switched.statusCode).toBe(303);
    expect(switched.headers.location).toBe(page);
    const cookie = String(switched.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${LANGUAGE_COOKIE}=ne; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax$`));
    const remembered = await t.app.inject({ url: page, headers: { cookie: cookie.split(';')[0], 'accept-language': 'en' } });
    expect(remembered.body).toContain('<html lang="ne">');
    const back = await t.app.inject({ url: `/language/en?back=${encodeURIComponent(page)}`, headers: { cookie: cookie.split(';')[0] } });
    expect(String(back.headers['set-cookie'])).toMatch(new RegExp(`^${LANGUAGE_COOKIE}=en;`));
  });

  it('never sends the payer to another site or a page not theirs; a wrong language is not found', async () => {
    for (const back of ['https://evil.example/pay', '//evil.example/pay', '/\\evil.example', '/pay\\..\\dashboard', '/dashboard', '/console/operators', 'pay', '/language/en', '/l', '/payroll', `/pay/${'x'.repeat(3000)}`, '/pay/\r\nX: y']) {
      expect(safeBack(back), back).toBeUndefined();
      const answer = await t.app.inject({ url: `/language/ne?back=${encodeURIComponent(back)}` });
      expect(answer.statusCode, back).toBe(200);
      expect(answer.headers.location).toBeUndefined();
      expect(pageText(answer.body)).toContain('भाषा बदलियो');
    }
    for (const back of ['/pay/?pidx=abc', '/pay/abc/otp/def', '/l/AbC123xyz', '/l/AbC123xyz/paid?pidx=x', '/demo', '/demo/return?pidx=x&status=Completed']) expect(safeBack(back), back).toBe(back);
    expect((await t.app.inject({ url: '/language/fr?back=%2Fpay' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/language/ne?back=%2Fpay%2F%3Fpidx%3Dx&back=%2F%2Fevil.example' })).headers.location).toBeUndefined();
  });
});
