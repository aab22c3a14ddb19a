// The demo shop's pages: a merchant's website, not Bhuktani's, so it has its own look (demo.css).
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { LookupResponse, PaymentStatus } from '../client/index.js';
import { DELIVERY_PAISA, PRODUCTS, type Product } from './products.js';

function layout(options: { title: string; body: Html; sandboxNote?: boolean }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Demo Shop</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/demo.css">
</head>
<body>
<header>
<div class="shop-header">
  <a class="shop-name" href="/demo"><span class="leaf" aria-hidden="true"></span>Demo Shop</a>
  <span class="shop-tagline">Tea from the hills of Nepal</span>
</div>
${options.sandboxNote === false ? '' : html`<p class="sandbox" role="note"><strong>Sandbox demo</strong> · no real money moves. Pay with wallet <b>9800000001</b>, MPIN <b>1111</b>, OTP <b>987654</b>.</p>`}
</header>
<main class="shop-main">
${options.body}
</main>
<footer class="shop-footer">A sample shop that takes payments through Bhuktani's hosted checkout.</footer>
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

export function shopPage(options: { csrf: string; message?: string }): Html {
  return layout({
    title: 'Shop',
    body: html`<section class="intro">
  <h1>Fresh tea, paid through Bhuktani</h1>
  <p>Pick a tea and press <b>Buy</b>: this shop's server initiates a payment with the typed client, sends you to Bhuktani's hosted page, and confirms the result with a lookup when you come back.</p>
</section>
${options.message ? html`<p class="alert" role="alert">${options.message}</p>` : ''}
<ul class="products">
${PRODUCTS.map(
  (product) => html`<li class="product">
  ${tin(product.tone)}
  <h2>${product.name}</h2>
  <p class="description">${product.description}</p>
  <p class="price">${formatRupees(product.price)} <span class="delivery">+ ${formatRupees(DELIVERY_PAISA)} delivery</span></p>
  <form method="post" action="/demo/buy">
    <input type="hidden" name="csrf_token" value="${options.csrf}">
    <input type="hidden" name="product" value="${product.id}">
    <button type="submit">Buy<span class="visually-hidden"> ${product.name}</span></button>
  </form>
</li>`,
)}
</ul>`,
  });
}

interface Outcome {
  title: string;
  tone: 'success' | 'info' | 'error';
  message: string;
}

const OUTCOMES: Record<PaymentStatus, Outcome> = {
  Completed: { title: 'Order paid', tone: 'success', message: 'Thank you! Your tea is on its way.' },
  'Partially refunded': { title: 'Order partly refunded', tone: 'info', message: 'This order was paid, and part of it has been refunded.' },
  Refunded: { title: 'Order refunded', tone: 'info', message: 'This order was paid and then refunded in full.' },
  Pending: { title: 'Payment pending', tone: 'info', message: 'The payment is held for review. We ship once it completes.' },
  'User canceled': { title: 'Payment canceled', tone: 'error', message: 'You canceled the payment. Nothing was charged.' },
  Expired: { title: 'Payment link expired', tone: 'error', message: 'The payment link expired before it was paid. Nothing was charged.' },
  Initiated: { title: 'Payment not finished', tone: 'info', message: 'This payment has not been made yet.' },
};

export function resultPage(options: { lookup: LookupResponse; orderName: string }): Html {
  const { lookup } = options;
  const outcome = OUTCOMES[lookup.status];
  return layout({
    title: outcome.title,
    body: html`<section class="result ${outcome.tone}">
  <h1>${outcome.title}</h1>
  <p>${outcome.message}</p>
  <dl class="receipt">
    <dt>Order</dt><dd>${options.orderName}</dd>
    <dt>Order id</dt><dd class="id">${lookup.purchase_order_id ?? ''}</dd>
    <dt>Amount</dt><dd>${formatRupees(lookup.total_amount)}</dd>
    <dt>Status</dt><dd data-testid="status">${lookup.status}</dd>
    ${lookup.transaction_id ? html`<dt>Transaction id</dt><dd class="id" data-testid="transaction-id">${lookup.transaction_id}</dd>` : ''}
    <dt>Payment id (pidx)</dt><dd class="id">${lookup.pidx}</dd>
  </dl>
  <p class="checks"><span>Callback signature verified</span> <span>Status confirmed with lookup</span></p>
  <p><a class="button" href="/demo">Back to the shop</a></p>
</section>`,
  });
}

export function noticePage(options: { title: string; message: string; tone?: Outcome['tone']; detail?: Html }): Html {
  return layout({
    title: options.title,
    body: html`<section class="result ${options.tone ?? 'info'}">
  <h1>${options.title}</h1>
  <p>${options.message}</p>
  ${options.detail ?? ''}
  <p><a class="button" href="/demo">Back to the shop</a></p>
</section>`,
  });
}

export function unavailablePage(): Html {
  return layout({
    title: 'No demo here',
    sandboxNote: false,
    body: html`<section class="result info">
  <h1>The demo shop is not set up on this server</h1>
  <p>Bhuktani creates its demo merchant only when it starts on an empty store, and this store already had merchants when it started (or the demo's key was removed).</p>
  <p>To try a payment, create a merchant with <code>npx bhuktani merchant create</code> and initiate a payment with its test key, as the README shows.</p>
</section>`,
  });
}
