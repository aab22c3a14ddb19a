// The team page: the users with their role and two-factor, the invitations still open, the team's
// log of changes and its users' security acts (paged); and for those whose role may (merchant-permissions.ts)
// the forms to invite, resend, revoke, change a role, remove a user and hand ownership over. Also the
// invitee's page.
import { html, type Html } from '../http/html.js';
import type { MerchantUser } from '../merchants/merchant-user.js';
import type { InvitationRow } from '../people/invitation-store.js';
import type { TeamEvent } from '../people/merchant-team-store.js';
import { INVITABLE_ROLES, TEAM_PASSWORD_MIN_LENGTH } from '../people/merchant-team.js';
import { isSecurityAct, type SecurityAct } from '../people/security-acts.js';
import { alertBox, csrfField, selectInput, textInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, publicLayout, type PageFrame, userMay } from './layout.js';

export interface TeamView {
  users: MerchantUser[];
  invitations: InvitationRow[];
  events: TeamEvent[];
  /** The log's pager: older lines than these, and back to the newest (when not on the first page). */
  log: { olderHref?: string; newestHref?: string };
  /** The server's now, to tell an expired invitation. */
  now: Date;
  message?: string;
  tone?: 'error' | 'success';
  values?: { email?: string; role?: string };
  errors?: Record<string, string>;
  /** The step-up box (step-up.ts) while changes need the user to confirm it is them; '' when fresh. */
  stepUp?: Html | '';
}

const ROLE_CHOICES: [string, string][] = INVITABLE_ROLES.map((role) => [role, role[0].toUpperCase() + role.slice(1)]);

const EVENT_WORDS: Record<string, string> = {
  invite: 'invited',
  invite_resend: 'sent the invitation again to',
  invite_revoke: 'revoked the invitation of',
  join: 'joined:',
  role_change: 'changed the role of',
  remove: 'removed',
  hand_over: 'handed ownership over to',
};

/** A user's own security acts (people/security-acts.ts): the actor is the subject, said once. */
const SECURITY_WORDS: Record<SecurityAct, string> = {
  two_factor_on: 'turned two-factor log-in on',
  two_factor_off: 'turned two-factor log-in off',
  recovery_codes_new: 'made new recovery codes (the old ones stopped working)',
  recovery_code_used: 'used a recovery code',
  password_change: 'changed their password',
  password_reset: 'reset their password by an e-mailed link',
  session_end: 'logged out one of their sessions',
  logout_everywhere: 'logged out everywhere',
  email_confirmed: 'confirmed their e-mail address',
  team_two_factor_on: 'required two-factor log-in of everyone on the team',
  team_two_factor_off: 'stopped requiring two-factor log-in of the team',
  bank_account_change: 'set the settlement bank account',
};

function eventLine(e: TeamEvent): Html {
  const detail = e.detail ? html` <span class="muted">(${e.detail})</span>` : '';
  if (isSecurityAct(e.action)) return html`${e.actor_email} ${SECURITY_WORDS[e.action]}${detail}`;
  return html`${e.action === 'join' ? '' : html`${e.actor_email} `}${EVENT_WORDS[e.action] ?? e.action} ${e.subject_email}${detail}`;
}

function userRow(frame: PageFrame, user: MerchantUser, manage: boolean): Html {
  const you = user.id === frame.session.user.id;
  const actions =
    manage && user.role !== 'owner'
      ? html`<form method="post" action="/dashboard/team/users/${user.id}/role" class="inline-form">
      ${csrfField(frame.csrf)}
      <label class="visually-hidden" for="role-${user.id}">Role of ${user.email}</label>
      <select id="role-${user.id}" name="role">${ROLE_CHOICES.map(([value, text]) => html`<option value="${value}"${value === user.role ? html` selected` : ''}>${text}</option>`)}</select>
      <button type="submit" class="button small">Change role</button>
    </form>
    <form method="post" action="/dashboard/team/users/${user.id}/remove" class="inline-form">
      ${csrfField(frame.csrf)}
      <button type="submit" class="button small danger" aria-label="Remove ${user.email}">Remove</button>
    </form>`
      : '';
  return html`<tr data-user="${user.email}">
  <td data-label="User">${user.email}${you ? html` <span class="badge muted">you</span>` : ''}</td>
  <td data-label="Role"><span class="badge" data-role="${user.role}">${user.role}</span></td>
  <td data-label="Two-factor" data-two-factor="${user.totp_enrolled_at ? 'on' : 'off'}">${user.totp_enrolled_at ? 'On' : html`<span class="muted">Off</span>`}</td>
  <td data-label="Joined">${formatDateTime(user.created_at, frame.timeZone)}</td>
  <td>${actions}</td>
</tr>`;
}

function invitationsPanel(frame: PageFrame, invitations: InvitationRow[], now: Date, manage: boolean): Html {
  return html`<section class="panel" aria-labelledby="invitations-heading">
  <h2 id="invitations-heading">Invitations pending</h2>
  ${
    invitations.length === 0
      ? html`<p class="muted">None.</p>`
      : html`<div class="table-wrap" role="region" aria-label="Invitations pending" tabindex="0"><table class="records invitations">
    <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Link valid until</th><th scope="col"></th></tr></thead>
    <tbody>${invitations.map(
      (i) => html`<tr data-invitation="${i.email}">
      <td data-label="E-mail">${i.email}</td>
      <td data-label="Role">${i.role}</td>
      <td data-label="Valid until">${i.expires_at <= now ? html`<span class="badge warn">Expired</span>` : formatDateTime(i.expires_at, frame.timeZone)}</td>
      <td>${
        manage
          ? html`<form method="post" action="/dashboard/team/invitations/${i.id}/resend" class="inline-form">${csrfField(frame.csrf)}<button type="submit" class="button small">Resend</button></form>
        <form method="post" action="/dashboard/team/invitations/${i.id}/revoke" class="inline-form">${csrfField(frame.csrf)}<button type="submit" class="button small">Revoke</button></form>`
          : ''
      }</td>
    </tr>`,
    )}</tbody></table></div>`
  }
</section>`;
}

function inviteForm(frame: PageFrame, view: TeamView): Html {
  return html`<section class="panel" aria-labelledby="invite-heading">
  <h2 id="invite-heading">Invite someone</h2>
  <p class="hint">They get an e-mail with a link, valid for 7 days and usable once, to choose a password, or to join with the Bhuktani account they have (one person may belong to several businesses).</p>
  <form method="post" action="/dashboard/team/invite" class="inline-form">
    ${csrfField(frame.csrf)}
    ${textInput({ name: 'email', label: 'E-mail', type: 'email', value: view.values?.email, error: view.errors?.email, autocomplete: 'off', required: true })}
    ${selectInput({ name: 'role', label: 'Role', value: view.values?.role ?? 'viewer', options: ROLE_CHOICES, error: view.errors?.role })}
    <button type="submit" class="primary">Send invitation</button>
  </form>
</section>`;
}

function handOverForm(frame: PageFrame, users: MerchantUser[]): Html | '' {
  const others = users.filter((u) => u.id !== frame.session.user.id);
  if (others.length === 0) return '';
  return html`<section class="panel" aria-labelledby="transfer-heading">
  <h2 id="transfer-heading">Hand ownership over</h2>
  <p class="hint">The new owner may do everything, you included; you become an admin. A team has exactly one owner.</p>
  <form method="post" action="/dashboard/team/transfer" class="inline-form">
    ${csrfField(frame.csrf)}
    ${selectInput({ name: 'user_id', label: 'New owner', value: '', options: others.map((u) => [String(u.id), `${u.email} (${u.role})`]) })}
    <button type="submit" class="button danger">Hand over ownership</button>
  </form>
</section>`;
}

function eventsPanel(frame: PageFrame, events: TeamEvent[], log: TeamView['log']): Html | '' {
  if (events.length === 0 && !log.newestHref) return '';
  const pager =
    log.olderHref || log.newestHref
      ? html`<nav class="pager" aria-label="Pages of the log">
  <p>${log.newestHref ? html`<a class="button small" href="${log.newestHref}">Newest</a>` : ''}</p>
  <p>${log.olderHref ? html`<a class="button small" rel="next" href="${log.olderHref}">Older →</a>` : ''}</p>
</nav>`
      : '';
  return html`<section class="panel" aria-labelledby="log-heading">
  <h2 id="log-heading">Changes and security events</h2>
  ${events.length === 0 ? html`<p class="muted">No older lines.</p>` : html`<ul class="team-events">${events.map((e) => html`<li data-action="${e.action}"><span class="time">${formatDateTime(e.occurred_at, frame.timeZone)}</span> ${eventLine(e)}</li>`)}</ul>`}
  ${pager}
</section>`;
}

export function teamPage(frame: PageFrame, view: TeamView): Html {
  const manage = userMay(frame.session, 'team.manage');
  return dashboardLayout({
    ...frame,
    title: 'Team',
    body: html`<h1 class="page-title">Team</h1>
${alertBox(view.message, view.tone)}
${manage ? (view.stepUp ?? '') : ''}
<section class="panel" aria-labelledby="users-heading">
  <h2 id="users-heading">Users</h2>
  <div class="table-wrap" role="region" aria-label="Users" tabindex="0"><table class="records team">
    <caption class="visually-hidden">Users of your team</caption>
    <thead><tr><th scope="col">User</th><th scope="col">Role</th><th scope="col">Two-factor</th><th scope="col">Joined</th><th scope="col"></th></tr></thead>
    <tbody>${view.users.map((u) => userRow(frame, u, manage))}</tbody>
  </table></div>
  <p class="hint">Owner: everything. Admin: everything but handing ownership over. Developer: the API keys and webhooks. Finance: refunds, payouts and exports. Viewer: looks only.</p>
</section>
${invitationsPanel(frame, view.invitations, view.now, manage)}
${manage ? inviteForm(frame, view) : ''}
${userMay(frame.session, 'team.transfer') ? handOverForm(frame, view.users) : ''}
${eventsPanel(frame, view.events, view.log)}`,
  });
}

/**
 * The invitee's page: whose team, which role, and how they join: a new address chooses a password; an
 * address with an account gives its password (and code), or, logged in as it, only presses Join.
 */
export function invitationPage(view: {
  csrf: string;
  token: string;
  email: string;
  role: string;
  merchantName: string;
  /** The address has an account: whether this browser is logged in as it, and whether it has two-factor. */
  account?: { signedIn: boolean; twoFactor: boolean };
  message?: string;
}): Html {
  const { account } = view;
  const proof = !account
    ? html`${textInput({ name: 'password', label: 'Choose a password', type: 'password', autocomplete: 'new-password', required: true, hint: `At least ${TEAM_PASSWORD_MIN_LENGTH} characters.` })}
  ${textInput({ name: 'password_again', label: 'The same password again', type: 'password', autocomplete: 'new-password', required: true })}
  <button type="submit" class="primary">Join and log in</button>`
    : account.signedIn
      ? html`<button type="submit" class="primary">Join ${view.merchantName}</button>`
      : html`${textInput({ name: 'password', label: 'Your password', type: 'password', autocomplete: 'current-password', required: true })}
  ${account.twoFactor ? textInput({ name: 'code', label: 'Two-factor code', autocomplete: 'one-time-code', required: true, hint: 'The 6-digit code from your authenticator app, or a recovery code.', attributes: html` inputmode="text" maxlength="20"` }) : ''}
  <button type="submit" class="primary">Join and log in</button>`;
  const lead = !account
    ? html`<p class="lead">You are invited as <strong>${view.role}</strong>, as ${view.email}.</p>`
    : html`<p class="lead">You are invited as <strong>${view.role}</strong>, as ${view.email}. You have a Bhuktani account with this address: ${account.signedIn ? 'join with it' : 'log in with it to join'}. Your other businesses stay as they are; the switcher at the top takes you from one to another.</p>`;
  return publicLayout({
    title: 'Join your team',
    body: html`<h1>Join ${view.merchantName}</h1>
${lead}
${alertBox(view.message)}
<form method="post" action="/dashboard/invitation/${view.token}" class="stack">
  ${csrfField(view.csrf)}
  <input type="hidden" name="email" value="${view.email}" autocomplete="username">
  ${proof}
</form>
${account && !account.signedIn ? html`<p class="switch-form"><a href="/dashboard/forgot-password">Forgot your password?</a></p>` : ''}`,
  });
}
