// The hosted payment page: what is being paid for, then the step the payer is on.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Payment } from '../payments/payment.js';
import { maskMobile } from '../transactions/transaction-record.js';
import { esewaSandbox, sandbox } from '../wallets/wallet.js';
import { stepAction } from './checkout-address.js';
import { portalLayout } from './layout.js';
import { waysToPay } from './ways-to-pay.js';
import type { ProviderName } from '../providers/provider.js';

export type Step = { name: 'wallet'; mobile?: string } | { name: 'otp'; token: string; mobile: string };

export interface CheckoutView {
  payment: Payment;
  merchant: Pick<Merchant, 'name'>;
  now: Date;
  step: Step;
  csrf: string;
  message?: string;
  /** The providers the payment's environment offers (contract section 13). */
  providers?: ProviderName[];
}

function timeLeft(payment: Payment, now: Date): string {
  const seconds = Math.max(0, Math.floor((payment.expires_at.getTime() - now.getTime()) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

function summary(payment: Payment, merchant: Pick<Merchant, 'name'>, now: Date): Html {
  const breakdown = payment.amount_breakdown ?? [];
  const products = payment.product_details ?? [];
  return html`<section class="summary" aria-label="Order summary">
  <p class="merchant">Pay <strong>${merchant.name}</strong></p>
  <h1 class="order">${payment.purchase_order_name}</h1>
  <p class="amount" data-testid="amount">${formatRupees(payment.amount)}</p>
  ${
    products.length
      ? html`<table class="lines products"><caption>Products</caption>
    ${products.map((p) => html`<tr><th scope="row">${p.name} <span class="qty">× ${p.quantity}</span></th><td>${formatRupees(p.total_price)}</td></tr>`)}
  </table>`
      : ''
  }
  ${
    breakdown.length
      ? html`<table class="lines breakdown"><caption>Breakdown</caption>
    ${breakdown.map((b) => html`<tr><th scope="row">${b.label}</th><td>${formatRupees(b.amount)}</td></tr>`)}
    <tr class="total"><th scope="row">Total</th><td>${formatRupees(payment.amount)}</td></tr>
  </table>`
      : ''
  }
  <p class="meta">Order ${payment.purchase_order_id} · <span class="timer" data-expires-at="${payment.expires_at.toISOString()}">Link expires in <span class="time-left">${timeLeft(payment, now)}</span></span></p>
</section>`;
}

function cancelForm(payment: Payment, csrf: string): Html {
  return html`<form method="post" action="${stepAction('cancel', payment.pidx)}" class="cancel-form">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <button type="submit" class="secondary">Cancel</button>
  </form>`;
}

function walletStep(view: CheckoutView, mobile: string | undefined): Html {
  const { payment, csrf } = view;
  return html`<form method="post" action="${stepAction('wallet', payment.pidx)}" class="pay-form" autocomplete="off">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <label for="mobile">Mobile number</label>
    <input id="mobile" name="mobile" type="tel" inputmode="numeric" pattern="9[0-9]{9}" maxlength="10" required value="${mobile ?? ''}" placeholder="98XXXXXXXX">
    <label for="mpin">MPIN</label>
    <input id="mpin" name="mpin" type="password" inputmode="numeric" pattern="[0-9]{4}" maxlength="4" required placeholder="4 digits">
    <button type="submit" class="primary">Pay</button>
  </form>`;
}

function otpStep(view: CheckoutView, step: Extract<Step, { name: 'otp' }>): Html {
  const { payment, csrf } = view;
  return html`<p class="hint">We sent a 6-digit code to ${maskMobile(step.mobile)}.</p>
  <form method="post" action="${stepAction('confirm', payment.pidx)}" class="pay-form" autocomplete="off">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <input type="hidden" name="attempt" value="${step.token}">
    <label for="otp">OTP</label>
    <input id="otp" name="otp" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code" placeholder="6 digits">
    <button type="submit" class="primary">Confirm</button>
  </form>`;
}

export function checkoutPage(view: CheckoutView): Html {
  const { payment, merchant, now, step } = view;
  const sandboxHint =
    payment.environment === 'test'
      ? html`<details class="sandbox-hint"><summary>Sandbox wallets</summary><p>Mobile ${sandbox.mobiles[0]}–9800000005, MPIN ${sandbox.mpin}, OTP ${sandbox.otp}. ${sandbox.pendingMobile} leaves the payment Pending.</p><p>eSewa's test IDs ${esewaSandbox.mobiles[0]}–${esewaSandbox.mobiles.at(-1)}, MPIN ${esewaSandbox.mpin}, OTP ${esewaSandbox.otp}.</p></details>`
      : '';
  return portalLayout({
    title: `Pay ${merchant.name}`,
    environment: payment.environment,
    body: html`${summary(payment, merchant, now)}
<section class="step" aria-label="${step.name === 'wallet' ? 'Wallet step' : 'Verification step'}">
  <ol class="steps"><li class="${step.name === 'wallet' ? 'current' : 'done'}">Wallet</li><li class="${step.name === 'otp' ? 'current' : ''}">OTP</li><li>Done</li></ol>
  ${view.message ? html`<p class="error" role="alert">${view.message}</p>` : ''}
  ${step.name === 'wallet' ? waysToPay(payment, view.providers ?? [], view.csrf) : ''}
  ${step.name === 'wallet' ? walletStep(view, step.mobile) : otpStep(view, step)}
  ${cancelForm(payment, view.csrf)}
  ${step.name === 'wallet' ? sandboxHint : ''}
</section>`,
  });
}
