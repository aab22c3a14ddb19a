// The console's payments: the search across all merchants with the queue of Pending payments, and
// one payment's page with its timeline, its operator actions and the resolve form.
import type { AuditRecord } from '../audit/audit-entry.js';
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { Payment } from '../payments/payment.js';
import type { PaymentListRow } from '../payments/payment-search.js';
import type { TimelineEntry } from '../payments/payment-timeline.js';
import { csrfField, notice } from './console-layout.js';
import { envTag, facts, paymentBadge, reasonField, when } from './console-views.js';

export interface PaymentSearchView {
  term: string;
  environment: string;
  results?: PaymentListRow[];
  pending: PaymentListRow[];
  timeZone: string;
}

function paymentTable(rows: PaymentListRow[], caption: string, timeZone: string): Html {
  if (!rows.length) return html`<p class="muted">No payments.</p>`;
  return html`<div class="table-wrap" role="region" aria-label="${caption}" tabindex="0"><table>
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Payment</th><th scope="col">Merchant</th><th scope="col" class="hide-narrow">Payer</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map(
    (p) => html`<tr>
  <td>${when(p.created_at, timeZone)}</td>
  <td><a href="/console/payments/${encodeURIComponent(p.pidx)}">${p.purchase_order_name}</a><br><code>${p.purchase_order_id}</code> ${envTag(p.environment)}</td>
  <td><a href="/console/merchants/${encodeURIComponent(p.merchant_idx)}">${p.merchant_name}</a></td>
  <td class="hide-narrow">${p.payer_mobile ?? html`<span class="muted">—</span>`}</td>
  <td class="num">${formatRupees(p.amount)}</td>
  <td>${paymentBadge(p.status)}</td>
</tr>`,
  )}</tbody></table></div>`;
}

const environmentChoice = (selected: string) =>
  html`<label for="pay-env">Environment<select id="pay-env" name="environment">${[
    ['', 'Both'],
    ['live', 'Live'],
    ['test', 'Test'],
  ].map(([value, label]) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`)}</select></label>`;

export function paymentSearchBody(view: PaymentSearchView): Html {
  return html`<h1>Payments</h1>
<form method="get" action="/console/payments" class="row panel" role="search">
  <label for="pay-q">pidx, transaction id, purchase order id or payer mobile<input id="pay-q" name="q" type="search" value="${view.term}" autocomplete="off"></label>
  ${environmentChoice(view.environment)}
  <button type="submit" class="primary">Search</button>
</form>
${
  view.results
    ? html`<section aria-labelledby="results-heading"><h2 id="results-heading">${view.results.length} ${view.results.length === 1 ? 'payment' : 'payments'} for “${view.term}”</h2>${paymentTable(view.results, 'Search results', view.timeZone)}</section>`
    : ''
}
<section aria-labelledby="pending-heading"><h2 id="pending-heading">Pending payments waiting for a decision</h2>
<p class="muted">Held payments move no money until resolved; the oldest first.</p>
${paymentTable(view.pending, 'Pending payments', view.timeZone)}</section>`;
}

export interface PaymentPageView {
  payment: Payment;
  status: string;
  merchant: { idx: string; name: string };
  timeline: TimelineEntry[];
  audit: AuditRecord[];
  mayResolve: boolean;
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

function resolveForm(view: PaymentPageView): Html | '' {
  if (view.status !== 'Pending') return '';
  if (!view.mayResolve) return html`<section class="panel"><h2>Resolve</h2><p class="muted">Your role may not resolve payments.</p></section>`;
  const pidx = encodeURIComponent(view.payment.pidx);
  return html`<section class="panel" id="resolve" aria-labelledby="resolve-heading">
  <h2 id="resolve-heading">Resolve this Pending payment</h2>
  <p>Completed takes ${formatRupees(view.payment.amount)} from the payer's wallet now; User canceled releases the order. The merchant is told by webhook.</p>
  <form method="post" action="/console/payments/${pidx}/resolve" class="stack">
    ${csrfField(view.csrf)}
    <fieldset><legend>Decision</legend>
      <label><span><input type="radio" name="resolution" value="Completed" required> Completed</span></label>
      <label><span><input type="radio" name="resolution" value="User canceled"> User canceled</span></label>
    </fieldset>
    ${reasonField('resolve-reason')}
    <button type="submit" class="primary">Resolve</button>
  </form>
</section>`;
}

export function auditPanel(entries: AuditRecord[], timeZone: string): Html {
  return html`<section class="panel" aria-labelledby="audit-heading"><h2 id="audit-heading">Operator actions</h2>${
    entries.length
      ? html`<ol class="audit-trail">${entries.map(
          (e) => html`<li><strong>${e.action}</strong> by ${e.actor.label}, ${when(e.occurredAt, timeZone)}${e.reason ? html`<br><span class="muted">${e.reason}</span>` : ''}</li>`,
        )}</ol>`
      : html`<p class="muted">None.</p>`
  }</section>`;
}

export function paymentPageBody(view: PaymentPageView): Html {
  const p = view.payment;
  return html`<p><a href="/console/payments">← Payments</a></p>
<h1>${p.purchase_order_name} ${paymentBadge(view.status)}</h1>
${notice(view.done)}${notice(view.error, 'error')}
<div class="panels">
  <section class="panel" aria-labelledby="facts-heading"><h2 id="facts-heading">Payment</h2>${facts([
    ['Amount', formatRupees(p.amount)],
    ['Fee', formatRupees(p.fee)],
    ['Refunded', formatRupees(p.refunded_amount)],
    ['Environment', envTag(p.environment)],
    ['Merchant', html`<a href="/console/merchants/${encodeURIComponent(view.merchant.idx)}">${view.merchant.name}</a>`],
    ['pidx', html`<code>${p.pidx}</code>`],
    ['Transaction id', p.transaction_id ? html`<code>${p.transaction_id}</code>` : html`<span class="muted">none</span>`],
    ['Purchase order id', html`<code>${p.purchase_order_id}</code>`],
    ['Payer', p.payer_mobile ? html`<a href="/console/wallets?mobile=${p.payer_mobile}&amp;environment=${p.environment}">${p.payer_mobile}</a>` : html`<span class="muted">not paid</span>`],
    ['Created', when(p.created_at, view.timeZone)],
    ['Link expiry', when(p.expires_at, view.timeZone)],
  ])}</section>
  ${resolveForm(view)}
</div>
<div class="panels">
  <section class="panel" aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>
  <ol class="timeline">${view.timeline.map(
    (e) => html`<li class="${e.tone}"><strong>${e.title}</strong>${e.note ? html`<br><span class="muted">${e.note}</span>` : ''}<br>${when(e.at, view.timeZone)}</li>`,
  )}</ol></section>
  ${auditPanel(view.audit, view.timeZone)}
</div>`;
}
