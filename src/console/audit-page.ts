// The audit log page: every operator action, newest first, filtered by operator, action and object.
import type { AuditRecord } from '../audit/audit-entry.js';
import { html, type Html } from '../http/html.js';
import type { Operator } from '../people/operator.js';
import { formatWhen } from './console-format.js';

export interface AuditFilterValues {
  operator: string;
  action: string;
  objectType: string;
  objectId: string;
}

const OBJECT_TYPES = ['merchant', 'payment', 'wallet', 'payout', 'payout_rail', 'operator', 'ledger'];

const change = (entry: AuditRecord) =>
  entry.before || entry.after ? html`<details class="json"><summary>before / after</summary><pre>${JSON.stringify({ before: entry.before ?? null, after: entry.after ?? null }, null, 1)}</pre></details>` : '';

export function auditBody(options: { entries: AuditRecord[]; operators: Operator[]; filter: AuditFilterValues; olderHref?: string; newestHref?: string; timeZone: string }): Html {
  const { filter } = options;
  return html`<h1>Audit log</h1>
<form method="get" action="/console/audit" class="row panel">
  <label>Operator <select name="operator"><option value="">Anyone</option>${options.operators.map(
    (o) => html`<option value="${String(o.id)}"${String(o.id) === filter.operator ? html` selected` : ''}>${o.email}</option>`,
  )}</select></label>
  <label>Action <input type="text" name="action" value="${filter.action}" placeholder="merchant.approve" maxlength="100"></label>
  <label>Object <select name="object_type"><option value="">Any</option>${OBJECT_TYPES.map((t) => html`<option value="${t}"${t === filter.objectType ? html` selected` : ''}>${t}</option>`)}</select></label>
  <label>Object id <input type="text" name="object_id" value="${filter.objectId}" maxlength="200"></label>
  <button type="submit" class="primary">Filter</button>
</form>
<div class="table-wrap" role="region" aria-label="Audit log entries" tabindex="0"><table>
<thead><tr><th>When</th><th>Who</th><th>Action</th><th>Object</th><th class="hide-narrow">Details</th></tr></thead>
<tbody>${
    options.entries.length === 0
      ? html`<tr><td colspan="5" class="muted">No entries.</td></tr>`
      : options.entries.map(
          (e) => html`<tr data-action="${e.action}">
  <td>${formatWhen(e.occurredAt, options.timeZone)}</td>
  <td>${e.actor.label}${e.actor.kind === 'cli' ? html` <span class="muted">(command)</span>` : ''}</td>
  <td><code>${e.action}</code>${e.environment ? html` <span class="env-tag ${e.environment}">${e.environment}</span>` : ''}</td>
  <td>${e.object.type} <code>${e.object.id}</code></td>
  <td class="hide-narrow">${e.reason ? html`<p>Reason: ${e.reason}</p>` : ''}${change(e)}</td>
</tr>`,
        )
  }</tbody>
</table></div>
<nav class="pager" aria-label="Pages">${options.newestHref ? html`<a href="${options.newestHref}">Newest</a>` : html`<span></span>`}${options.olderHref ? html`<a href="${options.olderHref}" rel="next">Older entries</a>` : ''}</nav>
<p class="muted">Times in ${options.timeZone}. The log is append-only: nothing in it can be changed or deleted.</p>`;
}
