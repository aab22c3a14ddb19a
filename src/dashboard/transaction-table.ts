// The table of transaction records, on the home page and the transactions page: the API's records,
// in the API's order, each linked to its payment.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { doorNames } from '../doors/door-names.js';
import type { ListedPayment } from '../payments/payment-statuses.js';
import type { TransactionRecord } from '../transactions/transaction-record.js';
import { formatDateAndTime } from './format.js';
import type { PaidThrough } from './paid-through.js';

const statusTone: Record<string, string> = {
  Completed: 'ok',
  'Partially refunded': 'warn',
  Refunded: 'muted',
  Pending: 'warn',
  Confirmed: 'warn',
  Initiated: 'info',
  Expired: 'muted',
  'User canceled': 'muted',
  Canceled: 'muted',
};

export function statusBadge(status: string): Html {
  return html`<span class="badge ${statusTone[status] ?? 'info'}">${status}</span>`;
}

/** The door of a payment that did not come through the v2 API, beside its order. */
export function doorTag(door: ListedPayment['door'] | undefined): Html | '' {
  return door && door !== 'khalti-v2' ? html` <span class="badge info door">${doorNames[door]}</span>` : '';
}

/**
 * Who paid: the wallet's holder; for a payment through a provider (which names no payer), the
 * customer the merchant named and the way it was paid, as far as either is known.
 */
function payerCell(record: TransactionRecord, paid: PaidThrough | undefined): Html | '' {
  if (record.user.name || record.user.mobile) return html`${record.user.name} <span class="mobile">${record.user.mobile}</span>`;
  if (!paid) return '';
  const customer = paid.customer;
  const named = customer?.name ?? customer?.phone ?? customer?.email;
  const phone = customer?.name ? customer.phone : undefined;
  return html`<span>${named ?? ''}${phone ? html` <span class="mobile">${phone}</span>` : ''}<span class="paid-with">${named ? 'Customer · paid' : 'Paid'} with ${paid.way}</span></span>`;
}

/**
 * `links`: the names of the payment links the records came through, to show each beside its order;
 * `paidThrough`: the payments paid through a provider, for the way (Fonepay QR or its web checkout) and the customer.
 */
export function transactionTable(
  records: TransactionRecord[],
  options: { timeZone: string; statuses: Map<string, ListedPayment>; caption: string; links?: Map<string, string>; paidThrough?: Map<string, PaidThrough> },
): Html {
  if (records.length === 0) return html`<p class="empty-list">No transactions found.</p>`;
  return html`<div class="table-wrap"><table class="records">
<caption class="visually-hidden">${options.caption}</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Order</th><th scope="col">Type</th><th scope="col">Payer</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Fee</th><th scope="col">State</th><th scope="col">Payment status</th></tr></thead>
<tbody>
${records.map((r) => {
  const refund = r.type.name === 'Refund';
  const listed = options.statuses.get(r.pidx);
  const when = formatDateAndTime(new Date(r.created_on), options.timeZone);
  const paid = options.paidThrough?.get(r.pidx);
  // The API's type names the provider; the list tells its ways apart (a QR scanned, or its own page).
  const type = paid && !refund ? `${paid.way} payment` : r.type.name;
  return html`<tr data-idx="${r.idx}" data-pidx="${r.pidx}">
  <td data-label="Date"><span>${when.date}<span class="time">${when.time}</span></span></td>
  <td data-label="Order" class="order"><a href="/dashboard/payments/${encodeURIComponent(r.pidx)}">${r.purchase_order_id}</a>${doorTag(listed?.door)}<span class="pidx">${r.pidx}</span>${
    r.payment_link && options.links?.has(r.payment_link)
      ? html`<span class="via-link" data-testid="via-link">Link: <a href="/dashboard/links/${encodeURIComponent(r.payment_link)}">${options.links.get(r.payment_link)}</a></span>`
      : ''
  }</td>
  <td data-label="Type">${type}</td>
  <td data-label="Payer">${payerCell(r, paid)}</td>
  <td data-label="Amount" class="num${refund ? ' refund' : ''}">${refund ? formatRupees(-r.amount) : formatRupees(r.amount)}</td>
  <td data-label="Fee" class="num">${formatRupees(r.fee_amount)}</td>
  <td data-label="State">${statusBadge(r.state.name)}</td>
  <td data-label="Payment status">${listed ? statusBadge(listed.status) : ''}</td>
</tr>`;
})}
</tbody></table></div>`;
}
