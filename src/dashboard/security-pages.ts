// The pages of a user's own account safety: the two-factor code at log-in, setting up two-factor,
// the Security page (password, two-factor, the team's requirement), the sessions list, and the
// forgotten-password pages.
import { html, type Html } from '../http/html.js';
import { groupedSecret, recoveryCodesBody } from '../http/two-factor-setup.js';
import type { SessionListing } from '../merchants/merchant-sessions.js';
import { alertBox, csrfField, textInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, publicLayout, type PageFrame } from './layout.js';

const nextField = (next: string | undefined) => (next ? html`<input type="hidden" name="next" value="${next}">` : '');
const codeInput = (label: string, hint?: string, error?: string) =>
  textInput({ name: 'code', label, autocomplete: 'one-time-code', required: true, hint, error, attributes: html` inputmode="text" maxlength="20"` });

export function codePage(view: { csrf: string; email: string; next?: string; message?: string }): Html {
  return publicLayout({
    title: 'Two-factor code',
    body: html`<h1>Two-factor code</h1>
<p class="lead">Logging in as <strong>${view.email}</strong>. Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
${alertBox(view.message)}
<form method="post" action="/dashboard/login/code" class="stack">
  ${csrfField(view.csrf)}${nextField(view.next)}
  ${codeInput('Code')}
  <button type="submit" class="primary">Log in</button>
</form>
<form method="post" action="/dashboard/logout" class="switch-form">${csrfField(view.csrf)}<button type="submit" class="link">Cancel</button></form>`,
  });
}

export interface EnrolView {
  csrf: string;
  email: string;
  secret: string;
  qrSvg: Html;
  /** The team requires it: the user can do nothing else until enrolled. */
  required: boolean;
  /** While required: the person's other businesses, which may not require it (the switcher). */
  otherBusinesses?: Html;
  message?: string;
}

function enrolBody(view: EnrolView): Html {
  return html`<h1>Set up two-factor log-in</h1>
${view.required ? html`<p class="alert warning">Your team requires two-factor log-in. Set it up to continue.</p>` : ''}
<p>Scan this code with an authenticator app (or type the key in), then enter the 6-digit code it shows. From then on, logging in asks for a code from the app as well as your password.</p>
${alertBox(view.message)}
<figure class="qr">${view.qrSvg}<figcaption>Account: ${view.email}</figcaption></figure>
<p>Key: <code class="secret" data-secret="${view.secret}">${groupedSecret(view.secret)}</code></p>
<form method="post" action="/dashboard/account/two-factor" class="stack">
  ${csrfField(view.csrf)}
  ${codeInput('Code from the app')}
  <button type="submit" class="primary">Turn on two-factor</button>
</form>`;
}

/** Set-up inside the dashboard, or (a user the team requires it of, just after the password) on its own. */
export function enrolPage(frame: PageFrame | undefined, view: EnrolView): Html {
  const title = 'Set up two-factor log-in';
  if (!frame) {
    const others = view.otherBusinesses ? html`<div class="switch-form"><p>Or work on another of your businesses:</p>${view.otherBusinesses}</div>` : '';
    return publicLayout({ title, body: html`${enrolBody(view)}${others}<form method="post" action="/dashboard/logout" class="switch-form">${csrfField(view.csrf)}<button type="submit" class="link">Log out</button></form>` });
  }
  return dashboardLayout({ ...frame, title, body: html`<section class="panel">${enrolBody(view)}</section>` });
}

export function recoveryCodesPage(frame: PageFrame, view: { codes: string[]; intro: string }): Html {
  return dashboardLayout({
    ...frame,
    title: 'Your recovery codes',
    body: html`<section class="panel">
  <h1>Your recovery codes</h1>
  ${recoveryCodesBody(view.codes, view.intro)}
  <p><a class="button primary" href="/dashboard/account">Done</a></p>
</section>`,
  });
}

export interface AccountView {
  twoFactorOn: boolean;
  /** A team the person belongs to (this one or another) requires two-factor: it stays on. */
  twoFactorRequired: boolean;
  unusedCodes: number;
  isOwner: boolean;
  done?: string;
  error?: string;
  errors?: Record<string, string>;
}

export function accountPage(frame: PageFrame, view: AccountView): Html {
  const { session, csrf } = frame;
  const errors = view.errors ?? {};
  const twoFactor = view.twoFactorOn
    ? html`<p><span class="badge ok">On</span> ${view.unusedCodes} recovery codes left.</p>
  <form method="post" action="/dashboard/account/two-factor/recovery-codes" class="stack">
    ${csrfField(csrf)}
    ${codeInput('Code from the app', 'Makes ten new recovery codes; the ones you have stop working.', errors.codes)}
    <button type="submit" class="button">Make new recovery codes</button>
  </form>
  ${view.twoFactorRequired
    ? html`<p class="hint">${session.requireTwoFactor ? 'Your team requires' : 'A team you belong to requires'} two-factor, so it stays on.</p>`
    : html`<form method="post" action="/dashboard/account/two-factor/off" class="stack">
    ${csrfField(csrf)}
    ${textInput({ name: 'off_code', label: 'Code from the app, or a recovery code', autocomplete: 'one-time-code', required: true, error: errors.off, attributes: html` inputmode="text" maxlength="20"` })}
    <button type="submit" class="primary danger">Turn off two-factor</button>
  </form>`}`
    : html`<p><span class="badge warn">Off</span> Anyone with your password can log in.</p>
  <p><a class="button primary" href="/dashboard/account/two-factor">Set up two-factor</a></p>`;
  const team = view.isOwner
    ? html`<section class="panel">
  <h2>Your team</h2>
  <p>${session.requireTwoFactor ? 'Every user of your team must use two-factor log-in.' : 'Two-factor log-in is up to each user.'}</p>
  <form method="post" action="/dashboard/account/team-two-factor" class="stack">
    ${csrfField(csrf)}
    <input type="hidden" name="required" value="${session.requireTwoFactor ? 'no' : 'yes'}">
    <button type="submit" class="button">${session.requireTwoFactor ? 'Stop requiring two-factor' : 'Require two-factor for the team'}</button>
  </form>
  <p class="hint">When required, a user without it is taken to set it up after their password, and can do nothing else until they have.</p>
</section>`
    : '';
  return dashboardLayout({
    ...frame,
    title: 'Security',
    body: html`<h1 class="page-title">Security</h1>
${alertBox(view.done, 'success')}${alertBox(view.error)}
<div class="panels">
<section class="panel">
  <h2>You</h2>
  <p>${session.user.email} · ${session.user.role} · ${session.user.email_verified_at ? 'e-mail confirmed' : 'e-mail not yet confirmed'}</p>
  <p><a href="/dashboard/account/sessions">Your sessions</a>: where you are logged in, and log out everywhere.</p>
</section>
<section class="panel">
  <h2>Two-factor log-in</h2>
  ${twoFactor}
</section>
<section class="panel">
  <h2>Change password</h2>
  <form method="post" action="/dashboard/account/password" class="stack">
    ${csrfField(csrf)}
    <input type="email" name="username" value="${session.user.email}" autocomplete="username" hidden>
    ${textInput({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true, error: errors.current_password })}
    ${textInput({ name: 'new_password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, error: errors.new_password, hint: 'At least 8 characters. Your other sessions end.' })}
    <button type="submit" class="primary">Change password</button>
  </form>
</section>
${team}
</div>`,
  });
}

/** A short, readable name for a browser's User-Agent (the full string is in the title). */
function browserName(userAgent: string): string {
  const known = [/Edg\/[\d.]+/, /Firefox\/[\d.]+/, /Chrome\/[\d.]+/, /Version\/[\d.]+ Safari/, /curl\/[\d.]+/].map((re) => re.exec(userAgent)?.[0]).find(Boolean);
  return known ? known.split('/')[0].replace('Version', 'Safari').replace('Edg', 'Edge') : userAgent.slice(0, 40) || 'Unknown';
}

export function sessionsPage(frame: PageFrame, view: { sessions: SessionListing[]; done?: string }): Html {
  const { csrf, timeZone } = frame;
  // A person in several businesses sees which one each session looks at.
  const business = frame.session.memberships.length > 1;
  return dashboardLayout({
    ...frame,
    title: 'Your sessions',
    body: html`<h1 class="page-title">Your sessions</h1>
${alertBox(view.done, 'success')}
<section class="panel">
<table class="sessions">
  <thead><tr><th scope="col">Logged in</th>${business ? html`<th scope="col">Business</th>` : ''}<th scope="col">Last seen</th><th scope="col">Address</th><th scope="col">Browser</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
  <tbody>${view.sessions.map(
    (s) => html`<tr data-session="${s.ref}"${s.current ? html` aria-current="true"` : ''}>
    <td>${formatDateTime(s.createdAt, timeZone)}</td>
    ${business ? html`<td>${s.merchantName}</td>` : ''}
    <td>${formatDateTime(s.lastSeenAt, timeZone)}</td>
    <td>${s.ip || '–'}</td>
    <td title="${s.userAgent}">${browserName(s.userAgent)}</td>
    <td>${s.current
      ? html`<strong>This session</strong>`
      : html`<form method="post" action="/dashboard/account/sessions/end">${csrfField(csrf)}<input type="hidden" name="session" value="${s.ref}"><button type="submit" class="link">Log out</button></form>`}</td>
  </tr>`,
  )}</tbody>
</table>
<form method="post" action="/dashboard/account/sessions/end-all" class="actions">
  ${csrfField(csrf)}
  <button type="submit" class="primary danger">Log out everywhere</button>
</form>
<p class="hint">Ends every session of yours, this one too. If you think someone else knows your password, change it as well.</p>
</section>`,
  });
}

export function forgotPasswordPage(view: { csrf: string; email?: string; sent?: boolean; message?: string }): Html {
  return publicLayout({
    title: 'Forgot your password?',
    body: html`<h1>Forgot your password?</h1>
${view.sent
  ? html`<p class="alert success" role="status">If an account has the e-mail <strong>${view.email ?? ''}</strong>, we have sent it a link to choose a new password. The link works once, for one hour.</p>`
  : html`<p class="lead">Enter the e-mail you log in with. We send a link to choose a new password.</p>
${alertBox(view.message)}
<form method="post" action="/dashboard/forgot-password" class="stack">
  ${csrfField(view.csrf)}
  ${textInput({ name: 'email', label: 'Email', type: 'email', value: view.email, autocomplete: 'username', required: true })}
  <button type="submit" class="primary">Send the link</button>
</form>`}
<p class="switch-form"><a href="/dashboard/login">Back to log in</a></p>`,
  });
}

export function resetPasswordPage(view: { csrf: string; token: string; email: string; error?: string }): Html {
  return publicLayout({
    title: 'Choose a new password',
    body: html`<h1>Choose a new password</h1>
<p class="lead">For <strong>${view.email}</strong>. Every session of your account ends when it changes.</p>
<form method="post" action="/dashboard/reset-password/${view.token}" class="stack">
  ${csrfField(view.csrf)}
  <input type="email" name="username" value="${view.email}" autocomplete="username" hidden>
  ${textInput({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, error: view.error, hint: 'At least 8 characters.' })}
  <button type="submit" class="primary">Set the new password</button>
</form>`,
  });
}
