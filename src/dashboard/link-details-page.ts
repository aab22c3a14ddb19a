// One payment link: its address and QR codes (to share, download or print for the counter), what it
// asks, whether it takes payments now, what it has collected, its payments, and (for a role that
// may) the button that deactivates or activates it.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { speechIn } from '../language/payer-speech.js';
import { expiryWords } from '../payment-links/expiry-words.js';
import { linkUrls, type PaymentLink } from '../payment-links/payment-link.js';
import type { LinkPayment, LinkTotals } from '../payment-links/payment-link-store.js';
import { maskMobile } from '../transactions/transaction-record.js';
import { alertBox, csrfField } from './form-controls.js';
import { formatDateAndTime, formatDateTime } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';
import { ASK_LABELS, linkAmount, linkStatusBadge } from './links-page.js';
import { statusBadge } from './transaction-table.js';

export interface LinkDetailsView {
  link: PaymentLink;
  totals: LinkTotals;
  payments: LinkPayment[];
  listed: number;
  publicUrl: string;
  now: Date;
  done?: string;
}

function row(label: string, value: Html | string, testId?: string): Html {
  return html`<div class="row"${testId ? html` data-testid="${testId}"` : ''}><dt>${label}</dt><dd>${value}</dd></div>`;
}

function payer(p: LinkPayment): string {
  return p.customer_info?.name ?? (p.payer_mobile ? maskMobile(p.payer_mobile) : '—');
}

function paymentTable(view: LinkDetailsView, timeZone: string): Html {
  if (view.payments.length === 0) return html`<p class="empty-list">No payments yet.</p>`;
  return html`<div class="table-wrap"><table class="records link-payments">
<caption class="visually-hidden">Payments through this link</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Payment</th><th scope="col">Payer</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>
${view.payments.map((p) => {
  const when = formatDateAndTime(p.created_at, timeZone);
  const status = p.status === 'Initiated' && p.expires_at.getTime() <= view.now.getTime() ? 'Expired' : p.status;
  return html`<tr data-pidx="${p.pidx}">
  <td data-label="Date"><span>${when.date}<span class="time">${when.time}</span></span></td>
  <td data-label="Payment" class="order"><a href="/dashboard/payments/${encodeURIComponent(p.pidx)}"><code>${p.pidx}</code></a></td>
  <td data-label="Payer">${payer(p)}</td>
  <td data-label="Amount" class="num">${formatRupees(p.amount)}</td>
  <td data-label="Status">${statusBadge(status)}</td>
</tr>`;
})}
</tbody></table></div>`;
}

export function linkDetailsPage(frame: PageFrame, view: LinkDetailsView): Html {
  const { link, totals } = view;
  const urls = linkUrls(view.publicUrl, link.code);
  const tz = frame.timeZone;
  const manage = userMay(frame.session, 'links.manage');
  return dashboardLayout({
    ...frame,
    title: link.name,
    body: html`<p class="crumbs"><a href="/dashboard/links">Payment links</a></p>
<div class="page-head">
  <h1 class="page-title">${link.name} ${linkStatusBadge(link, view.now)}</h1>
  ${
    manage
      ? html`<form method="post" action="/dashboard/links/${encodeURIComponent(link.idx)}/${link.active ? 'deactivate' : 'activate'}">
    ${csrfField(frame.csrf)}
    <button type="submit" class="button">${link.active ? 'Deactivate link' : 'Activate link'}</button>
  </form>`
      : ''
  }
</div>
${alertBox(view.done, 'success')}
<section class="panel link-share" aria-labelledby="share-heading">
  <h2 id="share-heading">Share it</h2>
  <p><code class="url" data-copy data-testid="link-url">${urls.url}</code></p>
  <div class="qr"><img src="/l/${link.code}/qr.svg" alt="QR code of ${urls.url}" width="240" height="${Math.round(240 * 1.1)}"></div>
  <p class="actions">
    <a class="button small" href="/l/${link.code}/qr.svg" download="payment-link-${link.code}.svg">Download SVG</a>
    <a class="button small" href="/l/${link.code}/qr.png" download="payment-link-${link.code}.png">Download PNG</a>
    <a class="button small" href="/dashboard/links/${encodeURIComponent(link.idx)}/print">Print for the counter</a>
  </p>
  <p class="hint">The SVG has your business's name under the code and prints sharp at any size; the PNG is the code alone, 1200 pixels wide.</p>
</section>
<section class="panel" aria-labelledby="settings-heading">
  <h2 id="settings-heading">Settings</h2>
  <dl class="facts">
    ${row('Amount', linkAmount(link), 'link-amount')}
    ${link.description ? row('Description', link.description) : ''}
    ${row('Asks the payer for', link.ask.length ? link.ask.map((a) => ASK_LABELS[a]).join(', ') : 'Nothing')}
    ${row('Expiry', link.expires_at ? expiryWords(link.expires_at, speechIn('en'), tz) : 'None', 'link-expiry')}
    ${row('Most payments', link.max_payments !== null ? `${link.max_payments} (${link.payments_taken} taken)` : 'No limit')}
    ${row('Created', `${formatDateTime(link.created_at, tz)} by ${link.created_by}`)}
    ${row('Link id', html`<code>${link.idx}</code>`)}
  </dl>
</section>
<section class="panel" aria-labelledby="payments-heading">
  <h2 id="payments-heading">Payments</h2>
  <dl class="facts">
    ${row('Paid', String(totals.payments_count), 'link-paid')}
    ${row('Collected', formatRupees(totals.payments_total), 'link-collected')}
    ${row('Refunded', formatRupees(totals.refunded_total))}
  </dl>
  ${paymentTable(view, tz)}
  ${view.payments.length >= view.listed ? html`<p class="hint">The latest ${view.listed} payments; the transaction list has them all (search by pidx).</p>` : ''}
</section>`,
  });
}
