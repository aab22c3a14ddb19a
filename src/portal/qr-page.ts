// A provider's QR on the hosted page (Fonepay's dynamic QR), for a payer who may scan it from a
// second device: what it pays for (the order, the time left), the QR message the provider issued
// drawn as an SVG, the amount, the business, the name the bank app will show, and the steps. portal.js
// asks the waiting address every two seconds and moves on when it names the next page; without
// script the payer's button asks. In the sandbox a link opens the simulated bank app on this very QR.
import { Html, html } from '../http/html.js';
import { formatAmount, unbrokenAmount } from '../language/amounts.js';
import { paymentPath } from '../payments/payment-url.js';
import type { Payment } from '../payments/payment.js';
import { qrPagePath, qrWaitPath } from '../provider-payments/qr-wait.js';
import { qrCodeSvg } from '../payment-links/qr-code.js';
import { parseQrMessage } from '../protocols/emvco/merchant-qr.js';
import { paymentTimer } from './checkout-page.js';
import { portalLayout, type PayerFrame } from './layout.js';

export interface QrPageView extends PayerFrame {
  payment: Payment;
  now: Date;
  /** The way's name (`Fonepay QR`). */
  way: string;
  businessName: string;
  attemptIdx: string;
  qrMessage: string;
  /** The payer asked and it is not paid yet. */
  notYet: boolean;
  sandboxBankApp?: string;
}

/**
 * The merchant name a bank app shows for the QR: an EMVCo merchant-presented message's data object
 * 59 (Fonepay's account, not the business); undefined for a message of another kind.
 */
export function qrAccountName(qrMessage: string): string | undefined {
  return parseQrMessage(qrMessage)?.get('59')?.trim() || undefined;
}

export async function qrPage(view: QrPageView): Promise<Html> {
  const { payment, businessName, speech } = view;
  const { t, language } = speech;
  const amount = unbrokenAmount(payment.amount, language);
  const account = qrAccountName(view.qrMessage);
  const svg = await qrCodeSvg(view.qrMessage, businessName, t.qrWay.imageLabel(view.way, formatAmount(payment.amount, language), businessName));
  // An order without a name of its own (eSewa's forms name none) is said by its id alone.
  const named = payment.purchase_order_name !== payment.purchase_order_id;
  return portalLayout({
    speech,
    back: view.back,
    title: t.qrWay.title(view.way),
    environment: payment.environment,
    body: html`<section class="qr-way" aria-labelledby="qr-way-title">
  <h1 id="qr-way-title">${t.qrWay.title(view.way)}</h1>
  ${named ? html`<p class="order">${payment.purchase_order_name}</p>` : ''}
  <p class="meta">${t.checkout.order(payment.purchase_order_id)} · ${paymentTimer(payment, view.now, speech)}</p>
  <p class="qr-lead">${t.qrWay.scan}</p>
  <div class="qr-and-facts">
    <figure class="qr-image">${new Html(svg)}</figure>
    <dl class="qr-facts">
      <dt>${t.qrWay.amountLabel}</dt><dd class="qr-amount">${amount}</dd>
      <dt>${t.qrWay.businessLabel}</dt><dd>${businessName}</dd>
      ${account ? html`<dt>${t.qrWay.accountLabel}</dt><dd class="qr-account">${account}</dd>` : ''}
    </dl>
  </div>
  ${account && account !== businessName ? html`<p class="hint qr-account-note">${t.qrWay.accountNote(account, businessName)}</p>` : ''}
  <ol class="qr-steps" aria-label="${t.qrWay.stepsLabel}">
    <li>${t.qrWay.steps.open}</li>
    <li>${t.qrWay.steps.scan}</li>
    <li>${t.qrWay.steps.check(amount, account ?? businessName)}</li>
    <li>${t.qrWay.steps.pay}</li>
  </ol>
  ${view.notYet ? html`<p class="qr-not-yet" role="alert">${t.qrWay.notYet}</p>` : ''}
  <p class="qr-wait" role="status" data-wait-url="${qrWaitPath(view.attemptIdx)}">${t.qrWay.waiting}</p>
  <form method="get" action="${qrPagePath(view.attemptIdx)}">
    <input type="hidden" name="ask" value="1">
    <button type="submit" class="primary">${t.qrWay.ask}</button>
  </form>
  ${view.sandboxBankApp ? html`<p><a class="button secondary quiet" href="${view.sandboxBankApp}" target="_blank" rel="noopener">${t.qrWay.sandboxBankApp}</a></p>` : ''}
  <p><a class="button secondary quiet" href="${paymentPath(payment.pidx)}">${t.qrWay.otherWay}</a></p>
</section>`,
  });
}
