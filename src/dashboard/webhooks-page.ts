// The webhooks page: the signing secret of the environment, its endpoint, and the deliveries with
// their answers, each of which can be sent again.
import { html, type Html } from '../http/html.js';
import type { WebhookDelivery } from '../webhooks/webhook-store.js';
import { alertBox, csrfField, textInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';

export interface WebhooksView {
  signingSecret: string;
  endpoint?: string;
  deliveries: WebhookDelivery[];
  message?: string;
  tone?: 'error' | 'success';
  urlError?: string;
}

function deliveryStatus(d: WebhookDelivery): Html {
  if (d.status === 'delivered') return html`<span class="badge ok">Delivered</span>`;
  if (d.status === 'failed') return html`<span class="badge muted">Gave up</span>`;
  return html`<span class="badge warn">Retrying</span>`;
}

export function webhooksPage(frame: PageFrame, view: WebhooksView): Html {
  const tz = frame.timeZone;
  const env = frame.session.environment;
  const manage = userMay(frame.session, 'webhooks.manage');
  return dashboardLayout({
    ...frame,
    title: 'Webhooks',
    body: html`<h1 class="page-title">Webhooks</h1>
${alertBox(view.message, view.tone)}
<section class="panel" aria-labelledby="secret-heading">
  <h2 id="secret-heading">Signing secret (${env})</h2>
  <p class="hint">Callbacks to your return_url carry a <code>signature</code>, and webhooks a <code>Bhuktani-Signature</code> header, both HMAC-SHA256 with this secret. Keep it on your server.</p>
  <p><code class="secret" data-testid="signing-secret">${view.signingSecret}</code></p>
</section>
<section class="panel" aria-labelledby="endpoint-heading">
  <h2 id="endpoint-heading">Endpoint (${env})</h2>
  <p class="hint">Events: payment.completed, payment.pending, payment.canceled, payment.expired, refund.completed. Delivered at least once, retried for up to 3 days until your endpoint answers 2xx.</p>
  ${
    manage
      ? html`<form method="post" action="/dashboard/webhooks/endpoint" class="inline-form">
    ${csrfField(frame.csrf)}
    ${textInput({ name: 'url', label: 'Endpoint URL', type: 'url', value: view.endpoint ?? '', error: view.urlError, hint: 'Leave empty and save to stop sending events.' })}
    <button type="submit" class="primary">Save endpoint</button>
  </form>`
      : html`<p>${view.endpoint ? html`<code>${view.endpoint}</code>` : html`<span class="muted">No endpoint set.</span>`}</p>`
  }
</section>
<section class="panel" aria-labelledby="deliveries-heading">
  <h2 id="deliveries-heading">Recent deliveries</h2>
  ${
    view.deliveries.length === 0
      ? html`<p class="muted">No events yet.</p>`
      : html`<div class="table-wrap"><table class="records deliveries">
    <thead><tr><th scope="col">Event</th><th scope="col">Payment</th><th scope="col">Status</th><th scope="col">Last answer</th><th scope="col"></th></tr></thead>
    <tbody>${view.deliveries.map(
      (d) => html`<tr>
      <td data-label="Event"><code>${d.type}</code><span class="time">${formatDateTime(d.created_at, tz)}</span></td>
      <td data-label="Payment">${d.pidx ? html`<a href="/dashboard/payments/${d.pidx}"><code>${d.pidx}</code></a>` : ''}</td>
      <td data-label="Status">${deliveryStatus(d)}<span class="time">${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}</span></td>
      <td data-label="Last answer">${d.last_status ? html`<code>HTTP ${d.last_status}</code> ` : ''}${d.last_error ? html`<span class="muted">${d.last_error}</span>` : ''}${d.last_response ? html`<span class="time">${d.last_response.slice(0, 200)}</span>` : ''}</td>
      <td>${manage ? html`<form method="post" action="/dashboard/webhooks/${d.id}/resend">${csrfField(frame.csrf)}<button type="submit" class="button small">Resend</button></form>` : ''}</td>
    </tr>`,
    )}</tbody></table></div>`
  }
</section>`,
  });
}
