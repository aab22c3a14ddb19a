// The console's payouts: live payouts by state with the export for the bank, and one payout's page
// with its bank account, its audit trail and the forms that mark it Paid (with the bank's reference)
// or Failed (with a reason).
import type { AuditRecord } from '../audit/audit-entry.js';
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { maskedAccountNumber } from '../merchants/bank-account.js';
import type { NpiTransferRow } from '../settlements/npi-transfer-store.js';
import type { OperatorPayout } from '../settlements/operator-payouts-store.js';
import { payoutStates, type PayoutState } from '../settlements/payout.js';
import { payoutAccountLine } from '../settlements/payout-account.js';
import { csrfField, notice } from './console-layout.js';
import { badge, envTag, facts, notForRole, reasonField, when } from './console-views.js';
import { auditPanel } from './payments-pages.js';

const tones: Record<PayoutState, 'ok' | 'bad' | 'warn' | 'info'> = { Requested: 'info', Processing: 'warn', Paid: 'ok', Failed: 'bad' };
export const payoutStateBadge = (state: PayoutState) => badge(state, tones[state]);

export interface PayoutListView {
  state: PayoutState;
  payouts: OperatorPayout[];
  /** The live Requested payouts the next export takes. */
  waiting: { count: number; amount: number };
  mayProcess: boolean;
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

function exportPanel(view: PayoutListView): Html {
  const { count, amount } = view.waiting;
  return html`<section class="panel" aria-labelledby="export-heading"><h2 id="export-heading">Export for the bank</h2>
<p>${count === 0 ? 'No live payouts are waiting.' : html`<strong>${count}</strong> live ${count === 1 ? 'payout' : 'payouts'} waiting, ${formatRupees(amount)} in all.`}
The bulk-transfer CSV (bank, branch, account name, account number, amount, reference) moves them to Processing: each payout is exported once.</p>
${
  !view.mayProcess
    ? notForRole('export payouts')
    : count > 0
      ? html`<form method="post" action="/console/payouts/export">${csrfField(view.csrf)}<button type="submit" class="primary">Export ${count} to CSV</button></form>`
      : ''
}</section>`;
}

export function payoutListBody(view: PayoutListView): Html {
  return html`<h1>Payouts</h1>
${notice(view.done)}${notice(view.error, 'error')}
<p><a href="/console/payout-rail">Payout rail</a>: how payouts leave, accounts NPI could not match, payouts NPI has not decided.</p>
${exportPanel(view)}
<nav class="filters" aria-label="By state">${payoutStates.map(
    (state) => html`<a href="/console/payouts?state=${state}"${state === view.state ? html` aria-current="page"` : ''}>${state}</a>`,
  )}</nav>
<section aria-labelledby="list-heading"><h2 id="list-heading">${view.state} live payouts</h2>
${
  view.state === 'Processing' && view.mayProcess && view.payouts.length
    ? html`<p><a class="button" href="/console/payouts/processing.csv" download>Download the bank file again</a> <span class="muted">All Processing payouts, for an export whose file was lost. They are sent already: do not send them twice.</span></p>`
    : ''
}
${
  view.payouts.length
    ? html`<div class="table-wrap" role="region" aria-label="${view.state} payouts" tabindex="0"><table><caption class="visually-hidden">${view.state} payouts</caption>
<thead><tr><th scope="col">Requested</th><th scope="col">Payout</th><th scope="col">Merchant</th><th scope="col" class="hide-narrow">Bank account</th><th scope="col" class="num">Amount</th><th scope="col">State</th></tr></thead>
<tbody>${view.payouts.map(
        (p) => html`<tr data-idx="${p.idx}"><td>${when(p.requested_at, view.timeZone)}</td><td><a href="/console/payouts/${encodeURIComponent(p.idx)}"><code>${p.idx}</code></a></td><td><a href="/console/merchants/${encodeURIComponent(p.merchant_idx)}">${p.merchant_name}</a></td><td class="hide-narrow">${payoutAccountLine(p)}</td><td class="num">${formatRupees(p.amount)}</td><td>${payoutStateBadge(p.state)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No ${view.state.toLowerCase()} live payouts.</p>`
}</section>`;
}

export interface PayoutPageView {
  payout: OperatorPayout;
  /** How NPI moves it, when the payout goes through NPI. */
  transfer?: NpiTransferRow;
  audit: AuditRecord[];
  mayProcess: boolean;
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

function markForms(view: PayoutPageView): Html | '' {
  const { payout: p } = view;
  if (p.state === 'Paid' || p.state === 'Failed') return '';
  if (p.environment === 'test') return html`<section class="panel"><h2>Processing</h2><p class="muted">Test payouts are paid by the sandbox (NPI’s simulator) by themselves.</p></section>`;
  if (!view.mayProcess) return html`<section class="panel"><h2>Processing</h2>${notForRole('mark payouts')}</section>`;
  const idx = encodeURIComponent(p.idx);
  return html`<section class="panel" aria-labelledby="mark-heading"><h2 id="mark-heading">Mark this payout</h2>
${
  p.state === 'Processing'
    ? html`<form method="post" action="/console/payouts/${idx}/paid" class="stack">
  ${csrfField(view.csrf)}
  <label for="paid-reference">Bank's reference<input id="paid-reference" name="reference" type="text" maxlength="100" required autocomplete="off"></label>
  <button type="submit" class="primary">Mark Paid</button>
</form>`
    : html`<p class="muted">Export it for the bank first; once sent it can be marked Paid.</p>`
}
<form method="post" action="/console/payouts/${idx}/failed" class="stack">
  ${csrfField(view.csrf)}
  ${reasonField('failed-reason', { label: 'Why it failed (the merchant sees this)' })}
  <button type="submit" class="danger">Mark Failed</button>
</form>
<p class="muted">Failed returns ${formatRupees(p.amount)} to the merchant's available balance.</p></section>`;
}

/** NPI's side of a payout: its ids, NPI's last word, and whether it waits for an operator. */
function transferPanel(t: NpiTransferRow): Html {
  return html`<section class="panel" aria-labelledby="npi-heading"><h2 id="npi-heading">Through NPI</h2>${facts([
    ['Rail', t.rail === 'cips' ? 'connectIPS (real time)' : 'NCHL-IPS (batch)'],
    ['Batch / instruction', html`<code>${t.batch_id}</code> / <code>${t.instruction_id}</code>`],
    ['To', `bank ${t.creditor_agent}, branch ${t.creditor_branch} · ${t.creditor_name} · ${maskedAccountNumber(t.creditor_account)}`],
    ['NPI', html`${t.status}${t.nchl_reference ? html` · <code>${t.nchl_reference}</code>` : ''}`],
    ['Last word', t.detail ?? '—'],
    ['Posted, asked', `${t.posts}, ${t.checks}`],
  ])}${t.needs_operator && (t.status === 'sent' || t.status === 'unsent') ? html`<p class="field-error">NPI's reports could not decide it: confirm with the bank, then mark it below.</p>` : ''}</section>`;
}

export function payoutPageBody(view: PayoutPageView): Html {
  const p = view.payout;
  return html`<p><a href="/console/payouts?state=${p.state}">← Payouts</a></p>
<h1>Payout ${formatRupees(p.amount)} ${payoutStateBadge(p.state)}</h1>
${notice(view.done)}${notice(view.error, 'error')}
<div class="panels">
  <section class="panel" aria-labelledby="facts-heading"><h2 id="facts-heading">Payout</h2>${facts([
    ['Payout', html`<code>${p.idx}</code>`],
    ['Merchant', html`<a href="/console/merchants/${encodeURIComponent(p.merchant_idx)}">${p.merchant_name}</a>`],
    ['Environment', envTag(p.environment)],
    ['Amount', formatRupees(p.amount)],
    ['Bank account', payoutAccountLine(p)],
    ['Requested', html`${when(p.requested_at, view.timeZone)} by ${p.requested_by}`],
    ...(p.processing_at ? [['Exported', when(p.processing_at, view.timeZone)] as [string, Html]] : []),
    ...(p.paid_at ? [['Paid', html`${when(p.paid_at, view.timeZone)}, reference <code>${p.bank_reference}</code>`] as [string, Html]] : []),
    ...(p.failed_at ? [['Failed', html`${when(p.failed_at, view.timeZone)}: ${p.failure_reason}`] as [string, Html]] : []),
    ...(p.waiting_reason ? [['Waiting', p.waiting_reason] as [string, Html | string]] : []),
  ])}</section>
  ${view.transfer ? transferPanel(view.transfer) : ''}
  ${markForms(view)}
</div>
${auditPanel(view.audit, view.timeZone)}`;
}
