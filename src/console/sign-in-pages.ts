// The pages before an operator is signed in: password, second factor, enrolment, recovery codes.
import { type Html, html } from '../http/html.js';
import { groupedSecret, recoveryCodesBody } from '../http/two-factor-setup.js';
import { consoleSignedOutPage, csrfField, notice } from './console-layout.js';


const nextField = (next: string | undefined) => (next ? html`<input type="hidden" name="next" value="${next}">` : '');

export function signInPage(options: { csrf: string; email?: string; next?: string; message?: string }): Html {
  return consoleSignedOutPage({
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
<p class="muted">For the staff who run the gateway. Merchants sign in at <a href="/dashboard/login">the merchant dashboard</a>.</p>
${notice(options.message, 'error')}
<form method="post" action="/console/login" class="stack">
  ${csrfField(options.csrf)}${nextField(options.next)}
  <label>E-mail <input type="email" name="email" value="${options.email ?? ''}" autocomplete="username" required autofocus></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit" class="primary">Continue</button>
</form>`,
  });
}

export function codePage(options: { csrf: string; email: string; next?: string; message?: string }): Html {
  return consoleSignedOutPage({
    title: 'Two-factor code',
    body: html`<h1>Two-factor code</h1>
<p>Signing in as <strong>${options.email}</strong>. Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
${notice(options.message, 'error')}
<form method="post" action="/console/login/code" class="stack">
  ${csrfField(options.csrf)}${nextField(options.next)}
  <label>Code <input type="text" name="code" inputmode="text" autocomplete="one-time-code" maxlength="20" required autofocus></label>
  <button type="submit" class="primary">Sign in</button>
</form>
<form method="post" action="/console/logout" class="inline">${csrfField(options.csrf)}<button type="submit" class="link">Cancel</button></form>`,
  });
}

export function enrolPage(options: { csrf: string; email: string; secret: string; qrSvg: Html; message?: string }): Html {
  const grouped = groupedSecret(options.secret);
  return consoleSignedOutPage({
    title: 'Set up two-factor sign-in',
    body: html`<h1>Set up two-factor sign-in</h1>
<p>Every operator signs in with a code from an authenticator app as well as the password. Scan this code with the app (or type the key in), then enter the 6-digit code it shows.</p>
${notice(options.message, 'error')}
<figure class="qr">${options.qrSvg}<figcaption>Account: ${options.email}</figcaption></figure>
<p>Key: <code class="secret" data-secret="${options.secret}">${grouped}</code></p>
<form method="post" action="/console/enrol" class="stack">
  ${csrfField(options.csrf)}
  <label>Code from the app <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required autofocus></label>
  <button type="submit" class="primary">Confirm</button>
</form>`,
  });
}

export function enrolledPage(options: { codes: string[] }): Html {
  return consoleSignedOutPage({
    title: 'Two-factor sign-in is on',
    body: html`<h1>Two-factor sign-in is on</h1>
${recoveryCodesBody(options.codes, 'Your authenticator app is set up.')}
<p><a class="button primary" href="/console">Continue to the console</a></p>`,
  });
}

export function invitationPage(options: { csrf: string; token: string; email: string; role: string; message?: string }): Html {
  return consoleSignedOutPage({
    title: 'Join the operator console',
    body: html`<h1>Join the operator console</h1>
<p>You were invited as <strong>${options.role}</strong> with the e-mail <strong>${options.email}</strong>. Choose a password (at least 12 characters); next you set up two-factor sign-in with an authenticator app.</p>
${notice(options.message, 'error')}
<form method="post" action="/console/invitation/${options.token}" class="stack">
  ${csrfField(options.csrf)}
  <input type="email" name="username" value="${options.email}" autocomplete="username" hidden>
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="12" required autofocus></label>
  <label>Password again <input type="password" name="password_again" autocomplete="new-password" minlength="12" required></label>
  <button type="submit" class="primary">Continue</button>
</form>`,
  });
}
