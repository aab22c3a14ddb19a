// A provider's QR on the hosted page (Fonepay's dynamic QR): the QR message the provider issued for
// this attempt, drawn as an SVG with the business's name under it, the amount and the business
// beside it, and the wait. portal.js asks the waiting address every two seconds and moves on when it
// names the next page; without script the payer's button asks. In the sandbox a link opens the
// simulated bank app on this very QR.
import { Html, html } from '../http/html.js';
import { formatAmount } from '../language/amounts.js';
import { paymentPath } from '../payments/payment-url.js';
import type { Payment } from '../payments/payment.js';
import { qrPagePath, qrWaitPath } from '../provider-payments/qr-wait.js';
import { qrCodeSvg } from '../payment-links/qr-code.js';
import { portalLayout, type PayerFrame } from './layout.js';


export async function qrPage(options: PayerFrame & { payment: Payment; way: string; businessName: string; attemptIdx: string; qrMessage: string; notYet: boolean; sandboxBankApp?: string }): Promise<Html> {
  const { t, language } = options.speech;
  const amount = formatAmount(options.payment.amount, language);
  const svg = await qrCodeSvg(options.qrMessage, options.businessName, t.qrWay.imageLabel(options.way, amount, options.businessName));
  return portalLayout({
    speech: options.speech,
    back: options.back,
    title: t.qrWay.title(options.way),
    environment: options.payment.environment,
    body: html`<section class="qr-way" aria-labelledby="qr-way-title">
  <h1 id="qr-way-title">${t.qrWay.title(options.way)}</h1>
  <p>${t.qrWay.scan}</p>
  <div class="qr-and-facts">
    <figure class="qr-image">${new Html(svg)}</figure>
    <dl class="qr-facts">
      <dt>${t.qrWay.amountLabel}</dt><dd class="amount">${amount}</dd>
      <dt>${t.qrWay.toLabel}</dt><dd>${options.businessName}</dd>
    </dl>
  </div>
  <p class="qr-wait" role="status" data-wait-url="${qrWaitPath(options.attemptIdx)}">${options.notYet ? t.qrWay.notYet : t.qrWay.waiting}</p>
  <form method="get" action="${qrPagePath(options.attemptIdx)}">
    <input type="hidden" name="ask" value="1">
    <button type="submit" class="primary">${t.qrWay.ask}</button>
  </form>
  ${options.sandboxBankApp ? html`<p><a class="button secondary" href="${options.sandboxBankApp}" target="_blank" rel="noopener" lang="en">Pay this QR in the sandbox</a></p>` : ''}
  <p><a href="${paymentPath(options.payment.pidx)}">${t.qrWay.otherWay}</a></p>
</section>`,
  });
}
