// The hosted page's ways to pay through a provider (contract section 13): a button per provider the
// payment's environment offers, named for it; and the page that hands the payer to a provider that
// takes a form (eSewa, connectIPS), posted by portal.js at once or by the payer's click without it.
import { html, type Html } from '../http/html.js';
import type { Payment } from '../payments/payment.js';
import { providerLabels, type ProviderName, type ProviderRedirect } from '../providers/provider.js';
import { stepAction } from './checkout-address.js';
import { portalLayout } from './layout.js';

export function waysToPay(payment: Payment, providers: ProviderName[], csrf: string): Html {
  if (providers.length === 0) return html``;
  return html`<form method="post" action="${stepAction('provider', payment.pidx)}" class="ways-to-pay" aria-label="Pay through a provider">
    <input type="hidden" name="csrf_token" value="${csrf}">
    <p class="ways-title">Pay with</p>
    <div class="provider-buttons">${providers.map((name) => html`<button type="submit" name="provider" value="${name}" class="provider provider-${name}">${providerLabels[name]}</button>`)}</div>
  </form>
  <p class="or-wallet">or with a Bhuktani wallet</p>`;
}

export function handoffPage(options: { payment: Payment; name: ProviderName; redirect: Extract<ProviderRedirect, { method: 'POST' }> }): Html {
  const label = providerLabels[options.name];
  return portalLayout({
    title: `Continue to ${label}`,
    environment: options.payment.environment,
    body: html`<section class="notice info">
  <h1>Continue to ${label}</h1>
  <p>You pay on ${label}'s page, then come back here.</p>
  <form method="post" action="${options.redirect.url}" data-auto-submit>
    ${options.redirect.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    <button type="submit" class="primary">Continue to ${label}</button>
  </form>
</section>`,
  });
}
