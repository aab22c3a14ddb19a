// One payment: amounts, fee, breakdown, products, customer, payer (masked), the timeline of its
// events, the callback URL that was sent, and the refund form.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { alertBox, csrfField } from './form-controls.js';
import { formatDateTime, rupeesDecimal } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';
import type { PaymentDetails } from './payment-details.js';
import { statusBadge } from './transaction-table.js';
import { doorNames } from '../doors/door-names.js';

export interface PaymentPageView {
  details: PaymentDetails;
  message?: { tone: 'success' | 'error'; text: string };
  /** Why a refund was not made; shown in the refund form while there is one. */
  refundError?: string;
  /** What the merchant typed in the refund form, shown again with an error. */
  refundInput?: string;
}

function row(label: string, value: Html | string | number, testId?: string): Html {
  return html`<div class="row"${testId ? html` data-testid="${testId}"` : ''}><dt>${label}</dt><dd>${value}</dd></div>`;
}

function amounts(d: PaymentDetails): Html {
  const p = d.payment;
  const percent = p.amount > 0 ? `${((p.fee / p.amount) * 100).toFixed(2).replace(/\.?0+$/, '')}%` : '';
  return html`<section class="panel panel-amounts" aria-labelledby="amounts-heading">
  <h2 id="amounts-heading">Amounts</h2>
  <dl class="facts">
    ${row('Amount', html`<strong>${formatRupees(p.amount)}</strong>`, 'amount')}
    ${row('Fee', `${formatRupees(p.fee)} (${percent})`, 'fee')}
    ${row('You receive', formatRupees(p.amount - p.fee))}
    ${row('Refunded', formatRupees(p.refunded_amount), 'refunded')}
    ${d.refundable > 0 ? row('Refundable', formatRupees(d.refundable), 'refundable') : ''}
  </dl>
</section>`;
}

function lines(d: PaymentDetails): Html | '' {
  const breakdown = d.payment.amount_breakdown ?? [];
  const products = d.payment.product_details ?? [];
  if (!breakdown.length && !products.length) return '';
  return html`<section class="panel panel-lines" aria-labelledby="lines-heading">
  <h2 id="lines-heading">Order</h2>
  ${
    breakdown.length
      ? html`<table class="compact"><caption>Breakdown</caption>
    <tbody>${breakdown.map((b) => html`<tr><th scope="row">${b.label}</th><td class="num">${formatRupees(b.amount)}</td></tr>`)}</tbody>
    <tfoot><tr><th scope="row">Total</th><td class="num">${formatRupees(d.payment.amount)}</td></tr></tfoot>
  </table>`
      : ''
  }
  ${
    products.length
      ? html`<table class="compact"><caption>Products</caption>
    <thead><tr><th scope="col">Product</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Total</th></tr></thead>
    <tbody>${products.map(
      (p) => html`<tr><th scope="row">${p.name} <span class="pidx">${p.identity}</span></th><td class="num">${p.quantity}</td><td class="num">${formatRupees(p.unit_price)}</td><td class="num">${formatRupees(p.total_price)}</td></tr>`,
    )}</tbody>
  </table>`
      : ''
  }
</section>`;
}

function details(d: PaymentDetails, timeZone: string): Html {
  const p = d.payment;
  const extras = Object.entries(p.merchant_fields ?? {});
  return html`<section class="panel panel-details" aria-labelledby="details-heading">
  <h2 id="details-heading">Details</h2>
  <dl class="facts">
    ${row('pidx', html`<code>${p.pidx}</code>`)}
    ${row('Transaction id', p.transaction_id ? html`<code>${p.transaction_id}</code>` : html`<span class="muted">none yet</span>`)}
    ${row('Purchase order id', p.purchase_order_id)}
    ${row('Started through', doorNames[p.door], 'door')}
    ${row('Created', formatDateTime(p.created_at, timeZone))}
    ${row(d.status === 'Initiated' ? 'Expires' : 'Expiry', formatDateTime(p.expires_at, timeZone))}
    ${p.payment_link ? row('Payment link', html`<a href="/dashboard/links/${encodeURIComponent(p.payment_link)}"><code>${p.payment_link}</code></a>`, 'payment-link') : ''}
    ${row('Website', p.website_url)}
    ${row('Return URL', html`<span class="url">${p.return_url}</span>`)}
    ${extras.map(([key, value]) => row(key, typeof value === 'string' ? value : JSON.stringify(value)))}
  </dl>
</section>`;
}

function callback(d: PaymentDetails): Html {
  return html`<section class="panel panel-callback" aria-labelledby="callback-heading">
  <h2 id="callback-heading">Callback</h2>
  ${
    d.callbackUrl
      ? html`<p class="hint">The payer's browser was sent to:</p><p class="callback-url" data-testid="callback-url"><code>${d.callbackUrl}</code></p>`
      : html`<p class="muted">Not sent: the payer has not finished a payment attempt.</p>`
  }
</section>`;
}

function people(d: PaymentDetails): Html {
  const c = d.payment.customer_info;
  return html`<section class="panel panel-people" aria-labelledby="people-heading">
  <h2 id="people-heading">Customer and payer</h2>
  <dl class="facts">
    ${c && (c.name || c.email || c.phone) ? html`${c.name ? row('Customer', c.name) : ''}${c.email ? row('Email', c.email) : ''}${c.phone ? row('Phone', c.phone) : ''}` : row('Customer', html`<span class="muted">not given</span>`)}
    ${
      d.payer
        ? html`${row('Payer', d.payer.name)}${row('Wallet', d.payer.mobile, 'payer-mobile')}`
        : d.paidThrough
          ? row('Paid with', d.paidThrough.way, 'paid-with')
          : row('Payer', html`<span class="muted">not paid yet</span>`)
    }
  </dl>
</section>`;
}

function timeline(d: PaymentDetails, timeZone: string): Html {
  return html`<section class="panel panel-timeline" aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  <ol class="timeline">${d.timeline.map(
    (e) => html`<li class="${e.tone}"><p class="event-title">${e.title}</p>${e.note ? html`<p class="event-note">${e.note}</p>` : ''}<p class="event-time"><time datetime="${e.at.toISOString()}">${formatDateTime(e.at, timeZone)}</time></p></li>`,
  )}</ol>
</section>`;
}

function refundForm(d: PaymentDetails, csrf: string, input: string | undefined, error: string | undefined): Html | '' {
  if (d.refundable <= 0) return '';
  const p = d.payment;
  return html`<section class="panel refund-panel" id="refund" aria-labelledby="refund-heading">
  <h2 id="refund-heading">Refund</h2>
  <p>Up to <strong>${formatRupees(d.refundable)}</strong> can go back to ${d.payer?.mobile ?? 'the payer'}.</p>
  ${alertBox(error)}
  <form method="post" action="/dashboard/payments/${encodeURIComponent(p.pidx)}/refund#refund" class="stack">
    ${csrfField(csrf)}
    <div class="field${error ? ' invalid' : ''}">
      <label for="refund-amount">Amount to refund, in rupees (Rs.)</label>
      <input id="refund-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="${rupeesDecimal(d.refundable)}" value="${input ?? ''}" aria-describedby="refund-hint"${error ? html` aria-invalid="true"` : ''}>
      <p class="hint" id="refund-hint">Rupees with up to two decimals: 12.50 is twelve rupees fifty paisa. Leave it empty to refund the whole ${formatRupees(d.refundable)}.</p>
    </div>
    <button type="submit" class="primary">Review refund</button>
  </form>
</section>`;
}

function refunds(d: PaymentDetails, timeZone: string): Html | '' {
  if (!d.refunds.length) return '';
  return html`<section class="panel panel-refunds" aria-labelledby="refunds-heading">
  <h2 id="refunds-heading">Refunds</h2>
  <table class="compact"><caption class="visually-hidden">Refunds</caption>
    <thead><tr><th scope="col">Date</th><th scope="col">Refund id</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${d.refunds.map((r) => html`<tr><td>${formatDateTime(r.at, timeZone)}</td><td><code>${r.idx}</code></td><td class="num">${formatRupees(r.amount)}</td></tr>`)}</tbody>
  </table>
</section>`;
}

export function paymentPage(frame: PageFrame, view: PaymentPageView): Html {
  const d = view.details;
  const p = d.payment;
  return dashboardLayout({
    ...frame,
    title: `Payment ${p.purchase_order_id}`,
    body: html`<p class="crumbs"><a href="/dashboard/transactions">← Transactions</a></p>
<div class="page-head payment-head">
  <div>
    <p class="eyebrow">Payment · ${p.environment === 'test' ? 'test' : 'live'}</p>
    <h1 class="page-title">${p.purchase_order_name}</h1>
    <p class="sub"><span class="big-amount">${formatRupees(p.amount)}</span> <span data-testid="status">${statusBadge(d.status)}</span></p>
  </div>
</div>
${view.message ? alertBox(view.message.text, view.message.tone) : ''}
${view.refundError && d.refundable <= 0 ? alertBox(view.refundError) : ''}
<div class="payment-grid">
  <div class="col">
    ${amounts(d)}
    ${lines(d)}
    ${details(d, frame.timeZone)}
    ${callback(d)}
  </div>
  <div class="col">
    ${userMay(frame.session, 'refunds.create') ? refundForm(d, frame.csrf, view.refundInput, view.refundError) : ''}
    ${people(d)}
    ${refunds(d, frame.timeZone)}
    ${timeline(d, frame.timeZone)}
  </div>
</div>`,
  });
}

export function refundConfirmPage(frame: PageFrame, view: { details: PaymentDetails; amount: number }): Html {
  const d = view.details;
  const p = d.payment;
  const to = d.payer?.mobile ?? 'the payer';
  const remaining = d.refundable - view.amount;
  return dashboardLayout({
    ...frame,
    title: 'Confirm refund',
    body: html`<section class="panel confirm-panel" aria-labelledby="confirm-heading">
  <p class="eyebrow">Refund · ${p.environment === 'test' ? 'test data' : 'live data'}</p>
  <h1 id="confirm-heading">Refund ${formatRupees(view.amount)} to ${to}?</h1>
  <dl class="facts">
    <div class="row"><dt>Payment</dt><dd>${p.purchase_order_name} (${p.purchase_order_id})</dd></div>
    <div class="row"><dt>Paid</dt><dd>${formatRupees(p.amount)}</dd></div>
    <div class="row"><dt>Refunded before</dt><dd>${formatRupees(p.refunded_amount)}</dd></div>
    <div class="row"><dt>This refund</dt><dd><strong>${formatRupees(view.amount)}</strong></dd></div>
    <div class="row"><dt>After it</dt><dd>${remaining === 0 ? 'Fully refunded' : `${formatRupees(remaining)} still refundable`}</dd></div>
  </dl>
  <p class="hint">The money goes back to the payer's wallet at once. This cannot be undone. The fee is not returned.</p>
  <form method="post" action="/dashboard/payments/${encodeURIComponent(p.pidx)}/refund/confirm" class="actions">
    ${csrfField(frame.csrf)}
    <input type="hidden" name="amount_paisa" value="${view.amount}">
    <input type="hidden" name="refunded_before" value="${p.refunded_amount}">
    <button type="submit" class="primary danger">Confirm refund</button>
    <a class="button" href="/dashboard/payments/${encodeURIComponent(p.pidx)}">Back</a>
  </form>
</section>`,
  });
}
