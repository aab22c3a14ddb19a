// The console's merchants: the list (status filter, applied first for the approval queue, search)
// and one merchant's page: business details, bank account (masked), users, keys (prefixes only),
// fee, balance per environment, recent payments, and the decisions (approve, reject, suspend,
// reactivate, fee).
import type { AuditRecord } from '../audit/audit-entry.js';
import type { Environment } from '../environment.js';
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { approvalMoves, type ApprovalMove } from '../merchants/approval-state-machine.js';
import { maskedAccountNumber, type BankAccount } from '../merchants/bank-account.js';
import type { BusinessDetails } from '../merchants/business-details.js';
import type { SecretKeySummary } from '../merchants/list-secret-keys.js';
import { approvalStatuses, type ApprovalStatus, type Merchant } from '../merchants/merchant.js';
import type { MerchantListRow } from '../merchants/merchant-search.js';
import type { RecentRecord } from '../transactions/transaction-store.js';
import { csrfField, notice } from './console-layout.js';
import { badge, envTag, facts, notForRole, reasonField, when } from './console-views.js';
import { auditPanel } from './payments-pages.js';

const statusTones: Record<ApprovalStatus, 'ok' | 'bad' | 'warn' | 'info'> = { new: 'info', applied: 'warn', approved: 'ok', rejected: 'bad', suspended: 'bad' };
export const approvalBadge = (status: ApprovalStatus) => badge(status, statusTones[status]);

export interface MerchantListView {
  term: string;
  status: string;
  merchants: MerchantListRow[];
  timeZone: string;
}

export function merchantListBody(view: MerchantListView): Html {
  const filters: [string, string][] = [['', 'All'], ...approvalStatuses.map((s): [string, string] => [s, s[0].toUpperCase() + s.slice(1)])];
  return html`<h1>Merchants</h1>
<nav class="filters" aria-label="By status">${filters.map(
    ([value, label]) => html`<a href="/console/merchants${value ? `?status=${value}` : ''}"${value === view.status ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>
<form method="get" action="/console/merchants" class="row panel" role="search">
  ${view.status ? html`<input type="hidden" name="status" value="${view.status}">` : ''}
  <label for="m-q">Name, e-mail or idx<input id="m-q" name="q" type="search" value="${view.term}"></label>
  <button type="submit" class="primary">Search</button>
</form>
${view.status === 'applied' ? html`<p class="muted">The approval queue: oldest application first.</p>` : ''}
${
  view.merchants.length
    ? html`<div class="table-wrap" role="region" aria-label="Merchants" tabindex="0"><table><caption class="visually-hidden">Merchants</caption>
<thead><tr><th scope="col">Merchant</th><th scope="col" class="hide-narrow">E-mail</th><th scope="col">Status</th><th scope="col" class="num">Fee</th><th scope="col" class="hide-narrow">${view.status === 'applied' ? 'Applied' : 'Signed up'}</th></tr></thead>
<tbody>${view.merchants.map(
        (m) => html`<tr><td><a href="/console/merchants/${encodeURIComponent(m.idx)}">${m.name}</a></td><td class="hide-narrow">${m.email}</td><td>${approvalBadge(m.status)}</td><td class="num">${feeText(m.fee_bps)}</td><td class="hide-narrow">${when(view.status === 'applied' && m.applied_at ? m.applied_at : m.created_at, view.timeZone)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No merchants found.</p>`
}`;
}

const feeText = (bps: number) => `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

export interface MerchantPageView {
  merchant: Merchant;
  business?: BusinessDetails;
  bank?: BankAccount;
  keys: SecretKeySummary[];
  balances: Record<Environment, number>;
  recent: Record<Environment, RecentRecord[]>;
  audit: AuditRecord[];
  mayDecide: boolean;
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

const moveWords: Record<Exclude<ApprovalMove, 'apply'>, { button: string; reason: boolean; tone: string }> = {
  approve: { button: 'Approve', reason: false, tone: 'primary' },
  reject: { button: 'Reject', reason: true, tone: 'danger' },
  suspend: { button: 'Suspend', reason: true, tone: 'danger' },
  reactivate: { button: 'Reactivate', reason: false, tone: 'primary' },
};

function decisionPanel(view: MerchantPageView): Html {
  if (!view.mayDecide) return html`<section class="panel"><h2>Decisions</h2>${notForRole('approve, suspend or change the fee of merchants')}</section>`;
  const idx = encodeURIComponent(view.merchant.idx);
  const moves = (Object.keys(moveWords) as (keyof typeof moveWords)[]).filter((m) => approvalMoves[m].from.includes(view.merchant.status));
  return html`<section class="panel" aria-labelledby="decide-heading"><h2 id="decide-heading">Decisions</h2>
${moves.map(
  (move) => html`<form method="post" action="/console/merchants/${idx}/${move}" class="stack decision">
  ${csrfField(view.csrf)}
  ${reasonField(`${move}-reason`, { required: moveWords[move].reason, label: moveWords[move].reason ? 'Reason (shown to the merchant)' : 'Reason' })}
  <button type="submit" class="${moveWords[move].tone}">${moveWords[move].button}</button>
</form>`,
)}
${moves.length ? '' : html`<p class="muted">No decision is open while the merchant is ${view.merchant.status}.</p>`}
<form method="post" action="/console/merchants/${idx}/fee" class="stack decision">
  ${csrfField(view.csrf)}
  <label for="fee-bps">Fee in basis points (100 = 1%); applies to new payments<input id="fee-bps" name="fee_bps" inputmode="numeric" pattern="[0-9]+" value="${view.merchant.fee_bps}" required></label>
  ${reasonField('fee-reason', { required: false })}
  <button type="submit">Change fee</button>
</form></section>`;
}

function recentTable(records: RecentRecord[], timeZone: string): Html {
  if (!records.length) return html`<p class="muted">None.</p>`;
  return html`<div class="table-wrap" role="region" aria-label="Recent transactions" tabindex="0"><table><caption class="visually-hidden">Recent transactions</caption>
<thead><tr><th scope="col">When</th><th scope="col">Order</th><th scope="col">Type</th><th scope="col" class="num">Amount</th><th scope="col">State</th></tr></thead>
<tbody>${records.map(
    (r) => html`<tr><td>${when(r.created_at, timeZone)}</td><td><a href="/console/payments/${encodeURIComponent(r.pidx)}"><code>${r.purchase_order_id}</code></a></td><td>${r.type}</td><td class="num">${formatRupees(r.amount)}</td><td>${r.state}</td></tr>`,
  )}</tbody></table></div>`;
}

export function merchantPageBody(view: MerchantPageView): Html {
  const m = view.merchant;
  const b = view.business;
  return html`<p><a href="/console/merchants">← Merchants</a></p>
<h1>${m.name} ${approvalBadge(m.status)}</h1>
${notice(view.done)}${notice(view.error, 'error')}
${m.status_reason ? html`<p class="muted">Last decision's reason: ${m.status_reason}</p>` : ''}
<div class="panels">
  <section class="panel" aria-labelledby="account-heading"><h2 id="account-heading">Account</h2>${facts([
    ['Merchant idx', html`<code>${m.idx}</code>`],
    ['Fee', html`<span data-testid="fee">${feeText(m.fee_bps)}</span> (${m.fee_bps} bps)`],
    ['Signed up', when(m.created_at, view.timeZone)],
    ['Users', m.email],
    ['Balance, live', html`<span data-testid="balance-live">${formatRupees(view.balances.live)}</span>`],
    ['Balance, test', formatRupees(view.balances.test)],
  ])}</section>
  ${decisionPanel(view)}
</div>
<div class="panels">
  <section class="panel" aria-labelledby="business-heading"><h2 id="business-heading">Business details</h2>${
    b
      ? facts([
          ['Legal name', b.legalName],
          ['Type', b.businessType],
          ['PAN/VAT', b.panNumber],
          ['Address', b.address],
          ['Contact person', b.contactPerson],
          ['Phone', b.phone],
          ['Website', b.website || html`<span class="muted">none</span>`],
          ['Updated', when(b.updatedAt, view.timeZone)],
        ])
      : html`<p class="muted">Not given yet.</p>`
  }</section>
  <section class="panel" aria-labelledby="bank-heading"><h2 id="bank-heading">Settlement bank account</h2>${
    view.bank
      ? facts([
          ['Bank', view.bank.bankName],
          ['Branch', view.bank.branch],
          ['Account name', view.bank.accountName],
          ['Account number', maskedAccountNumber(view.bank.accountNumber)],
        ])
      : html`<p class="muted">Not given yet.</p>`
  }</section>
  <section class="panel" aria-labelledby="keys-heading"><h2 id="keys-heading">Secret keys</h2>${
    view.keys.length
      ? html`<ul class="plain">${view.keys.map((k) => html`<li>${envTag(k.environment)} <code>${k.prefix}</code> ${k.status.name}${k.lastUsedAt ? html`, last used ${when(k.lastUsedAt, view.timeZone)}` : ''}</li>`)}</ul>`
      : html`<p class="muted">None.</p>`
  }</section>
</div>
<section aria-labelledby="recent-live"><h2 id="recent-live">Recent live transactions</h2>${recentTable(view.recent.live, view.timeZone)}</section>
<section aria-labelledby="recent-test"><h2 id="recent-test">Recent test transactions</h2>${recentTable(view.recent.test, view.timeZone)}</section>
${auditPanel(view.audit, view.timeZone)}`;
}
