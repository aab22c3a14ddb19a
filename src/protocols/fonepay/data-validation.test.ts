// Fonepay's DV rule against Fonepay's own worked examples, each with the document it comes from.
import { describe, expect, it } from 'vitest';
import { dataValidation, dataValidationMatches } from './data-validation.js';

const NBQM_KEY = 'a7e3512f5032480a83137793cb2021dc';

describe('Fonepay data validation (HMAC-SHA512 over the values joined by ",")', () => {
  it.each([
    // "Technical Specification Document (Fonepay Web Integration)" v2.0 (Sept. 2020), "Example of a
    // Secure Hash Calculation" (request: PID,MD,PRN,AMT,CRN,DT,R1,R2,RU), key `fonepay`.
    [
      'web checkout request (Web Integration v2.0)',
      'fonepay',
      ['fonepay123', 'P', 'd1580724437729', '30', 'NPR', '06/27/2017', 'Hello', 'test', 'https://devadminapi.fonepay.com/ConvergentMerchantDummyweb/MerchantVerification'],
      '147384cc250bf072fdacbce811da683a3ed7f5f7d1c0dd2ce2fb90d27d69b2bc3c143306aa4fa26625a171ac0d4d2e2aaa53e4e10902eb9418eac32f591b92c0',
    ],
    // The same document, the response's DV (PRN,PID,PS,RC,UID,BC,INI,P_AMT,R_AMT), as Fonepay sends it
    // (uppercase). The printed hash reproduces with the NBQM merchant's key and PID (the doc labels it fonepay123).
    [
      'web checkout response (Web Integration v2.0)',
      NBQM_KEY,
      ['d1580724437729', 'NBQM', 'true', 'successful', '36463', 'NICENPKA', '9841845631', '20.0', '30'],
      '667860224021DF1891F7DE873A37B1DEDA720CCDC43F63BC88F86ED20F579E0DE66526D37C71B1D14A8D466E4B740D17D4FF274CD2819FD6ED2AA3D9A89D7C52',
    ],
    // "Technical Specification Document – Fonepay Merchant Integration through Device for Dynamic QR"
    // v1.1 (July 2024), "HMAC Signature, For QR Request" (AMOUNT,PRN,MERCHANT-CODE,REMARKS1,REMARKS2).
    ['QR request (Dynamic QR v1.1)', NBQM_KEY, ['14', '5d76d323-d1f6', 'NBQM', 'test1', 'test2'], '5ae718032328ae5615fa4694dfbf3ecd13432bd49031e7285a3f8bc122ecbb8e833e83c7a11f895d30f3e8fd1906317aece113675166ae0d804ecf32a8bbdbaf'],
    // The same document's request example body (dataValidation over the full PRN).
    ['QR request body (Dynamic QR v1.1)', NBQM_KEY, ['14', '5d76d323-d1f6-4a38-8231-0063f9581c98', 'NBQM', 'test1', 'test2'], '43d2f0939e58e038c3122cc1e65f86af01998dce3e9f70a41a664dc0dbd45dfd74b4c4cbb77afef8a5ae9854ab48fcbd7edfc93156f663a8c60f28830eaca7d7'],
    // The same document's Postman example, with its published test merchant (fonepay123 / fonepay).
    ['QR request, Postman (Dynamic QR v1.1)', 'fonepay', ['50', 'check', 'fonepay123', 'test1', 'test2'], 'f036eb09c5402a91e1926e904a423e66d041add18423959dad512b6f5fa37f1ea023197f6faae42f84b357914f5ed77723255d108b38c20c058677cfc8ac4204'],
    // The same document, "HMAC for Check Status" (PRN,MERCHANT-CODE); its request example's hash.
    ['QR status check (Dynamic QR v1.1)', NBQM_KEY, ['5d76d323-d1f6-4a38-8231-0063f9581c98', 'NBQM'], 'de5fd3bbbd7d36c766a47c0a137e41de7587028d2f6e3deacb5bebe30992326876a6fba4f9ccfd55a1d302a81aba94733d6c1db04f749483be63b619a9b032b7'],
  ])('%s', (_name, key, values, published) => {
    expect(dataValidation(key, values)).toBe(published.toLowerCase());
    expect(dataValidationMatches(key, values, published)).toBe(true);
    expect(dataValidationMatches(key, values, published.toLowerCase())).toBe(true);
    expect(dataValidationMatches(key, values, published.toUpperCase())).toBe(true);
  });

  it('refuses a DV of other values, another key, or not a DV at all', () => {
    const values = ['14', '5d76d323-d1f6', 'NBQM', 'test1', 'test2'];
    const published = '5ae718032328ae5615fa4694dfbf3ecd13432bd49031e7285a3f8bc122ecbb8e833e83c7a11f895d30f3e8fd1906317aece113675166ae0d804ecf32a8bbdbaf';
    expect(dataValidationMatches(NBQM_KEY, ['15', ...values.slice(1)], published)).toBe(false);
    expect(dataValidationMatches('fonepay', values, published)).toBe(false);
    for (const bad of [undefined, '', published.slice(2), `${published}00`, published.replace(/^5a/, 'zz'), 42]) expect(dataValidationMatches(NBQM_KEY, values, bad)).toBe(false);
  });
});
