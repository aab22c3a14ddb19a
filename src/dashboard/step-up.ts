// Step-up: the changes that would let someone who took over a session take the money or the
// integration — the bank account, a live key, the team — ask the user to prove who they are again.
// A proof counts for STEP_UP_FRESH_SECONDS (the log-in itself is one): within it the form goes
// through as it is; after it, the form carries one more field, a code from the app (or a recovery
// code) for a user with two-factor, the password for one without. One function every such route
// calls before it acts, so no route asks it differently.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { html, type Html } from '../http/html.js';
import { confirmSession, type MerchantSession } from '../merchants/merchant-sessions.js';
import { checkUserCode } from '../people/merchant-user-two-factor.js';
import { checkUserPassword } from '../people/merchant-user-password.js';
import { SignInError } from '../people/sign-in-error.js';
import { field, sessionOf } from './dashboard-request.js';
import { textInput } from './form-controls.js';

export const STEP_UP_FRESH_SECONDS = 5 * 60;
export const STEP_UP_FIELD = 'confirm_identity';

/** Has the user proved who they are within the last few minutes? */
export function freshlyConfirmed(ctx: AppContext, session: MerchantSession): boolean {
  return session.confirmedAt !== null && ctx.clock.now().getTime() - session.confirmedAt.getTime() < STEP_UP_FRESH_SECONDS * 1000;
}

/** The field a changing form carries while the session is not freshly confirmed ('' when it is). */
export function stepUpField(ctx: AppContext, session: MerchantSession, error?: string): Html | '' {
  if (freshlyConfirmed(ctx, session)) return '';
  const twoFactor = session.user.totp_enrolled_at !== null;
  return html`<fieldset class="step-up">
  <legend>Confirm it is you</legend>
  ${textInput(
    twoFactor
      ? { name: STEP_UP_FIELD, label: 'Two-factor code', autocomplete: 'one-time-code', required: true, error, hint: 'The 6-digit code from your authenticator app, or a recovery code.', attributes: html` inputmode="text" maxlength="20"` }
      : { name: STEP_UP_FIELD, label: 'Your password', type: 'password', autocomplete: 'current-password', required: true, error, hint: 'This change needs your password again.' },
  )}
</fieldset>`;
}

/**
 * For a page of many small forms (the team page): one box at the top that confirms the session
 * (POST /dashboard/account/confirm) and comes back, instead of a field in every form.
 */
export function stepUpBox(ctx: AppContext, session: MerchantSession, view: { csrf: string; back: string }): Html | '' {
  if (freshlyConfirmed(ctx, session)) return '';
  return html`<form method="post" action="/dashboard/account/confirm" class="panel stack step-up-box">
  <input type="hidden" name="csrf_token" value="${view.csrf}">
  <input type="hidden" name="back" value="${view.back}">
  <p>Changes here need you to confirm it is you (once, for the next ${STEP_UP_FRESH_SECONDS / 60} minutes).</p>
  ${stepUpField(ctx, session)}
  <button type="submit" class="primary">Confirm</button>
</form>`;
}

export interface StepUpRefusal {
  status: 401 | 429;
  message: string;
}

/**
 * Undefined when the session may go ahead (fresh, or the field proved it now: the session is then
 * fresh again); otherwise why not, for the route to show the form again with the field.
 */
export async function stepUp(ctx: AppContext, request: FastifyRequest): Promise<StepUpRefusal | undefined> {
  const session = sessionOf(request);
  if (freshlyConfirmed(ctx, session)) return undefined;
  const value = field(request, STEP_UP_FIELD);
  if (!value) return { status: 401, message: session.user.totp_enrolled_at ? 'Enter a code from your authenticator app to confirm this change.' : 'Enter your password to confirm this change.' };
  try {
    if (session.user.totp_enrolled_at) await checkUserCode(ctx, { personId: session.user.person_id, code: value, purpose: 'to confirm a change' });
    else await checkUserPassword(ctx, { personId: session.user.person_id, password: value });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    if (error.code === 'locked') return { status: 429, message: error.message };
    return { status: 401, message: session.user.totp_enrolled_at ? error.message : 'That is not your password.' };
  }
  await confirmSession(ctx, { sessionId: session.id });
  session.confirmedAt = ctx.clock.now();
  return undefined;
}
