// A provider’s QR page (Fonepay’s): the image scans back to the very message Fonepay issued, the amount and the
// business are beside it in the payer's language, words from the merchant are text, and the
// sandbox's bank-app link shows only for the sandbox.
import { describe, expect, it } from 'vitest';
import { decodeQrSvg } from '../../test/qr-decode.js';
import { speechIn } from '../language/payer-speech.js';
import type { Payment } from '../payments/payment.js';
import { qrPage } from './qr-page.js';

// Dynamic QR v1.1's sample qrMessage (docs/fonepay.md).
const QR = '000201010212153137910524005204460000000NBQM:29226400011fonepay.com0104NBQM020329206061367695204541153035245402145802NP5911Fonepaytest6008District62210703292021098418456336304d3f7';
const payment = { pidx: 'P1', amount: 123450, environment: 'test' } as Payment;

describe('the Fonepay QR page', () => {
  it('draws the QR message Fonepay issued, with the amount and the business beside it', async () => {
    const page = (await qrPage({ speech: speechIn('en'), back: '/pay/qr/A1', payment, way: 'Fonepay QR', businessName: 'Tea <House>', attemptIdx: 'A1', qrMessage: QR, notYet: false })).value;
    expect(decodeQrSvg(/<svg[\s\S]*<\/svg>/.exec(page)![0])).toBe(QR);
    expect(page).toContain('Rs. 1,234.50');
    expect(page).toContain('Tea &lt;House&gt;');
    expect(page).not.toContain('Tea <House>');
    expect(page).toContain('data-wait-url="/pay/qr/A1/wait"');
    expect(page).not.toContain('Pay this QR in the sandbox');
  });

  it('speaks Nepali, says when it is not paid yet, and links the sandbox’s bank app', async () => {
    const page = (await qrPage({ speech: speechIn('ne'), back: '/', payment, way: 'Fonepay QR', businessName: 'Tea', attemptIdx: 'A1', qrMessage: QR, notYet: true, sandboxBankApp: 'http://x/sandbox/fonepay/bank-app?qr=1' })).value;
    expect(page).toContain('lang="ne"');
    expect(page).toContain(speechIn('ne').t.qrWay.notYet);
    expect(page).toContain('href="http://x/sandbox/fonepay/bank-app?qr=1"');
  });
});
