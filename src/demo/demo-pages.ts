// The demo shop's pages: a merchant's website, not Bhuktani's, so it has its own look (demo.css). It
// speaks the payer's language as Bhuktani's pages do (src/language/), with the same switch.
import { html, type Html } from '../http/html.js';
import type { LookupResponse } from '../client/index.js';
import { formatAmount } from '../language/amounts.js';
import { languageSwitch } from '../language/language-switch.js';
import type { Speech } from '../language/payer-speech.js';
import { outcomeTone, type Tone } from '../portal/notice-page.js';
import { DELIVERY_PAISA, PRODUCTS, type Product } from './products.js';
import { sandbox } from '../wallets/wallet.js';
import { assetUrl } from '../http/assets.route.js';

/** The payer's language, and this page's address for the language switch to come back to. */
export interface ShopFrame {
  speech: Speech;
  back: string;
}

function layout(frame: ShopFrame, options: { title: string; body: Html; sandboxNote?: boolean }): Html {
  const { t, language } = frame.speech;
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · ${t.demo.shopName}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('demo.css')}">
</head>
<body>
<header>
<div class="shop-header">
  <a class="shop-name" href="/demo"><span class="leaf" aria-hidden="true"></span>${t.demo.shopName}</a>
  <span class="shop-tagline">${t.demo.tagline}</span>
  ${languageSwitch(frame.speech, frame.back)}
</div>
${options.sandboxNote === false ? '' : html`<p class="sandbox" role="note">${t.demo.sandboxNote(sandbox.mobiles[1], sandbox.mpin, sandbox.otp)}</p>`}
</header>
<main class="shop-main">
${options.body}
</main>
<footer class="shop-footer">${t.demo.footer}</footer>
</body>
</html>`;
}

function tin(tone: Product['tone']): Html {
  return html`<svg class="tin ${tone}" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
  <ellipse class="shadow" cx="60" cy="108" rx="34" ry="6"/>
  <rect class="body" x="28" y="30" width="64" height="76" rx="8"/>
  <rect class="lid" x="24" y="18" width="72" height="18" rx="6"/>
  <rect class="label" x="36" y="52" width="48" height="34" rx="4"/>
  <path class="leaf-mark" d="M60 78c-9-4-12-12-8-20 8 1 13 8 8 20zm0 0c2-7 6-12 12-14"/>
</svg>`;
}

export function shopPage(frame: ShopFrame, options: { csrf: string; message?: string }): Html {
  const { t, language } = frame.speech;
  return layout(frame, {
    title: t.demo.shopTitle,
    body: html`<section class="intro">
  <h1>${t.demo.heading}</h1>
  <p>${t.demo.intro()}</p>
</section>
${options.message ? html`<p class="alert" role="alert">${options.message}</p>` : ''}
<ul class="products">
${PRODUCTS.map(
  (product) => html`<li class="product">
  ${tin(product.tone)}
  <h2>${product.name}</h2>
  <p class="description">${t.demo.products[product.id]}</p>
  <p class="price">${formatAmount(product.price, language)} <span class="delivery">${t.demo.plusDelivery(formatAmount(DELIVERY_PAISA, language))}</span></p>
  <form method="post" action="/demo/buy">
    <input type="hidden" name="csrf_token" value="${options.csrf}">
    <input type="hidden" name="product" value="${product.id}">
    <button type="submit">${t.demo.buy}<span class="visually-hidden"> ${product.name}</span></button>
  </form>
</li>`,
)}
</ul>`,
  });
}

export function resultPage(frame: ShopFrame, options: { lookup: LookupResponse; orderName: string }): Html {
  const { lookup } = options;
  const { t, language } = frame.speech;
  const outcome = t.demo.outcomes[lookup.status];
  const said = t.demo.receipt;
  return layout(frame, {
    title: outcome.title,
    body: html`<section class="result ${outcomeTone[lookup.status]}">
  <h1>${outcome.title}</h1>
  <p>${outcome.message}</p>
  <dl class="receipt">
    <dt>${said.order}</dt><dd>${options.orderName}</dd>
    <dt>${said.orderId}</dt><dd class="id">${lookup.purchase_order_id ?? ''}</dd>
    <dt>${said.amount}</dt><dd>${formatAmount(lookup.total_amount, language)}</dd>
    <dt>${said.status}</dt><dd data-testid="status" data-status="${lookup.status}">${t.demo.statuses[lookup.status]}</dd>
    ${lookup.transaction_id ? html`<dt>${said.transactionId}</dt><dd class="id" data-testid="transaction-id">${lookup.transaction_id}</dd>` : ''}
    <dt>${said.pidx}</dt><dd class="id">${lookup.pidx}</dd>
  </dl>
  <p class="checks"><span>${t.demo.checks.signature}</span> <span>${t.demo.checks.lookup}</span></p>
  <p><a class="button" href="/demo">${t.demo.backToShop}</a></p>
</section>`,
  });
}

export function noticePage(frame: ShopFrame, options: { title: string; message: string; tone?: Tone; detail?: Html }): Html {
  return layout(frame, {
    title: options.title,
    body: html`<section class="result ${options.tone ?? 'info'}">
  <h1>${options.title}</h1>
  <p>${options.message}</p>
  ${options.detail ?? ''}
  <p><a class="button" href="/demo">${frame.speech.t.demo.backToShop}</a></p>
</section>`,
  });
}

export function unavailablePage(frame: ShopFrame): Html {
  const said = frame.speech.t.demo.unavailable;
  return layout(frame, {
    title: said.title,
    sandboxNote: false,
    body: html`<section class="result info">
  <h1>${said.heading}</h1>
  <p>${said.why}</p>
  <p>${said.instead()}</p>
</section>`,
  });
}
