// The operators page (admins only): who can sign in, with what role; open invitations; invite.
import { html, type Html } from '../http/html.js';
import type { InvitationRow } from '../people/invitation-store.js';
import { type Operator, OPERATOR_ROLES } from '../people/operator.js';
import { csrfField, notice } from './console-layout.js';
import { formatWhen } from './console-format.js';

const roleOptions = (selected: string) => OPERATOR_ROLES.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${role}</option>`);

export function operatorsBody(options: {
  csrf: string;
  me: number;
  operators: Operator[];
  invitations: InvitationRow[];
  now: Date;
  timeZone: string;
  done?: string;
  error?: string;
  values?: { email: string; role: string };
}): Html {
  const { csrf, timeZone } = options;
  return html`<h1>Operators</h1>
${notice(options.done)}${notice(options.error, 'error')}
<section class="panel">
  <h2>Invite an operator</h2>
  <form method="post" action="/console/operators/invite" class="row">
    ${csrfField(csrf)}
    <label>E-mail <input type="email" name="email" value="${options.values?.email ?? ''}" required maxlength="254"></label>
    <label>Role <select name="role">${roleOptions(options.values?.role ?? 'support')}</select></label>
    <button type="submit" class="primary">Send invitation</button>
  </form>
  <p class="muted">Admins do everything, including operators, merchant approval and fees; support reads everything, resolves Pending payments and freezes wallets; finance reads everything and moves payouts. The invitation link works once, for 7 days.</p>
</section>
<h2>Operators (${options.operators.length})</h2>
<div class="table-wrap" role="region" aria-label="Operators" tabindex="0"><table>
<thead><tr><th>E-mail</th><th>Role</th><th class="hide-narrow">Since</th><th>Change</th></tr></thead>
<tbody>${options.operators.map(
    (operator) => html`<tr data-operator="${operator.email}">
  <td>${operator.email}${operator.id === options.me ? html` <span class="muted">(you)</span>` : ''}${operator.totpEnrolledAt ? '' : html` <span class="muted">(setting up two-factor)</span>`}</td>
  <td><span class="role role-${operator.role}">${operator.role}</span></td>
  <td class="hide-narrow">${formatWhen(operator.createdAt, timeZone)}</td>
  <td>
    <form method="post" action="/console/operators/${operator.id}/role" class="row">${csrfField(csrf)}<label><span class="visually-hidden">Role of ${operator.email}</span><select name="role">${roleOptions(operator.role)}</select></label><button type="submit">Change role</button></form>
    <form method="post" action="/console/operators/${operator.id}/remove" class="row">${csrfField(csrf)}<label><span class="visually-hidden">Reason</span><input type="text" name="reason" placeholder="Reason (optional)" maxlength="500"></label><button type="submit" class="danger">Remove</button></form>
  </td>
</tr>`,
  )}</tbody>
</table></div>
<h2 class="spaced">Open invitations (${options.invitations.length})</h2>
${
  options.invitations.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<div class="table-wrap" role="region" aria-label="Open invitations" tabindex="0"><table>
<thead><tr><th>E-mail</th><th>Role</th><th>Link valid until</th><th></th></tr></thead>
<tbody>${options.invitations.map(
        (invitation) => html`<tr data-invitation="${invitation.email}">
  <td>${invitation.email}</td>
  <td>${invitation.role}</td>
  <td>${invitation.expires_at <= options.now ? html`<span class="status-bad">expired</span>` : formatWhen(invitation.expires_at, timeZone)}</td>
  <td>
    <form method="post" action="/console/operators/invitations/${invitation.id}/resend" class="inline">${csrfField(csrf)}<button type="submit">Resend</button></form>
    <form method="post" action="/console/operators/invitations/${invitation.id}/revoke" class="inline">${csrfField(csrf)}<button type="submit" class="danger">Revoke</button></form>
  </td>
</tr>`,
      )}</tbody>
</table></div>`
}
<p class="muted">Times in ${timeZone}.</p>`;
}
