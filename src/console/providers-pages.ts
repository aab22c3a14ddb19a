// The console's Providers page: each provider's set-up and health per environment (attempts,
// success rate, latency, open unknowns, money), the attempts handed to the operators, the refunds to
// make at providers by hand, and the last settlement-report check. A card per provider and
// environment, so every figure and the Enable/Disable button show at any width.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { ProviderFigures, EscalatedAttempt } from '../provider-payments/provider-figures.js';
import { descriptorOf, providerLabel, providerNames } from '../providers/registry.js';
import type { QueuedRefund } from '../provider-payments/provider-refund-store.js';
import type { ProviderListing } from '../providers/provider-setup.js';
import type { ReconciliationRun } from '../provider-payments/settlement-report.js';
import { csrfField, notice } from './console-layout.js';
import { badge, envTag, notForRole, reasonField, when } from './console-views.js';

export interface ProvidersView {
  listings: ProviderListing[];
  figures: ProviderFigures[];
  escalated: EscalatedAttempt[];
  refunds: QueuedRefund[];
  reconciliations: ReconciliationRun[];
  mayManage: boolean;
  mayResolve: boolean;
  mayMarkRefunds: boolean;
  csrf: string;
  timeZone: string;
  now: Date;
  done?: string;
  error?: string;
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '—');

/** What a set-up's settings say (never its credentials), by the field labels an operator reads. */
function settingsList(listing: ProviderListing): Html {
  const fields = descriptorOf(listing.name).setup.filter((f) => !f.secret);
  return html`${listing.sandbox ? html`<p class="muted">The sandbox simulator: nothing to set up.</p>` : ''}<dl class="pairs settings">${fields.map((f) => html`<dt>${f.label}</dt><dd><code>${listing.settings[f.name] ?? '—'}</code></dd>`)}</dl>`;
}

function healthCards(view: ProvidersView): Html {
  return html`<div class="provider-cards">${view.figures.map((f) => {
    const listing = view.listings.find((l) => l.name === f.name && l.environment === f.environment);
    const cooling = f.coolingUntil && f.coolingUntil > view.now;
    const state = !listing ? badge('not set up', 'info') : !listing.enabled ? badge('disabled', 'bad') : cooling ? badge('cooling down', 'warn') : badge('offered', 'ok');
    const toggle =
      listing && view.mayManage
        ? html`<form method="post" action="/console/providers/${f.name}/${f.environment}/${listing.enabled ? 'disable' : 'enable'}" class="inline">${csrfField(view.csrf)}<button type="submit">${listing.enabled ? 'Disable' : 'Enable'}</button></form>`
        : '';
    return html`<article class="panel provider-card" data-provider="${f.name}" data-environment="${f.environment}" aria-labelledby="provider-${f.name}-${f.environment}">
<h2 id="provider-${f.name}-${f.environment}">${providerLabel(f.name)} ${envTag(f.environment)}</h2>
<p class="state">${state}${cooling ? html` <span class="muted">until ${when(f.coolingUntil!, view.timeZone)}</span>` : ''} ${toggle}</p>
<dl class="pairs figures">
<dt>Attempts</dt><dd data-figure="attempts">${f.attempts}</dd>
<dt>Success rate</dt><dd data-figure="success-rate" title="${f.paid} paid of ${f.paid + f.failed} decided">${percent(f.paid, f.paid + f.failed)}</dd>
<dt>Latency</dt><dd data-figure="latency" title="${f.calls} calls, ${f.failedCalls} failed">${f.averageMs === undefined ? '—' : `${f.averageMs} ms`}</dd>
<dt>Open unknowns</dt><dd data-figure="open-unknowns">${f.openUnknowns}</dd>
<dt>Receivable</dt><dd data-figure="receivable">${formatRupees(f.receivable)}</dd>
<dt>Fees</dt><dd data-figure="fees">${formatRupees(f.fees)}</dd>
<dt>Refunds due</dt><dd data-figure="refunds-due">${formatRupees(f.refundsDue)}</dd>
</dl>
${listing ? settingsList(listing) : html`<p class="muted">Not set up.</p>`}
</article>`;
  })}</div>`;
}

function escalatedPanel(view: ProvidersView): Html {
  return html`<section aria-labelledby="escalated-heading"><h2 id="escalated-heading">Attempts to decide</h2>
<p class="muted">The providers could not tell whether these were paid (PROVIDER_RECONCILE_LIMIT questions asked). Look at the provider's own portal, then decide.</p>
${
  view.escalated.length === 0
    ? html`<p class="muted">None.</p>`
    : view.escalated.map(
        (a) => html`<article class="panel" data-attempt="${a.idx}"><h3>${providerLabel(a.provider)} ${envTag(a.environment)} · ${formatRupees(a.amount)} · <a href="/console/payments/${a.pidx}">${a.merchant_name}, order ${a.purchase_order_id}</a></h3>
<p>Attempt <code>${a.idx}</code>, started ${when(a.created_at, view.timeZone)}; payment ${a.payment_status}; asked ${a.checks} times, last: ${a.last_answer ?? '—'}</p>
${
  view.mayResolve
    ? html`<form method="post" action="/console/providers/attempts/${a.idx}/resolve">${csrfField(view.csrf)}
<fieldset><legend>Decision</legend>
<label><input type="radio" name="decision" value="paid" required> Paid at ${providerLabel(a.provider)}</label>
<label><input type="radio" name="decision" value="not_paid"> Not paid</label>
<label><input type="radio" name="decision" value="ask_again"> Ask the provider again</label></fieldset>
${reasonField(`reason-${a.idx}`)}<button type="submit" class="primary">Decide</button></form>`
    : notForRole('decide provider attempts')
}</article>`,
      )
}</section>`;
}

function refundsPanel(view: ProvidersView): Html {
  return html`<section aria-labelledby="refunds-heading"><h2 id="refunds-heading">Refunds to make at providers</h2>
<p class="muted">These providers have no refund API (or refused it): refund the amount in the provider's merchant portal, then mark it with the provider's reference.</p>
${
  view.refunds.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<div class="table-wrap" role="region" aria-label="Refunds to make" tabindex="0"><table>
<thead><tr><th scope="col">Queued</th><th scope="col">Provider</th><th scope="col">Payment</th><th scope="col">Why</th><th scope="col">Provider's id</th><th scope="col" class="num">Amount</th><th scope="col">Mark refunded</th></tr></thead>
<tbody>${view.refunds.map(
        (r) => html`<tr data-refund="${r.idx}"><td>${when(r.created_at, view.timeZone)}</td><td>${providerLabel(r.provider)} ${envTag(r.environment)}</td>
<td><a href="/console/payments/${r.pidx}">${r.merchant_name}, ${r.purchase_order_id}</a></td><td>${r.reason === 'surplus' ? 'paid twice' : 'merchant refund'}${r.last_answer ? html`<br><span class="muted">${r.last_answer}</span>` : ''}</td>
<td><code>${r.provider_transaction_id ?? '—'}</code></td><td class="num">${formatRupees(r.amount)}</td>
<td>${
          view.mayMarkRefunds
            ? html`<form method="post" action="/console/providers/refunds/${r.idx}/refunded" class="inline">${csrfField(view.csrf)}<label>Reference <input name="reference" type="text" maxlength="100" required></label><button type="submit">Refunded</button></form>`
            : notForRole('mark refunds')
        }</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}

function reconciliationsPanel(view: ProvidersView): Html {
  return html`<section aria-labelledby="reconciliation-heading"><h2 id="reconciliation-heading">Settlement reports</h2>
<p class="muted">The last check of each provider's settlement report against the ledger (<code>bhuktani provider reconcile NAME --env … --file CSV</code>).</p>
${
  view.reconciliations.length === 0
    ? html`<p class="muted">No report checked yet.</p>`
    : view.reconciliations.map(
        (r) => html`<details class="json"${r.differences.length ? html` open` : ''}><summary>${providerLabel(r.name)} ${envTag(r.environment)} · ${r.file_name} · ${when(r.reconciled_at, view.timeZone)} by ${r.actor_label}: ${r.rows} rows, ${r.matched} matched, <strong>${r.differences.length} differences</strong></summary><pre>${JSON.stringify(r.differences.slice(0, 50), null, 1)}</pre></details>`,
      )
}</section>`;
}

function setupPanel(view: ProvidersView): Html {
  if (!view.mayManage) return html``;
  return html`<section aria-labelledby="setup-heading" class="provider-setup"><h2 id="setup-heading">Set up a provider</h2>
<p class="muted">Credentials are sealed at rest (PROVIDER_SECRETS_KEY for live) and never shown again. A key file is pasted as base64 (<code>base64 -w0 FILE.pfx</code>).</p>
${providerNames.map(
  (name) => html`<details><summary>${providerLabel(name)}</summary><form method="post" action="/console/providers/${name}/set" class="stack">${csrfField(view.csrf)}
<label>Environment <select name="environment"><option value="test">test</option><option value="live">live</option></select></label>
${descriptorOf(name).setup.map((field) =>
    field.kind === 'file'
      ? html`<label>${field.label}<textarea name="${field.name}" rows="3" autocomplete="off" spellcheck="false"></textarea></label>`
      : html`<label>${field.label}<input name="${field.name}" type="${field.secret ? 'password' : field.kind === 'url' ? 'url' : 'text'}" autocomplete="off"${field.optional ? '' : html` required`}></label>`,
  )}
<button type="submit" class="primary">Save ${providerLabel(name)}</button></form></details>`,
)}</section>`;
}

export function providersBody(view: ProvidersView): Html {
  return html`<h1>Providers</h1>
${notice(view.done)}${notice(view.error, 'error')}
${healthCards(view)}
${escalatedPanel(view)}
${refundsPanel(view)}
${reconciliationsPanel(view)}
${setupPanel(view)}`;
}
