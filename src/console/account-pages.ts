// Your own account: who you are, your password, your recovery codes.
import { html, type Html } from '../http/html.js';
import { csrfField, notice } from './console-layout.js';
import { recoveryCodesBody } from '../http/two-factor-setup.js';

export function accountBody(options: { csrf: string; email: string; role: string; unusedCodes: number; done?: string; error?: string; codes?: string[] }): Html {
  const { csrf } = options;
  return html`<h1>Your account</h1>
${notice(options.done)}${notice(options.error, 'error')}
${options.codes ? html`<section class="panel">${recoveryCodesBody(options.codes, 'Your new recovery codes: the old ones no longer work.')}</section>` : ''}
<div class="panels">
<section class="panel">
  <h2>You</h2>
  <dl class="pairs"><dt>E-mail</dt><dd>${options.email}</dd><dt>Role</dt><dd>${options.role}</dd><dt>Recovery codes left</dt><dd>${options.unusedCodes}</dd></dl>
</section>
<section class="panel">
  <h2>Change password</h2>
  <form method="post" action="/console/account/password" class="stack">
    ${csrfField(csrf)}
    <label>Current password <input type="password" name="current_password" autocomplete="current-password" required></label>
    <label>New password <input type="password" name="new_password" autocomplete="new-password" minlength="12" required></label>
    <button type="submit" class="primary">Change password</button>
  </form>
  <p class="muted">Your other sessions end when the password changes.</p>
</section>
<section class="panel">
  <h2>New recovery codes</h2>
  <form method="post" action="/console/account/recovery-codes" class="stack">
    ${csrfField(csrf)}
    <label>Current password <input type="password" name="current_password" autocomplete="current-password" required></label>
    <button type="submit">Make ten new codes</button>
  </form>
  <p class="muted">The codes you have now stop working.</p>
</section>
</div>`;
}
