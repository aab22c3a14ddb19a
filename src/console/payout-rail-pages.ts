// The console's payout rail page: each environment's rail (the bank file or NCHL's NPI, without a
// credential), the accounts whose holder NPI could not match to the name given (NPI's score and
// message beside the merchant's name, with the approval form), and the payouts NPI has not decided
// that wait for an operator (their NPI ids and NPI's last word).
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { maskedAccountNumber } from '../merchants/bank-account.js';
import type { AccountCheckRow } from '../settlements/account-check-store.js';
import type { NpiTransferRow } from '../settlements/npi-transfer-store.js';
import type { PayoutRailListing } from '../settlements/payout-rail-setup.js';
import type { PayoutReconciliation } from '../settlements/reconcile-payouts.js';
import { csrfField, notice } from './console-layout.js';
import { envTag, facts, notForRole, reasonField, when } from './console-views.js';

export interface PayoutRailView {
  rails: PayoutRailListing[];
  accounts: (AccountCheckRow & { merchant_name: string })[];
  undecided: (NpiTransferRow & { idx: string })[];
  mayApprove: boolean;
  /** The day asked to reconcile, and what came of it. */
  reconcile: { date: string; environment: string; result?: PayoutReconciliation; error?: string };
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

function railPanel(listing: PayoutRailListing): Html {
  const s = listing.settings;
  const what =
    listing.rail === 'file'
      ? 'The bank file: finance exports the payouts as a bulk-transfer CSV and marks each one (Payouts).'
      : listing.sandbox
        ? 'NCHL’s NPI, the sandbox’s simulator: test payouts are validated and paid by themselves.'
        : 'NCHL’s NPI: accounts are validated, payouts posted in real time or in NCHL-IPS batches, and decided by NPI’s reports.';
  return html`<section class="panel" data-environment="${listing.environment}"><h2>${envTag(listing.environment)} ${listing.rail === 'npi' ? 'NPI' : 'Bank file'}</h2><p>${what}</p>
${listing.rail === 'npi' ? facts([['NPI', s.base_url ?? ''], ['Client', s.client_id ?? ''], ['API user', s.username ?? ''], ['Pays from', `${s.debtor_name ?? ''} · bank ${s.debtor_bank ?? ''}, branch ${s.debtor_branch ?? ''} · ${maskedAccountNumber(s.debtor_account ?? '')}`]]) : ''}
<p class="muted">Changed with <code>bhuktani payout rail set</code> on the server${listing.updatedAt ? html`, last on ${listing.updatedAt.toISOString().slice(0, 10)}` : ''}.</p></section>`;
}

function accountsPanel(view: PayoutRailView): Html {
  return html`<section class="panel" aria-labelledby="accounts-heading"><h2 id="accounts-heading">Accounts waiting for an approval</h2>
<p>NPI could not match the account's holder to the name the merchant gave. Payouts to such an account wait until an operator confirms it (e.g. with the bank's letter); a transfer once made cannot be taken back.</p>
${
  view.accounts.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<div class="table-wrap" role="region" aria-label="Accounts waiting" tabindex="0"><table><caption class="visually-hidden">Accounts waiting for an approval</caption>
<thead><tr><th scope="col">Checked</th><th scope="col">Merchant</th><th scope="col">Name given</th><th scope="col">Account</th><th scope="col" class="num">NPI's match</th><th scope="col">NPI said</th><th scope="col">Approve</th></tr></thead>
<tbody>${view.accounts.map(
        (a) => html`<tr data-check="${a.id}"><td>${when(a.checked_at, view.timeZone)} ${envTag(a.environment)}</td><td>${a.merchant_name}</td><td>${a.account_name}</td><td>bank ${a.bank_code} · ${maskedAccountNumber(a.account_number)}</td><td class="num">${a.score === null ? '—' : `${a.score} of 100`}</td><td>${a.message}</td>
<td>${view.mayApprove ? html`<form method="post" action="/console/payout-rail/accounts/${a.id}/approve">${csrfField(view.csrf)}${reasonField(`reason-${a.id}`, { label: 'Why it may be paid' })}<button type="submit">Approve</button></form>` : notForRole('approve accounts')}</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}

function undecidedPanel(view: PayoutRailView): Html {
  return html`<section class="panel" aria-labelledby="undecided-heading"><h2 id="undecided-heading">Payouts NPI has not decided</h2>
<p>Asked of NPI's reports again and again without a final word, or a debit NPI says to confirm with the bank. They stay Processing and are asked still; confirm each with the bank, then mark it on its page.</p>
${
  view.undecided.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<div class="table-wrap" role="region" aria-label="Undecided payouts" tabindex="0"><table><caption class="visually-hidden">Payouts NPI has not decided</caption>
<thead><tr><th scope="col">Since</th><th scope="col">Payout</th><th scope="col" class="num">Amount</th><th scope="col">NPI ids (batch / instruction)</th><th scope="col">NPI's last word</th><th scope="col" class="num">Posts, asks</th></tr></thead>
<tbody>${view.undecided.map(
        (t) => html`<tr data-idx="${t.idx}"><td>${when(t.created_at, view.timeZone)} ${envTag(t.environment)}</td><td><a href="/console/payouts/${encodeURIComponent(t.idx)}"><code>${t.idx}</code></a></td><td class="num">${formatRupees(t.amount)}</td><td><code>${t.rail === 'cips' ? 'connectIPS' : 'NCHL-IPS'} ${t.batch_id} / ${t.instruction_id}</code></td><td>${t.detail ?? '—'}</td><td class="num">${t.posts}, ${t.checks}</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}

function reconcilePanel(view: PayoutRailView): Html {
  const { date, environment, result, error } = view.reconcile;
  return html`<section class="panel" aria-labelledby="reconcile-heading"><h2 id="reconcile-heading">Reconcile a day with NPI's books</h2>
<form method="get" action="/console/payout-rail#reconcile-heading" class="filters">
<label for="reconcile-date">Day (Nepal's)<input id="reconcile-date" name="date" type="date" value="${date}" required></label>
<label for="reconcile-env">Environment<select id="reconcile-env" name="env">${['live', 'test'].map((e) => html`<option value="${e}"${e === environment ? html` selected` : ''}>${e}</option>`)}</select></label>
<button type="submit">Reconcile</button></form>
${error ? html`<p class="field-error">${error}</p>` : ''}
${
  result
    ? html`<p data-testid="reconcile-summary">${result.date} (${result.environment}): NPI lists ${result.npiEntries}, Bhuktani posted ${result.transfers}, ${result.matched} matched, <strong>${result.differences.length}</strong> ${result.differences.length === 1 ? 'difference' : 'differences'}.</p>
${
  result.differences.length
    ? html`<div class="table-wrap" role="region" aria-label="Differences" tabindex="0"><table><caption class="visually-hidden">Differences with NPI's books</caption>
<thead><tr><th scope="col">Instruction</th><th scope="col">Difference</th><th scope="col">Bhuktani</th><th scope="col">NPI</th></tr></thead>
<tbody>${result.differences.map(
          (d) => html`<tr data-instruction="${d.instructionId}"><td><code>${d.instructionId}</code></td><td>${d.problem}</td><td>${d.bhuktani ? html`<a href="/console/payouts/${encodeURIComponent(d.bhuktani.idx)}">${d.bhuktani.state}</a> ${formatRupees(d.bhuktani.amount)}` : '—'}</td><td>${d.npi ? `${d.npi.status} ${formatRupees(d.npi.amount)} (${d.npi.detail})` : '—'}</td></tr>`,
        )}</tbody></table></div>`
    : ''
}`
    : ''
}</section>`;
}

export function payoutRailBody(view: PayoutRailView): Html {
  return html`<h1>Payout rail</h1>
${notice(view.done)}${notice(view.error, 'error')}
<div class="panels">${view.rails.map(railPanel)}</div>
${accountsPanel(view)}
${undecidedPanel(view)}
${reconcilePanel(view)}`;
}
