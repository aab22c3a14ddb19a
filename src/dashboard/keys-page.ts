// The API keys page: each key's environment, prefix, creation, last use and status; rotation with a
// confirmation step; the new key shown once.
import { html, type Html } from '../http/html.js';
import type { SecretKeySummary } from '../merchants/list-secret-keys.js';
import type { EsewaCredentialSummary } from '../merchants/rotate-esewa-secret-key.js';
import type { RotatedKey, RotationGrace } from '../merchants/rotate-secret-key.js';
import type { Environment } from '../environment.js';
import { newKeysNote, secretKeyBox } from './account-pages.js';
import { esewaSection } from './esewa-keys-page.js';
import { alertBox, csrfField, selectInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';
import { graceSelect, graceText } from './rotation-choices.js';

const envName = (e: Environment) => (e === 'live' ? 'Live' : 'Test');

function statusOf(key: SecretKeySummary, timeZone: string): Html {
  switch (key.status.name) {
    case 'active':
      return html`<span class="badge ok">Active</span>`;
    case 'revoking':
      return html`<span class="badge warn">Revokes at ${formatDateTime(key.status.at, timeZone)}</span>`;
    case 'revoked':
      return html`<span class="badge muted">Revoked ${formatDateTime(key.status.at, timeZone)}</span>`;
  }
}

export function keysPage(frame: PageFrame, view: { keys: SecretKeySummary[]; esewa: EsewaCredentialSummary[]; message?: string }): Html {
  const tz = frame.timeZone;
  return dashboardLayout({
    ...frame,
    title: 'API keys',
    body: html`<h1 class="page-title">API keys</h1>
${alertBox(view.message)}
<section class="panel" aria-labelledby="keys-heading">
  <h2 id="keys-heading">Secret keys</h2>
  <p class="hint">Send a key from your server as <code>Authorization: Key &lt;secret&gt;</code>. A test key works on test data, a live key on live data. Only the start of each key is kept for display.</p>
  <div class="table-wrap"><table class="records keys">
    <caption class="visually-hidden">Secret keys</caption>
    <thead><tr><th scope="col">Environment</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
    <tbody>${view.keys.map(
      (k) => html`<tr class="key-row ${k.status.name}" data-environment="${k.environment}">
      <td data-label="Environment"><span class="badge env-${k.environment}">${envName(k.environment)}</span></td>
      <td data-label="Key"><code>${k.prefix}</code></td>
      <td data-label="Created">${formatDateTime(k.createdAt, tz)}</td>
      <td data-label="Last used">${k.lastUsedAt ? formatDateTime(k.lastUsedAt, tz) : html`<span class="muted">Never</span>`}</td>
      <td data-label="Status">${statusOf(k, tz)}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>
${userMay(frame.session, 'keys.rotate') ? rotateForm(frame) : ''}
${esewaSection(frame, view.esewa)}`,
  });
}

function rotateForm(frame: PageFrame): Html {
  return html`<section class="panel" aria-labelledby="rotate-heading">
  <h2 id="rotate-heading">Rotate a key</h2>
  <p class="hint">Rotation makes a new key, shown once, and revokes the current one: at once if it may have leaked, or after a grace period so you can deploy the new key first.</p>
  <form method="post" action="/dashboard/keys/rotate" class="inline-form">
    ${csrfField(frame.csrf)}
    ${selectInput({ name: 'environment', label: 'Key', value: frame.session.environment, options: [['test', 'Test secret key'], ['live', 'Live secret key']] })}
    ${graceSelect()}
    <button type="submit" class="primary">Review rotation</button>
  </form>
</section>`;
}

export function rotateConfirmPage(frame: PageFrame, view: { environment: Environment; grace: RotationGrace; current: SecretKeySummary[]; revokeAt: Date; stepUp: Html | ''; message?: string }): Html {
  const when = view.grace === 0 ? 'immediately' : `at ${formatDateTime(view.revokeAt, frame.timeZone)}`;
  const grace = graceText(view.grace);
  return dashboardLayout({
    ...frame,
    title: 'Confirm rotation',
    body: html`<section class="panel confirm-panel" aria-labelledby="confirm-heading">
  <p class="eyebrow">API keys</p>
  <h1 id="confirm-heading">Rotate the ${view.environment} secret key?</h1>
  ${alertBox(view.message)}
  <p>A new ${view.environment} key is made and shown once.
  ${view.current.length ? html`${view.current.map((k, i) => html`${i ? ', ' : ''}<code>${k.prefix}</code>`)} will stop working <strong>${when}</strong>.` : 'There is no working key to revoke.'}</p>
  ${view.grace === 0 ? html`<p class="alert warning">Requests that use the old key fail from now on, until you deploy the new one.</p>` : ''}
  <form method="post" action="/dashboard/keys/rotate/confirm" class="actions">
    ${csrfField(frame.csrf)}
    <input type="hidden" name="environment" value="${view.environment}">
    <input type="hidden" name="grace" value="${view.grace}">
    ${view.stepUp}
    <button type="submit" class="primary danger">Rotate key (${grace.toLowerCase()})</button>
    <a class="button" href="/dashboard/keys">Back</a>
  </form>
</section>`,
  });
}

export function newKeyPage(frame: PageFrame, view: { environment: Environment; rotated: RotatedKey; grace: RotationGrace }): Html {
  const revokes = view.grace === 0 ? 'The old key no longer works.' : `The old key keeps working until ${formatDateTime(view.rotated.oldKeysRevokeAt, frame.timeZone)}.`;
  return dashboardLayout({
    ...frame,
    title: 'New secret key',
    body: html`<section class="panel">
  <h1>New ${view.environment} secret key</h1>
  ${newKeysNote()}
  ${secretKeyBox(`${envName(view.environment)} secret key`, view.rotated.key)}
  <p>${view.rotated.revokedKeyIds.length ? revokes : 'No old key needed revoking.'}</p>
  <p><a class="button primary" href="/dashboard/keys">Back to API keys</a></p>
</section>`,
  });
}
