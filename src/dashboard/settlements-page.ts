// The Settlements page: the balance pending and available, the bank account payouts go to, the form
// to request a payout, the automatic schedule, and the payouts with their states, in the
// environment the session shows.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { bankAccountLine, type BankAccount } from '../merchants/bank-account.js';
import type { ApprovalStatus } from '../merchants/merchant.js';
import type { Payout } from '../settlements/payout.js';
import { describeSchedule, weekdays, type PayoutSchedule } from '../settlements/payout-schedule.js';
import { alertBox, csrfField, selectInput, textInput } from './form-controls.js';
import { formatDateAndTime, rupeesDecimal } from './format.js';
import { figure } from './home-page.js';
import { dashboardLayout, type PageFrame } from './layout.js';
import { payoutBadge } from './payout-views.js';

export interface SettlementsView {
  balance: { pending: number; available: number; clearing: number };
  holdHours: number;
  bankAccount?: BankAccount;
  /** The latest payouts, at most `listed`. */
  payouts: Payout[];
  listed: number;
  schedule?: PayoutSchedule;
  /** The session's role may request payouts and change the schedule. */
  mayRequest: boolean;
  /** After a refused post: what was typed, each field's message, and the page's message. */
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
  done?: string;
}

/** Where the account is set: the application while new, the Business page's own form once approved. */
function bankLink(status: ApprovalStatus, bank: BankAccount | undefined): Html {
  if (status === 'new') return html`<a href="/dashboard/business">Add it on Go live</a>`;
  if (status === 'approved') return html`<a href="/dashboard/business#bank-account">${bank ? 'Change it' : 'Add it'}</a>`;
  return html`<a href="/dashboard/business">Your business details</a>`;
}

function bankPanel(frame: PageFrame, bank: BankAccount | undefined): Html {
  const live = frame.session.environment === 'live';
  const where = bank
    ? html`<p data-testid="bank-account">${bankAccountLine(bank)}</p>`
    : html`<p data-testid="bank-account">No bank account yet.</p>`;
  return html`<section class="panel" aria-labelledby="bank-heading">
  <div class="panel-head"><h2 id="bank-heading">Bank account</h2>${bankLink(frame.session.merchant.status, bank)}</div>
  ${where}
  <p class="hint">${live ? 'Live payouts are sent by our finance team to this account, usually on the next working day.' : 'Test payouts go through NPI’s sandbox (NCHL’s payment interface, simulated), which validates the account and pays by itself within seconds. No real money moves.'}</p>
</section>`;
}

function requestForm(frame: PageFrame, view: SettlementsView): Html {
  if (!view.mayRequest) return html`<section class="panel" aria-labelledby="request-heading"><h2 id="request-heading">Request a payout</h2><p class="hint">Your role may not request payouts. Ask your account's owner, an admin or finance.</p></section>`;
  const v = view.values ?? {};
  const e = view.errors ?? {};
  const whole = (v.payout ?? 'all') === 'all';
  return html`<section class="panel" aria-labelledby="request-heading">
  <h2 id="request-heading">Request a payout</h2>
  <form method="post" action="/dashboard/settlements/payouts" class="stack" novalidate>
    ${csrfField(frame.csrf)}
    <fieldset class="choices">
      <legend>How much</legend>
      <label><input type="radio" name="payout" value="all"${whole ? html` checked` : ''}> All that is available (${formatRupees(view.balance.available)})</label>
      <label><input type="radio" name="payout" value="amount"${whole ? '' : html` checked`}> An amount</label>
    </fieldset>
    ${textInput({ name: 'amount', label: 'Amount in rupees', value: v.amount ?? '', error: e.amount, hint: 'For example 5000 or 5,000.50; at most what is available.', autocomplete: 'off', attributes: html` inputmode="decimal"` })}
    <div class="actions"><button type="submit" class="primary">Request payout</button></div>
  </form>
</section>`;
}

function scheduleForm(frame: PageFrame, view: SettlementsView): Html {
  const s = view.schedule;
  const current = s
    ? `${describeSchedule(s)}, ${s.minimumAmount > 0 ? `when at least ${formatRupees(s.minimumAmount)} is available` : 'whatever is available'}.`
    : 'Off: payouts are made only when you request them.';
  const v = view.values ?? {};
  const e = view.errors ?? {};
  const frequency = v.frequency ?? (s ? s.frequency : 'none');
  const weekday = v.weekday ?? String(s?.weekday ?? 5);
  const minimum = v.minimum_amount ?? (s ? rupeesDecimal(s.minimumAmount) : '0');
  return html`<section class="panel" aria-labelledby="schedule-heading">
  <h2 id="schedule-heading">Automatic payouts</h2>
  <p data-testid="schedule">${current}</p>
  ${
    view.mayRequest
      ? html`<form method="post" action="/dashboard/settlements/schedule" class="form-grid" novalidate>
    ${csrfField(frame.csrf)}
    ${selectInput({ name: 'frequency', label: 'Pay out', value: frequency, options: [['none', 'Only when I request it'], ['daily', 'Daily'], ['weekly', 'Weekly']], error: e.frequency })}
    ${selectInput({ name: 'weekday', label: 'Day of the week (weekly)', value: weekday, options: weekdays.map((day, i): [string, string] => [String(i), day]), error: e.weekday })}
    ${textInput({ name: 'minimum_amount', label: 'Minimum in rupees', value: minimum, error: e.minimum_amount, hint: 'No payout while less is available; 0 for any amount.', autocomplete: 'off', attributes: html` inputmode="decimal"` })}
    <div class="actions"><button type="submit" class="button">Save schedule</button></div>
  </form>
  <p class="hint">Days are counted in ${frame.timeZone}. A scheduled payout takes all that is available, at most once a period.</p>`
      : ''
  }
</section>`;
}

function payoutTable(payouts: Payout[], timeZone: string): Html {
  if (!payouts.length) return html`<p class="empty-list">No payouts yet.</p>`;
  return html`<div class="table-wrap"><table class="records">
<caption class="visually-hidden">Payouts</caption>
<thead><tr><th scope="col">Requested</th><th scope="col">Payout</th><th scope="col" class="num">Amount</th><th scope="col">State</th><th scope="col">Bank reference</th></tr></thead>
<tbody>
${payouts.map((p) => {
  const when = formatDateAndTime(p.requested_at, timeZone);
  return html`<tr data-idx="${p.idx}" data-state="${p.state}">
  <td data-label="Requested"><span>${when.date}<span class="time">${when.time}</span></span></td>
  <td data-label="Payout" class="order"><a href="/dashboard/settlements/${encodeURIComponent(p.idx)}">Statement</a><span class="pidx">${p.idx}</span></td>
  <td data-label="Amount" class="num">${formatRupees(p.amount)}</td>
  <td data-label="State">${payoutBadge(p.state)}</td>
  <td data-label="Bank reference">${
    p.bank_reference ??
    (p.failure_reason
      ? html`<span class="field-error">${p.failure_reason}</span>`
      : p.waiting_reason
        ? html`<span class="hint" data-testid="waiting-reason">Waiting: ${p.waiting_reason}</span>`
        : html`<span class="mobile">—</span>`)
  }</td>
</tr>`;
})}
</tbody></table></div>`;
}

export function settlementsPage(frame: PageFrame, view: SettlementsView): Html {
  const env = frame.session.environment === 'live' ? 'Live' : 'Test';
  const { balance } = view;
  return dashboardLayout({
    ...frame,
    title: 'Settlements',
    body: html`<h1 class="page-title">Settlements</h1>
${alertBox(view.message)}${alertBox(view.done, 'success')}
<section class="figures" aria-label="Balance">
  ${figure('Available', balance.available, `${env} balance you can pay out now`, 'available')}
  ${figure('Pending', balance.pending, view.holdHours > 0 ? `Payments of the last ${view.holdHours} hours, after fees` : 'No hold: payments are available at once', 'pending')}
  ${figure('On the way', balance.clearing, 'Requested payouts not yet paid', 'clearing')}
</section>
${requestForm(frame, view)}
${bankPanel(frame, view.bankAccount)}
${scheduleForm(frame, view)}
<section class="panel" aria-labelledby="payouts-heading">
  <h2 id="payouts-heading">Payouts</h2>
  ${payoutTable(view.payouts, frame.timeZone)}
  ${view.payouts.length >= view.listed ? html`<p class="hint">The latest ${view.listed} payouts; the API's <code>GET /api/v2/settlements/</code> lists them all.</p>` : ''}
</section>`,
  });
}
