// The hosted page's ways to pay through a provider: a button per provider the
// payment's environment offers, named for it; and the page that hands the payer to a provider that
// takes a form (eSewa, connectIPS) or a link (Khalti's payment_url), taken by portal.js at once or by
// the payer's click without it. In the payer's language (src/language/: `providers`).
import { html, type Html } from '../http/html.js';
import type { Payment } from '../payments/payment.js';
import { type ProviderRedirect } from '../providers/provider.js';
import { descriptorOf, providerLabel, type ProviderName } from '../providers/registry.js';
import { stepAction } from './checkout-address.js';
import { portalLayout, type PayerFrame } from './layout.js';

function button(view: { payment: Payment; csrf: string }, name: ProviderName, label: string, way?: 'qr'): Html {
  return html`<form method="post" action="${stepAction('provider', view.payment.pidx)}">
      <input type="hidden" name="csrf_token" value="${view.csrf}">
      <input type="hidden" name="provider" value="${name}">
      ${way ? html`<input type="hidden" name="way" value="${way}">` : ''}
      <button type="submit" class="provider provider-${name}${way ? `-${way}` : ''}">${label}</button>
    </form>`;
}

export function waysToPay(view: PayerFrame & { payment: Payment; csrf: string }, providers: ProviderName[]): Html {
  if (providers.length === 0) return html``;
  const { t } = view.speech;
  // A form per provider, its name in a field: portal.js disables a form's buttons as it submits, and a
  // disabled button's own value would not be sent.
  return html`<section class="ways-to-pay" aria-label="${t.providers.section}">
    <p class="ways-title">${t.providers.payWith}</p>
    <div class="provider-buttons">${providers.flatMap((name) => {
      const qr = descriptorOf(name).qr;
      // A provider's QR after its own page: on a phone the QR is little use to the phone that shows it.
      return [qr?.only ? '' : button(view, name, providerLabel(name)), qr ? button(view, name, qr.label, 'qr') : ''];
    })}</div>
  </section>
  <p class="or-wallet">${t.providers.orWallet}</p>`;
}

/**
 * The page that hands the payer over. Never a redirect after the payer's POST: browsers hold that
 * redirect to the hosted page's form-action, and a provider's page (Khalti's payment_url) is on a
 * host known only once it answered. A link (followed at once by portal.js) is a navigation instead.
 */
export function handoffPage(options: PayerFrame & { payment: Payment; name: ProviderName; redirect: ProviderRedirect }): Html {
  const { t } = options.speech;
  const label = providerLabel(options.name);
  const { redirect } = options;
  return portalLayout({
    speech: options.speech,
    back: options.back,
    title: t.providers.continueTo(label),
    environment: options.payment.environment,
    body: html`<section class="notice info">
  <h1>${t.providers.continueTo(label)}</h1>
  <p>${t.providers.payThere(label)}</p>
  ${
    redirect.method === 'GET'
      ? html`<p><a class="button primary" href="${redirect.url}" data-auto-follow>${t.providers.continueTo(label)}</a></p>`
      : html`<form method="post" action="${redirect.url}" data-auto-submit>
    ${redirect.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    <button type="submit" class="primary">${t.providers.continueTo(label)}</button>
  </form>`
  }
</section>`,
  });
}

/** Back from a provider, on to the merchant's return_url (followed at once by portal.js). */
export function onwardPage(options: PayerFrame & { payment: Payment; merchantName: string; url: string }): Html {
  const { t } = options.speech;
  return portalLayout({
    speech: options.speech,
    back: options.back,
    title: t.notices.backTo(options.merchantName),
    environment: options.payment.environment,
    body: html`<section class="notice info">
  <h1>${t.notices.backTo(options.merchantName)}</h1>
  <p>${t.providers.takingBack(options.merchantName)}</p>
  <p><a class="button primary" href="${options.url}" data-auto-follow>${t.notices.finished.returnTo(options.merchantName)}</a></p>
</section>`,
  });
}
