// The console's payer wallets: the list with its search and the create form, and one wallet's page
// with its balance, history (its ledger postings), freeze and top-up forms.
import type { AuditRecord } from '../audit/audit-entry.js';
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { AccountPosting } from '../ledger/ledger-store.js';
import type { Wallet } from '../wallets/wallet.js';
import { csrfField, notice } from './console-layout.js';
import { badge, envTag, facts, notForRole, reasonField, when } from './console-views.js';
import { auditPanel } from './payments-pages.js';

const frozenBadge = (w: Wallet) => (w.frozen_at ? badge('Frozen', 'bad') : w.sandbox ? badge('Sandbox', 'info') : badge('Active', 'ok'));

export interface WalletListView {
  mobile: string;
  environment: string;
  wallets: Wallet[];
  mayCreate: boolean;
  csrf: string;
  timeZone: string;
  error?: string;
}

function createForm(view: WalletListView): Html {
  if (!view.mayCreate) return html`<section class="panel"><h2>New wallet</h2>${notForRole('create wallets')}</section>`;
  return html`<section class="panel" aria-labelledby="create-heading"><h2 id="create-heading">New wallet</h2>
${notice(view.error, 'error')}
<form method="post" action="/console/wallets" class="stack">
  ${csrfField(view.csrf)}
  <label for="w-mobile">Mobile<input id="w-mobile" name="mobile" inputmode="numeric" pattern="9[0-9]{9}" required></label>
  <label for="w-name">Name<input id="w-name" name="name" required maxlength="100"></label>
  <label for="w-mpin">MPIN (4 digits, for the payer)<input id="w-mpin" name="mpin" inputmode="numeric" pattern="[0-9]{4}" required autocomplete="off"></label>
  <label for="w-env">Environment<select id="w-env" name="environment"><option value="live">Live</option><option value="test">Test</option></select></label>
  <button type="submit" class="primary">Create wallet</button>
</form></section>`;
}

export function walletListBody(view: WalletListView): Html {
  return html`<h1>Payer wallets</h1>
<form method="get" action="/console/wallets" class="row panel" role="search">
  <label for="w-q">Mobile (or its first digits)<input id="w-q" name="mobile" type="search" inputmode="numeric" value="${view.mobile}"></label>
  <label for="w-qenv">Environment<select id="w-qenv" name="environment">${[
    ['', 'Both'],
    ['live', 'Live'],
    ['test', 'Test'],
  ].map(([value, label]) => html`<option value="${value}"${value === view.environment ? html` selected` : ''}>${label}</option>`)}</select></label>
  <button type="submit" class="primary">Search</button>
</form>
<div class="panels wide-first">
<section aria-labelledby="wallets-heading"><h2 id="wallets-heading" class="visually-hidden">Wallets</h2>${
    view.wallets.length
      ? html`<div class="table-wrap" role="region" aria-label="Wallets" tabindex="0"><table><caption class="visually-hidden">Wallets</caption>
<thead><tr><th scope="col">Mobile</th><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">State</th><th scope="col" class="hide-narrow">Created</th></tr></thead>
<tbody>${view.wallets.map(
          (w) => html`<tr><td><a href="/console/wallets/${encodeURIComponent(w.idx)}">${w.mobile}</a></td><td>${w.name}</td><td>${envTag(w.environment)}</td><td>${frozenBadge(w)}</td><td class="hide-narrow">${when(w.created_at, view.timeZone)}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="muted">No wallets found.</p>`
  }</section>
${createForm(view)}
</div>`;
}

export interface WalletPageView {
  wallet: Wallet;
  balance: number;
  history: AccountPosting[];
  audit: AuditRecord[];
  mayFreeze: boolean;
  mayManage: boolean;
  csrf: string;
  timeZone: string;
  done?: string;
  error?: string;
}

function freezePanel(view: WalletPageView): Html {
  const w = view.wallet;
  const idx = encodeURIComponent(w.idx);
  if (w.sandbox) return html`<section class="panel"><h2>Freeze</h2><p class="muted">Sandbox wallets are shared by every merchant's tests and are never frozen.</p></section>`;
  if (!view.mayFreeze) return html`<section class="panel"><h2>Freeze</h2>${notForRole('freeze wallets')}</section>`;
  return w.frozen_at
    ? html`<section class="panel" aria-labelledby="freeze-heading"><h2 id="freeze-heading">Unfreeze</h2>
<p>Frozen ${when(w.frozen_at, view.timeZone)}: ${w.frozen_reason}</p>
<form method="post" action="/console/wallets/${idx}/unfreeze" class="stack">${csrfField(view.csrf)}${reasonField('unfreeze-reason')}<button type="submit" class="primary">Unfreeze</button></form></section>`
    : html`<section class="panel" aria-labelledby="freeze-heading"><h2 id="freeze-heading">Freeze</h2>
<p>A frozen wallet cannot pay: the hosted page refuses it at the MPIN and at the OTP step.</p>
<form method="post" action="/console/wallets/${idx}/freeze" class="stack">${csrfField(view.csrf)}${reasonField('freeze-reason')}<button type="submit" class="danger">Freeze wallet</button></form></section>`;
}

function topupPanel(view: WalletPageView): Html | '' {
  if (view.wallet.sandbox) return '';
  if (!view.mayManage) return html`<section class="panel"><h2>Top up</h2>${notForRole('top up wallets')}</section>`;
  return html`<section class="panel" aria-labelledby="topup-heading"><h2 id="topup-heading">Top up</h2>
<form method="post" action="/console/wallets/${encodeURIComponent(view.wallet.idx)}/topup" class="stack">
  ${csrfField(view.csrf)}
  <label for="topup-amount">Amount in paisa (Rs. 1 = 100)<input id="topup-amount" name="amount" inputmode="numeric" pattern="[0-9]+" required></label>
  ${reasonField('topup-reason')}
  <button type="submit" class="primary">Top up</button>
</form></section>`;
}

const kindWords: Record<string, string> = { payment: 'Payment', refund: 'Refund', topup: 'Top-up' };

export function walletPageBody(view: WalletPageView): Html {
  const w = view.wallet;
  return html`<p><a href="/console/wallets">← Wallets</a></p>
<h1>${w.name} <span class="muted">${w.mobile}</span> ${frozenBadge(w)}</h1>
${notice(view.done)}${notice(view.error, 'error')}
<div class="panels">
  <section class="panel" aria-labelledby="balance-heading"><h2 id="balance-heading">Balance</h2>
    <p class="figure" data-testid="balance">${formatRupees(view.balance)}</p>
    ${facts([
      ['Environment', envTag(w.environment)],
      ['Wallet idx', html`<code>${w.idx}</code>`],
      ['Created', when(w.created_at, view.timeZone)],
    ])}
  </section>
  ${freezePanel(view)}
  ${topupPanel(view)}
</div>
<div class="panels">
<section class="panel" aria-labelledby="history-heading"><h2 id="history-heading">History</h2>${
    view.history.length
      ? html`<div class="table-wrap" role="region" aria-label="Ledger postings of this wallet" tabindex="0"><table><caption class="visually-hidden">Ledger postings of this wallet, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${view.history.map(
          (h) => html`<tr><td>${when(h.created_at, view.timeZone)}</td><td>${kindWords[h.kind] ?? h.kind}${h.pidx ? html` <a href="/console/payments/${encodeURIComponent(h.pidx)}"><code>${h.pidx}</code></a>` : ''}</td><td class="num">${h.amount > 0 ? '+' : '−'}${formatRupees(Math.abs(h.amount))}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="muted">No money has moved yet.</p>`
  }</section>
${auditPanel(view.audit, view.timeZone)}
</div>`;
}
