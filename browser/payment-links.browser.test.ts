// Payment links in headless Chromium, as a shop without a website uses them: the merchant creates a
// link in the dashboard; its QR code is read back with jsQR (the PNG the server makes, decoded with
// pngjs, and the SVG as Chromium draws it); a payer on a phone opens the address the code holds,
// fills in what the link asks, pays on the hosted page and lands on the link's receipt, all in Nepali (their
// browser asks for it), then switches to English; the merchant's
// transaction list shows the payment with its link. Pictures of the link's pages in
// browser/screenshots/.
import { describe, expect, it } from 'vitest';
import { decodeQrPng } from '../test/qr-decode.js';
import { en } from '../src/language/en.js';
import { ne } from '../src/language/ne.js';
import { browserSuite, DESKTOP, enterOtp, enterWallet, inNepali, onDevice, PHONE, SANDBOX, screenshot, screenshotsAtBothWidths, signUpInBrowser } from './harness.js';

const MERCHANT = { name: 'Chiya Pasal', email: `chiya-${Date.now()}@example.com`, password: 'a long chiya secret' };

const suite = browserSuite({ merchantName: 'Harness merchant (unused)', shop: false });

describe('a payment link', () => {
  it('made in the dashboard, scanned from its QR code, paid on a phone, listed with its link', async () => {
    const merchant = await suite.person({ viewport: DESKTOP });
    await signUpInBrowser(merchant.page, suite.service.origin, MERCHANT);

    // The merchant makes a link for a momo platter that asks the payer's name.
    await merchant.page.getByRole('link', { name: 'Payment links' }).click();
    await merchant.page.getByLabel('What is it for').fill('Momo platter');
    await merchant.page.getByLabel('A fixed amount').check();
    await merchant.page.getByLabel('Fixed amount in rupees').fill('1,450');
    await merchant.page.getByRole('checkbox', { name: 'Name' }).check();
    await merchant.page.getByRole('button', { name: 'Create link' }).click();
    await merchant.page.getByText('Payment link created.').waitFor();
    const address = (await merchant.page.getByTestId('link-url').textContent())!.trim();
    expect(address).toMatch(new RegExp(`^${suite.service.origin}/l/[A-Za-z0-9]{9}$`));
    await screenshot(merchant.page, 'links-desktop-dashboard-link');

    // Its QR codes hold the address: the PNG as the server makes it, the SVG as Chromium draws it.
    const pngPath = await merchant.page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
    const png = Buffer.from(await (await fetch(`${suite.service.origin}${pngPath}`)).arrayBuffer());
    expect(decodeQrPng(png)).toBe(address);
    const drawn = await merchant.page.getByRole('img', { name: `QR code of ${address}` }).screenshot();
    expect(decodeQrPng(drawn)).toBe(address);

    // The counter card prints the code with the business under it.
    await merchant.page.getByRole('link', { name: 'Print for the counter' }).click();
    await merchant.page.getByText('Scan to pay').waitFor();
    await screenshot(merchant.page, 'links-desktop-counter-card');

    // A payer scans it with a phone that reads Nepali: the link's page, the hosted page, the receipt.
    const payer = await suite.person(inNepali(onDevice('phone')));
    await payer.page.goto(address);
    await payer.page.getByText('रु. १,४५०.००').waitFor();
    expect(await payer.page.locator('html').getAttribute('lang')).toBe('ne');
    await screenshot(payer.page, 'links-phone-1-link-ne');
    await payer.page.getByRole('button', { name: ne.link.continue }).click();
    await payer.page.getByText(ne.link.problems.required).waitFor();
    await payer.page.getByLabel(ne.link.nameLabel).fill('हरि बहादुर');
    await payer.page.getByRole('button', { name: ne.link.continue }).click();
    await payer.page.getByText(`${MERCHANT.name} लाई भुक्तानी`).waitFor();
    await enterWallet(payer.page, SANDBOX.mobile, SANDBOX.mpin, ne);
    await enterOtp(payer.page, SANDBOX.otp, ne);
    await payer.page.getByRole('heading', { name: ne.receipt.Completed.title }).waitFor();
    expect(new URL(payer.page.url()).pathname).toBe(`${new URL(address).pathname}/paid`);
    await payer.page.getByText(ne.receipt.Completed.message('रु. १,४५०.००', MERCHANT.name)).waitFor();
    const transactionId = (await payer.page.getByTestId('transaction-id').textContent())!.trim();
    await screenshotsAtBothWidths(payer.page, 'links-2-receipt-ne');
    // The switch on the page: back to English, remembered.
    await payer.page.getByRole('link', { name: 'English' }).click();
    await payer.page.getByRole('heading', { name: en.receipt.Completed.title }).waitFor();
    await payer.page.setViewportSize(PHONE);

    // The merchant's transaction list shows the payment with its link; the link, its payment.
    await merchant.page.goto(`${suite.service.origin}/dashboard/transactions`);
    const row = merchant.page.locator(`tr[data-idx="${transactionId}"]`);
    await row.getByTestId('via-link').waitFor();
    expect(await row.getByTestId('via-link').textContent()).toBe('Link: Momo platter');
    await row.getByRole('link', { name: 'Momo platter' }).click();
    await merchant.page.getByTestId('link-paid').getByText('1').waitFor();
    expect(await merchant.page.getByTestId('link-collected').textContent()).toContain('Rs. 1,450.00');
    await merchant.page.getByText('हरि बहादुर').waitFor();

    // Deactivated, its page says so politely.
    await merchant.page.getByRole('button', { name: 'Deactivate link' }).click();
    await merchant.page.getByText('Link deactivated').waitFor();
    const closed = await payer.page.goto(address);
    expect(closed?.status()).toBe(410);
    await payer.page.getByRole('heading', { name: en.link.inactive.title }).waitFor();
    await screenshot(payer.page, 'links-phone-3-inactive');
  });
});
