// One payout's statement: where it went and when, every payment and refund it settles (the first
// page of them; all in the CSV), and the totals from the records to the amount paid.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { recordNet, type Payout, type SettledRecord } from '../settlements/payout.js';
import { payoutAccountLine } from '../settlements/payout-account.js';
import type { StatementTotals } from '../settlements/statement.js';
import { formatDateAndTime, formatDateTime } from './format.js';
import { dashboardLayout, userMay, type PageFrame } from './layout.js';
import { payoutBadge } from './payout-views.js';

export interface StatementView {
  payout: Payout;
  /** The first records of the statement, oldest first. */
  records: SettledRecord[];
  /** How many records the payout settles in all. */
  recordCount: number;
  totals: StatementTotals;
}

const row = (label: string, value: Html | string, testId?: string) => html`<div class="row"${testId ? html` data-testid="${testId}"` : ''}><dt>${label}</dt><dd>${value}</dd></div>`;

function payoutFacts(p: Payout, timeZone: string): Html {
  return html`<section class="panel" aria-labelledby="payout-heading">
  <h2 id="payout-heading">Payout</h2>
  <dl class="facts">
    ${row('Payout id', html`<code>${p.idx}</code>`)}
    ${row('To', payoutAccountLine(p))}
    ${row('Requested', `${formatDateTime(p.requested_at, timeZone)} by ${p.requested_by}`)}
    ${p.processing_at ? row('Sent to the bank', formatDateTime(p.processing_at, timeZone)) : ''}
    ${p.paid_at ? row('Paid', formatDateTime(p.paid_at, timeZone)) : ''}
    ${p.bank_reference ? row('Bank reference', html`<code>${p.bank_reference}</code>`, 'bank-reference') : ''}
    ${p.failed_at ? row('Failed', `${formatDateTime(p.failed_at, timeZone)}: ${p.failure_reason}`, 'failure') : ''}
  </dl>
  ${p.state === 'Failed' ? html`<p class="hint">The amount went back to your available balance; the records below are settled again by your next payout.</p>` : ''}
</section>`;
}

function totalsTable(t: StatementTotals): Html {
  const line = (label: string, amount: number, testId: string) => html`<tr data-testid="${testId}"><th scope="row">${label}</th><td class="num">${formatRupees(amount)}</td></tr>`;
  return html`<section class="panel" aria-labelledby="totals-heading">
  <h2 id="totals-heading">Totals</h2>
  <table class="compact"><caption class="visually-hidden">From the records to the payout</caption>
    <tbody>
      ${line('Payments', t.payments, 'total-payments')}
      ${line('Fees', -t.fees, 'total-fees')}
      ${line('Refunds', -t.refunds, 'total-refunds')}
      ${t.sandbox_covered !== 0 ? line('Covered by the sandbox (test refunds beyond your balance)', t.sandbox_covered, 'total-sandbox-covered') : ''}
      ${line('Net of the records', t.records_net, 'total-net')}
      ${t.brought_forward !== 0 ? line('Brought forward from earlier payouts', t.brought_forward, 'total-brought-forward') : ''}
      ${t.carried_forward !== 0 ? line('Left in your balance', -t.carried_forward, 'total-left') : ''}
    </tbody>
    <tfoot>${line('Payout', t.amount, 'total-payout')}</tfoot>
  </table>
</section>`;
}

function recordTable(view: StatementView, timeZone: string): Html {
  const { records, recordCount } = view;
  if (!records.length) return html`<p class="empty-list">No payments or refunds: this payout takes money brought forward only.</p>`;
  return html`<div class="table-wrap"><table class="records">
<caption class="visually-hidden">Payments and refunds settled</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Order</th><th scope="col">Type</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Fee</th><th scope="col" class="num">Net</th></tr></thead>
<tbody>
${records.map((r) => {
  const when = formatDateAndTime(r.created_at, timeZone);
  const refund = r.type === 'Refund';
  return html`<tr data-idx="${r.idx}">
  <td data-label="Date"><span>${when.date}<span class="time">${when.time}</span></span></td>
  <td data-label="Order" class="order"><a href="/dashboard/payments/${encodeURIComponent(r.pidx)}">${r.purchase_order_id}</a><span class="pidx">${r.idx}</span></td>
  <td data-label="Type">${refund ? 'Refund' : 'Payment'}</td>
  <td data-label="Amount" class="num${refund ? ' refund' : ''}">${formatRupees(refund ? -r.amount : r.amount)}</td>
  <td data-label="Fee" class="num">${formatRupees(r.fee_amount)}</td>
  <td data-label="Net" class="num">${formatRupees(recordNet(r))}</td>
</tr>`;
})}
</tbody></table></div>
${recordCount > records.length ? html`<p class="hint">The first ${records.length} of ${recordCount} records; the CSV has them all.</p>` : ''}`;
}

export function statementPage(frame: PageFrame, view: StatementView): Html {
  const { payout } = view;
  const csv = `/dashboard/settlements/${encodeURIComponent(payout.idx)}/statement.csv`;
  return dashboardLayout({
    ...frame,
    title: `Payout ${formatRupees(payout.amount)}`,
    body: html`<p class="crumbs"><a href="/dashboard/settlements">← Settlements</a></p>
<div class="page-head payment-head">
  <div>
    <p class="eyebrow">Payout statement</p>
    <h1 class="page-title">${formatRupees(payout.amount)} ${payoutBadge(payout.state)}</h1>
  </div>
  ${userMay(frame.session, 'transactions.export') ? html`<a class="button" href="${csv}" download>Download CSV</a>` : ''}
</div>
<div class="payment-grid">
  <div class="col">${totalsTable(view.totals)}</div>
  <div class="col">${payoutFacts(payout, frame.timeZone)}</div>
</div>
<section class="panel" aria-labelledby="records-heading">
  <h2 id="records-heading">Payments and refunds settled (${view.recordCount})</h2>
  ${recordTable(view, frame.timeZone)}
</section>`,
  });
}
