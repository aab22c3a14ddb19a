// The transaction list: the API's records with its filters, a search by pidx or purchase_order_id,
// pages, and the CSV export of the same filtered list.
import { html, type Html } from '../http/html.js';
import type { ListedPayment } from '../payments/payment-statuses.js';
import type { TransactionPage } from '../transactions/list-transactions.js';
import { alertBox, selectInput, textInput } from './form-controls.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';
import type { PaidThrough } from './paid-through.js';
import { transactionTable } from './transaction-table.js';

export interface ListForm {
  q: string;
  status: string;
  from: string;
  to: string;
}

/** The query string of a list: only the filters that are set, then the page. */
export function listQuery(form: ListForm, page?: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value) params.set(key, value);
  if (page && page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function pager(page: TransactionPage, form: ListForm): Html {
  const [first, last] = page.record_range;
  const link = (n: number, text: string, rel: string) => html`<a class="button small" rel="${rel}" href="/dashboard/transactions${listQuery(form, n)}">${text}</a>`;
  return html`<nav class="pager" aria-label="Pages">
  <p class="range">${page.total_records === 0 ? 'No records' : html`Showing <strong>${first}–${last}</strong> of <strong>${page.total_records}</strong>`}</p>
  <p class="pages">
    ${page.previous ? link(page.current_page - 1, '← Previous', 'prev') : html`<span class="button small disabled" aria-disabled="true">← Previous</span>`}
    <span class="page-of">Page ${page.current_page} of ${page.total_pages}</span>
    ${page.next ? link(page.current_page + 1, 'Next →', 'next') : html`<span class="button small disabled" aria-disabled="true">Next →</span>`}
  </p>
</nav>`;
}

export function transactionsPage(frame: PageFrame, view: { form: ListForm; page?: TransactionPage; statuses: Map<string, ListedPayment>; links?: Map<string, string>; paidThrough?: Map<string, PaidThrough>; error?: string }): Html {
  const { form, page } = view;
  const filtered = Object.values(form).some(Boolean);
  return dashboardLayout({
    ...frame,
    title: 'Transactions',
    body: html`<div class="page-head">
  <h1 class="page-title">Transactions</h1>
  ${userMay(frame.session, 'transactions.export') ? html`<a class="button" href="/dashboard/transactions.csv${listQuery(form)}" download>Export CSV</a>` : ''}
</div>
<form method="get" action="/dashboard/transactions" class="filters panel" role="search">
  ${textInput({ name: 'q', label: 'Search', type: 'search', value: form.q, hint: 'A pidx or a purchase order id' })}
  ${selectInput({
    name: 'status',
    label: 'Status',
    value: form.status,
    options: [
      ['', 'All'],
      ['Completed', 'Completed'],
      ['Confirmed', 'Confirmed (pending)'],
      ['Canceled', 'Canceled'],
    ],
  })}
  ${textInput({ name: 'from', label: 'From', type: 'date', value: form.from })}
  ${textInput({ name: 'to', label: 'To', type: 'date', value: form.to })}
  <div class="filter-actions">
    <button type="submit" class="primary">Apply</button>
    ${filtered ? html`<a class="button" href="/dashboard/transactions">Clear</a>` : ''}
  </div>
</form>
${alertBox(view.error)}
${
  page
    ? html`<section class="panel">
  ${transactionTable(page.records, { timeZone: frame.timeZone, statuses: view.statuses, caption: 'Transactions', links: view.links, paidThrough: view.paidThrough })}
  ${pager(page, form)}
</section>`
    : ''
}`,
  });
}
