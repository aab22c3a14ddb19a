// Sign-up (the form, "check your e-mail", the link's page), log-in, and the page that shows a new
// merchant its keys (once).
import { html, type Html } from '../http/html.js';
import { alertBox, csrfField, textInput } from './form-controls.js';
import { dashboardLayout, publicLayout, type PageFrame } from './layout.js';

export function signUpPage(view: { csrf: string; values?: { name?: string; email?: string }; errors?: Record<string, string>; message?: string }): Html {
  const errors = view.errors ?? {};
  return publicLayout({
    title: 'Create your merchant account',
    body: html`<h1>Create your merchant account</h1>
<p class="lead">Accept wallet payments on your website. Confirm your e-mail and you get a test key and a live key straight away.</p>
${alertBox(view.message)}
<form method="post" action="/dashboard/signup" class="stack" novalidate>
  ${csrfField(view.csrf)}
  ${textInput({ name: 'name', label: 'Business name', value: view.values?.name, error: errors.name, autocomplete: 'organization', required: true })}
  ${textInput({ name: 'email', label: 'Email', type: 'email', value: view.values?.email, error: errors.email, autocomplete: 'email', required: true })}
  ${textInput({ name: 'password', label: 'Password', type: 'password', error: errors.password, autocomplete: 'new-password', required: true, hint: 'At least 8 characters.' })}
  <button type="submit" class="primary">Create account</button>
</form>
<p class="switch-form">Already have an account? <a href="/dashboard/login">Log in</a></p>`,
  });
}

/**
 * The answer to every valid sign-up, whether the address has an account or not (the e-mail says
 * which). `mailInLog`: this server writes e-mails to its log (no SMTP_URL), as a sandbox does.
 */
export function checkEmailPage(view: { email: string; mailInLog: boolean }): Html {
  return publicLayout({
    title: 'Check your e-mail',
    body: html`<h1>Check your e-mail</h1>
<p class="lead">We sent an e-mail to <strong>${view.email}</strong>. Open the link in it to continue: it works once, for 24 hours.</p>
${view.mailInLog ? html`<p class="alert warning">This server sends no e-mail (no <code>SMTP_URL</code>): the e-mail, link included, is in the server's log.</p>` : ''}
<p>Nothing arrived after a few minutes? Look in your spam folder, or <a href="/dashboard/signup">sign up again</a>.</p>
<p class="switch-form">Already have an account? <a href="/dashboard/login">Log in</a></p>`,
  });
}

/** The sign-up link's page: one press creates the account (a GET creates nothing: mail scanners open links). */
export function finishSignUpPage(view: { csrf: string; token: string; name: string; email: string; message?: string }): Html {
  return publicLayout({
    title: 'Finish signing up',
    body: html`<h1>Finish signing up</h1>
<p class="lead">Create the merchant account of <strong>${view.name}</strong>, for ${view.email}. Your secret keys are shown on the next page.</p>
${alertBox(view.message)}
<form method="post" action="/dashboard/signup/${view.token}" class="stack">
  ${csrfField(view.csrf)}
  <button type="submit" class="primary">Create account</button>
</form>`,
  });
}

export function logInPage(view: { csrf: string; email?: string; next?: string; message?: string; notice?: string }): Html {
  return publicLayout({
    title: 'Log in',
    body: html`<h1>Log in</h1>
<p class="lead">to your Bhuktani merchant dashboard.</p>
${alertBox(view.notice, 'success')}${alertBox(view.message)}
<form method="post" action="/dashboard/login" class="stack">
  ${csrfField(view.csrf)}
  ${view.next ? html`<input type="hidden" name="next" value="${view.next}">` : ''}
  ${textInput({ name: 'email', label: 'Email', type: 'email', value: view.email, autocomplete: 'username', required: true })}
  ${textInput({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true })}
  <button type="submit" class="primary">Log in</button>
</form>
<p class="switch-form"><a href="/dashboard/forgot-password">Forgot your password?</a></p>
<p class="switch-form">New to Bhuktani? <a href="/dashboard/signup">Create an account</a></p>`,
  });
}

export function secretKeyBox(label: string, key: string): Html {
  const id = `key-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return html`<div class="secret-key">
  <p class="secret-label" id="${id}">${label}</p>
  <code class="secret" aria-labelledby="${id}" data-copy>${key}</code>
</div>`;
}

export function newKeysNote(): Html {
  return html`<p class="alert warning"><strong>Copy your keys now.</strong> They can't be shown again: Bhuktani keeps only a hash of each key. If you lose one, rotate it on the API keys page.</p>`;
}

export function welcomePage(frame: PageFrame, keys: { test: string; live: string; esewa: Record<'test' | 'live', { product_code: string; secret_key: string }> }): Html {
  return dashboardLayout({
    ...frame,
    title: 'Your secret keys',
    body: html`<section class="panel">
  <h1>Welcome, ${frame.session.merchant.name}</h1>
  <p class="lead">Your account is ready and your e-mail confirmed. These are your secret keys: send one in the <code>Authorization: Key …</code> header from your server.</p>
  ${newKeysNote()}
  ${secretKeyBox('Test secret key', keys.test)}
  <p class="hint">For the sandbox: payments with the published test wallets, no real money.</p>
  ${secretKeyBox('Live secret key', keys.live)}
  <p class="hint">For real payments, once we have approved your business: <a href="/dashboard/business">apply to go live</a>. Keep it on your server, never in a web page or an app.</p>
  <h2>eSewa ePay</h2>
  <p class="hint">For an integration written for eSewa's ePay: its product code and secret key, per environment. The secret keys can't be shown again either.</p>
  ${(['test', 'live'] as const).map(
    (environment) => html`<p>${environment === 'test' ? 'Test' : 'Live'} product code: <code class="product-code">${keys.esewa[environment].product_code}</code></p>
  ${secretKeyBox(`${environment === 'test' ? 'Test' : 'Live'} eSewa secret key`, keys.esewa[environment].secret_key)}`,
  )}
  <p><a class="button primary" href="/dashboard">Go to your dashboard</a></p>
</section>`,
  });
}
