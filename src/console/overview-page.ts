// The overview: figures at a glance, and the ledger check with its button.
import { formatRupees } from '../http/money.js';
import { html, type Html } from '../http/html.js';
import { csrfField, notice } from './console-layout.js';
import { formatWhen } from './console-format.js';
import type { WalArchiving } from '../db/wal-archiving-store.js';
import type { OverviewFigures } from './overview-figures.js';

const envTag = (environment: string) => html`<span class="env-tag ${environment}">${environment}</span>`;

/** PostgreSQL's WAL archive, on which point-in-time recovery rests: said when it is off or failing. */
function archivingLine(archiving: WalArchiving | undefined, timeZone: string): Html | string {
  if (!archiving || archiving.state === 'archiving') return '';
  if (archiving.state === 'off') return html`<dt>WAL archiving (no point-in-time recovery: docs/deploy.md)</dt><dd data-figure="wal-archiving" class="status-bad">off</dd>`;
  return html`<dt>WAL archiving failing since ${archiving.lastFailedAt ? formatWhen(archiving.lastFailedAt, timeZone) : '—'}</dt><dd data-figure="wal-archiving" class="status-bad">${archiving.failed} failed</dd>`;
}

export function overviewBody(options: { csrf: string; figures: OverviewFigures; archiving?: WalArchiving; timeZone: string; mayVerify: boolean; done?: string }): Html {
  const { figures, timeZone } = options;
  const last = figures.lastVerification;
  const failing = figures.webhooksFailing.reduce((sum, f) => sum + f.count, 0);
  return html`<h1>Overview</h1>
${notice(options.done)}
<div class="panels">
${figures.volumes.map(
  (v) => html`<section class="panel" data-volume="${v.environment}">
  <h2>Paid ${envTag(v.environment)}</h2>
  <p class="figure-label">Today</p><p class="figure">${formatRupees(v.todayPaisa)}</p><p class="muted">${v.todayCount} payments</p>
  <p class="figure-label">This month</p><p class="figure">${formatRupees(v.monthPaisa)}</p><p class="muted">${v.monthCount} payments</p>
</section>`,
)}
<div class="panel-column">
<section class="panel attention">
  <h2>Needs attention</h2>
  <dl class="pairs figures">
    <dt><a href="/console/merchants?status=applied">Merchants waiting for approval</a></dt><dd data-figure="merchants-waiting">${figures.merchantsWaiting}</dd>
    <dt>Webhook deliveries failed</dt><dd data-figure="webhooks-failing">${failing}</dd>
    ${figures.webhooksFailing.map((f) => html`<dt class="muted">… ${envTag(f.environment)}</dt><dd>${f.count}</dd>`)}
    <dt><a href="/console/payouts?state=Requested">Live payouts to export</a></dt><dd data-figure="payouts-requested">${figures.payoutsWaiting.requested.count} · ${formatRupees(figures.payoutsWaiting.requested.amount)}</dd>
    <dt><a href="/console/providers#escalated-heading">Provider payments to decide</a></dt><dd data-figure="provider-attempts">${figures.providers.escalated}</dd>
    <dt><a href="/console/providers#refunds-heading">Refunds to make at providers</a></dt><dd data-figure="provider-refunds">${figures.providers.refundsToMake}</dd>
    <dt><a href="/console/payouts?state=Processing">Live payouts sent, to mark</a></dt><dd data-figure="payouts-processing">${figures.payoutsWaiting.processing.count} · ${formatRupees(figures.payoutsWaiting.processing.amount)}</dd>
    ${archivingLine(options.archiving, timeZone)}
  </dl>
</section>
<section class="panel" data-ledger="${last ? (last.passed ? 'passed' : 'failed') : 'never'}">
  <h2>Ledger check</h2>
  ${
    last
      ? html`<p class="${last.passed ? 'status-ok' : 'status-bad'}">${last.passed ? 'Every invariant held' : `${last.broken.length} invariant${last.broken.length === 1 ? '' : 's'} broken`}</p>
  <p class="muted">${formatWhen(last.verifiedAt, timeZone)} by ${last.actorLabel}</p>
  ${last.broken.map((b) => html`<details class="json"><summary>${b.invariant}</summary><pre>${JSON.stringify(b.violations, null, 1)}</pre></details>`)}`
      : html`<p class="muted">Never run.</p>`
  }
  ${options.mayVerify ? html`<form method="post" action="/console/ledger/verify">${csrfField(options.csrf)}<button type="submit" class="primary">Run the ledger check now</button></form>` : ''}
</section>
</div>
</div>
<h2>Payments this month by status</h2>
<div class="table-wrap" role="region" aria-label="Payments this month by status" tabindex="0"><table>
<thead><tr><th>Environment</th><th>Status</th><th class="num">Payments</th></tr></thead>
<tbody>${figures.byStatus.length === 0 ? html`<tr><td colspan="3" class="muted">No payments this month.</td></tr>` : figures.byStatus.map((s) => html`<tr><td>${envTag(s.environment)}</td><td>${s.status}</td><td class="num">${s.count}</td></tr>`)}</tbody>
</table></div>
<p class="muted">Days and months in ${timeZone}.</p>`;
}
