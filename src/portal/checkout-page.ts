// The hosted payment page: what is being paid for, then the step the payer is on, in the payer's
// language. Amounts as Nepal writes them (Rs. 1,00,000.00; रु. १,००,०००.०० in Nepali).
import { breakdownLabel } from '../doors/breakdown-labels.js';
import { html, type Html } from '../http/html.js';
import { formatAmount, inDigits } from '../language/amounts.js';
import type { Speech } from '../language/payer-speech.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Payment } from '../payments/payment.js';
import { maskMobile } from '../transactions/transaction-record.js';
import { esewaSandbox, sandbox } from '../wallets/wallet.js';
import { stepAction } from './checkout-address.js';
import { portalLayout, type PayerFrame } from './layout.js';
import { waysToPay } from './ways-to-pay.js';
import type { ProviderName } from '../providers/registry.js';

export type Step = { name: 'wallet'; mobile?: string } | { name: 'otp'; token: string; mobile: string };

/** What the step says above its form: a refusal (an error), or news the payer may have made themselves (info). */
export interface StepNote {
  text: string;
  tone: 'error' | 'info';
}

export interface CheckoutView extends PayerFrame {
  payment: Payment;
  merchant: Pick<Merchant, 'name'>;
  now: Date;
  step: Step;
  csrf: string;
  message?: StepNote;
  /** The providers the payment's environment offers. */
  providers?: ProviderName[];
}

function timeLeft(payment: Payment, now: Date, { t, language }: Speech): string {
  const seconds = Math.max(0, Math.floor((payment.expires_at.getTime() - now.getTime()) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes >= 60 ? t.checkout.hoursMinutes(Math.floor(minutes / 60), minutes % 60) : inDigits(`${minutes}:${String(seconds % 60).padStart(2, '0')}`, language);
}

/** The payment's time left to pay, counted down by portal.js (the hosted page's and the QR page's). */
export function paymentTimer(payment: Payment, now: Date, speech: Speech): Html {
  const { t } = speech;
  return html`<span class="timer" data-expires-at="${payment.expires_at.toISOString()}" data-expired="${t.checkout.expired}">${t.checkout.expiresIn} <span class="time-left">${timeLeft(payment, now, speech)}</span></span>`;
}

function summary(view: CheckoutView): Html {
  const { payment, merchant, now, speech } = view;
  const { t, language } = speech;
  const amount = (paisa: number) => formatAmount(paisa, language);
  const breakdown = payment.amount_breakdown ?? [];
  const products = payment.product_details ?? [];
  // An order without a name of its own (eSewa's forms name none: its id stands for it) is said once, below.
  const named = payment.purchase_order_name !== payment.purchase_order_id;
  return html`<section class="summary" aria-label="${t.checkout.summary}">
  ${named ? html`<p class="merchant">${t.checkout.payTo(merchant.name)}</p>
  <h1 class="order">${payment.purchase_order_name}</h1>` : html`<h1 class="order">${t.checkout.payTo(merchant.name)}</h1>`}
  <p class="amount" data-testid="amount">${amount(payment.amount)}</p>
  ${
    products.length
      ? html`<table class="lines products"><caption>${t.checkout.products}</caption>
    ${products.map((p) => html`<tr><th scope="row">${p.name} <span class="qty">× ${inDigits(String(p.quantity), language)}</span></th><td>${amount(p.total_price)}</td></tr>`)}
  </table>`
      : ''
  }
  ${
    breakdown.length
      ? html`<table class="lines breakdown"><caption>${t.checkout.breakdown}</caption>
    ${breakdown.map((b) => html`<tr><th scope="row">${breakdownLabel(payment, b.label, t)}</th><td>${amount(b.amount)}</td></tr>`)}
    <tr class="total"><th scope="row">${t.checkout.total}</th><td>${amount(payment.amount)}</td></tr>
  </table>`
      : ''
  }
  <p class="meta">${t.checkout.order(payment.purchase_order_id)} · ${paymentTimer(payment, now, speech)}</p>
</section>`;
}

function cancelForm(view: CheckoutView): Html {
  return html`<form method="post" action="${stepAction('cancel', view.payment.pidx)}" class="cancel-form">
    <input type="hidden" name="csrf_token" value="${view.csrf}">
    <button type="submit" class="secondary">${view.speech.t.checkout.cancel}</button>
  </form>`;
}

// Devanagari digits are accepted in every box (a Nepali keyboard types them); the server reads them as digits.
const DIGIT = '[0-9\u0966-\u096f]';

function walletStep(view: CheckoutView, mobile: string | undefined): Html {
  const { payment, csrf } = view;
  const { t } = view.speech;
  return html`<form method="post" action="${stepAction('wallet', payment.pidx)}" class="pay-form" autocomplete="off">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <label for="mobile">${t.checkout.mobile}</label>
    <input id="mobile" name="mobile" type="tel" inputmode="numeric" pattern="[9\u096f]${DIGIT}{9}" maxlength="10" required value="${mobile ?? ''}" placeholder="${t.checkout.mobilePlaceholder}">
    <label for="mpin">${t.checkout.mpin}</label>
    <input id="mpin" name="mpin" type="password" inputmode="numeric" pattern="${DIGIT}{4}" maxlength="4" required placeholder="${t.checkout.mpinPlaceholder}">
    <button type="submit" class="primary" data-processing="${t.checkout.processing}">${t.checkout.pay}</button>
  </form>`;
}

function otpStep(view: CheckoutView, step: Extract<Step, { name: 'otp' }>): Html {
  const { payment, csrf } = view;
  const { t } = view.speech;
  return html`<p class="hint">${t.checkout.otpSent(maskMobile(step.mobile))}</p>
  <form method="post" action="${stepAction('confirm', payment.pidx)}" class="pay-form" autocomplete="off">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <input type="hidden" name="attempt" value="${step.token}">
    <label for="otp">${t.checkout.otp}</label>
    <input id="otp" name="otp" type="text" inputmode="numeric" pattern="${DIGIT}{6}" maxlength="6" required autocomplete="one-time-code" placeholder="${t.checkout.otpPlaceholder}">
    <button type="submit" class="primary" data-processing="${t.checkout.processing}">${t.checkout.confirm}</button>
  </form>`;
}

export function checkoutPage(view: CheckoutView): Html {
  const { payment, merchant, step } = view;
  const { t } = view.speech;
  const sandboxHint =
    payment.environment === 'test'
      ? html`<details class="sandbox-hint"><summary>${t.checkout.sandboxWallets}</summary><p>${t.checkout.sandboxHint(sandbox.mobiles[0], '9800000005', sandbox.mpin, sandbox.otp, sandbox.pendingMobile)}</p><p>${t.checkout.esewaSandboxHint(esewaSandbox.mobiles[0], esewaSandbox.mobiles.at(-1)!, esewaSandbox.mpin, esewaSandbox.otp)}</p></details>`
      : '';
  return portalLayout({
    speech: view.speech,
    back: view.back,
    title: t.checkout.title(merchant.name),
    environment: payment.environment,
    body: html`${summary(view)}
<section class="step" aria-label="${step.name === 'wallet' ? t.checkout.walletStep : t.checkout.otpStep}">
  <ol class="steps"><li class="${step.name === 'wallet' ? 'current' : 'done'}">${t.checkout.steps.wallet}</li><li class="${step.name === 'otp' ? 'current' : ''}">${t.checkout.steps.otp}</li><li>${t.checkout.steps.done}</li></ol>
  ${view.message ? (view.message.tone === 'error' ? html`<p class="error" role="alert">${view.message.text}</p>` : html`<p class="note" role="status">${view.message.text}</p>`) : ''}
  ${step.name === 'wallet' ? waysToPay(view, view.providers ?? []) : ''}
  ${step.name === 'wallet' ? walletStep(view, step.mobile) : otpStep(view, step)}
  ${cancelForm(view)}
  ${step.name === 'wallet' ? sandboxHint : ''}
</section>`,
  });
}
