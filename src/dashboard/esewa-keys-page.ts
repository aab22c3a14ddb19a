// eSewa's credentials on the API keys page: each environment's product code and the start of its
// secret key; rotation with the secret key's choices, a confirmation step, the new key shown once.
import { html, type Html } from '../http/html.js';
import type { Environment } from '../environment.js';
import type { EsewaCredentialSummary, RotatedEsewaKey } from '../merchants/rotate-esewa-secret-key.js';
import type { RotationGrace } from '../merchants/rotate-secret-key.js';
import { secretKeyBox } from './account-pages.js';
import { alertBox, csrfField, selectInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';
import { graceSelect, graceText } from './rotation-choices.js';

const envName = (e: Environment) => (e === 'live' ? 'Live' : 'Test');

export function esewaSection(frame: PageFrame, credentials: EsewaCredentialSummary[]): Html {
  const tz = frame.timeZone;
  const byEnvironment = (['test', 'live'] as const).map((environment) => ({ environment, credential: credentials.find((c) => c.environment === environment) }));
  return html`<section class="panel" aria-labelledby="esewa-heading">
  <h2 id="esewa-heading">eSewa ePay</h2>
  <p class="hint">An integration written for eSewa's ePay works here with its base URL, product code and secret key changed to these (<a href="/docs#esewa">eSewa in the API reference</a>). The product code picks the environment; the secret key signs your forms and our answers, so it is kept sealed and shown in full only when it is made.</p>
  <div class="table-wrap"><table class="records esewa-keys">
    <caption class="visually-hidden">eSewa credentials</caption>
    <thead><tr><th scope="col">Environment</th><th scope="col">Product code</th><th scope="col">Secret key</th><th scope="col">Since</th><th scope="col">Status</th></tr></thead>
    <tbody>${byEnvironment.map(({ environment, credential }) =>
      credential
        ? html`<tr class="esewa-row" data-environment="${environment}">
      <td data-label="Environment"><span class="badge env-${environment}">${envName(environment)}</span></td>
      <td data-label="Product code"><code>${credential.productCode}</code></td>
      <td data-label="Secret key"><code>${credential.prefix}</code></td>
      <td data-label="Since">${formatDateTime(credential.rotatedAt ?? credential.createdAt, tz)}</td>
      <td data-label="Status"><span class="badge ok">Active</span>${credential.previous ? html` <span class="badge warn">Old key works until ${formatDateTime(credential.previous.at, tz)}</span>` : ''}</td>
    </tr>`
        : html`<tr class="esewa-row none" data-environment="${environment}">
      <td data-label="Environment"><span class="badge env-${environment}">${envName(environment)}</span></td>
      <td data-label="Product code" colspan="4"><span class="muted">None yet: make them below.</span></td>
    </tr>`,
    )}</tbody>
  </table></div>
  ${userMay(frame.session, 'keys.rotate') ? rotateForm(frame) : ''}
</section>`;
}

function rotateForm(frame: PageFrame): Html {
  return html`<form method="post" action="/dashboard/keys/esewa/rotate" class="inline-form">
    ${csrfField(frame.csrf)}
    ${selectInput({ name: 'environment', label: 'eSewa secret key', value: frame.session.environment, options: [['test', 'Test'], ['live', 'Live']], id: 'field-esewa-environment' })}
    ${graceSelect({ id: 'field-esewa-grace', label: 'Revoke the old eSewa key' })}
    <button type="submit">Review eSewa rotation</button>
  </form>`;
}

export function esewaRotateConfirmPage(
  frame: PageFrame,
  view: { environment: Environment; grace: RotationGrace; credential: EsewaCredentialSummary | undefined; revokeAt: Date; stepUp: Html | ''; message?: string },
): Html {
  const when = view.grace === 0 ? 'immediately' : `at ${formatDateTime(view.revokeAt, frame.timeZone)}`;
  const what = view.credential
    ? html`A new ${view.environment} secret key is made for <code>${view.credential.productCode}</code> and shown once. <code>${view.credential.prefix}</code> will stop working <strong>${when}</strong>${view.credential.previous ? html`, and the older key still in its grace period at once` : ''}.`
    : html`A ${view.environment} product code and secret key are made and shown once.`;
  return dashboardLayout({
    ...frame,
    title: 'Confirm eSewa rotation',
    body: html`<section class="panel confirm-panel" aria-labelledby="confirm-heading">
  <p class="eyebrow">API keys · eSewa ePay</p>
  <h1 id="confirm-heading">${view.credential ? `Rotate the ${view.environment} eSewa secret key?` : `Make ${view.environment} eSewa credentials?`}</h1>
  ${alertBox(view.message)}
  <p>${what}</p>
  ${view.credential && view.grace === 0 ? html`<p class="alert warning">Forms signed with the old key are refused from now on (ES104), until you deploy the new one.</p>` : ''}
  <form method="post" action="/dashboard/keys/esewa/rotate/confirm" class="actions">
    ${csrfField(frame.csrf)}
    <input type="hidden" name="environment" value="${view.environment}">
    <input type="hidden" name="grace" value="${view.grace}">
    ${view.stepUp}
    <button type="submit" class="primary danger">${view.credential ? `Rotate eSewa key (${graceText(view.grace).toLowerCase()})` : 'Make eSewa credentials'}</button>
    <a class="button" href="/dashboard/keys">Back</a>
  </form>
</section>`,
  });
}

export function newEsewaKeyPage(frame: PageFrame, view: { environment: Environment; rotated: RotatedEsewaKey }): Html {
  const { rotated } = view;
  const revokes = rotated.previousRevokesAt ? `The old key keeps working until ${formatDateTime(rotated.previousRevokesAt, frame.timeZone)}; our answers are signed with the new one from now on.` : rotated.issued ? '' : 'The old key no longer works.';
  return dashboardLayout({
    ...frame,
    title: 'New eSewa secret key',
    body: html`<section class="panel">
  <h1>${rotated.issued ? `${envName(view.environment)} eSewa credentials` : `New ${view.environment} eSewa secret key`}</h1>
  <p class="alert warning"><strong>Copy the secret key now.</strong> It can't be shown again; if you lose it, rotate it here.</p>
  <p>Product code: <code class="product-code">${rotated.productCode}</code></p>
  ${secretKeyBox(`${envName(view.environment)} eSewa secret key`, rotated.secretKey)}
  ${revokes ? html`<p>${revokes}</p>` : ''}
  <p><a class="button primary" href="/dashboard/keys">Back to API keys</a></p>
</section>`,
  });
}
