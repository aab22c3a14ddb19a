// A user's own account safety under /dashboard/account: the Security page, setting up and turning
// off two-factor, new recovery codes, changing the password, the team's two-factor requirement
// (owner), the sessions list with "log out everywhere", and the e-mail verification link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { qrSvg } from '../http/two-factor-setup.js';
import { completeSession, endSessionByRef, listSessions, logOutEverywhere, SESSION_COOKIE } from '../merchants/merchant-sessions.js';
import { sendVerificationEmail, verifyEmail } from '../people/merchant-user-email.js';
import { changeUserPassword } from '../people/merchant-user-password.js';
import { confirmEnrolment, enrolmentSecret, regenerateUserRecoveryCodes, turnOffTwoFactor, unusedRecoveryCodes } from '../people/merchant-user-two-factor.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import { setTeamTwoFactor } from '../people/team-two-factor.js';
import { formExpired, frameOf, messagePage } from './dashboard-pages.js';
import { doing, field, fieldMessages, formToken, formVerified, queryText, safeNext, sendPage, sessionOf, signedIn, type DashboardDeps } from './dashboard-request.js';
import { anyTeamRequiresTwoFactor } from '../merchants/merchant-user-store.js';
import { may } from '../people/merchant-permissions.js';
import { businessSwitcher } from './layout.js';
import { stepUp } from './step-up.js';
import { accountPage, type AccountView, enrolPage, recoveryCodesPage, sessionsPage } from './security-pages.js';

const DONE: Record<string, string> = {
  password: 'Password changed. Your other sessions were logged out.',
  'two-factor-off': 'Two-factor log-in is off.',
  'team-on': 'Two-factor is now required for everyone on your team.',
  'team-off': 'Two-factor is no longer required for your team.',
  verify: 'We sent the link again. It works once, for 24 hours.',
  verified: 'Your e-mail address is confirmed.',
  session: 'That session was logged out.',
};

export function registerSecurity(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const halfway = { config: { action: 'view' as const, halfway: true } };
  const own = doing('view');

  const show = async (request: FastifyRequest, reply: FastifyReply, extra: Partial<AccountView> = {}, status = 200) => {
    const { user } = sessionOf(request);
    const view: AccountView = {
      twoFactorOn: user.totp_enrolled_at !== null,
      twoFactorRequired: await anyTeamRequiresTwoFactor(ctx.db, user.person_id),
      unusedCodes: user.totp_enrolled_at ? await unusedRecoveryCodes(ctx, user.person_id) : 0,
      isOwner: may(user.role, 'team.require_two_factor'),
      done: DONE[queryText(request, 'done')],
      ...extra,
    };
    return sendPage(reply, accountPage(frameOf(deps, request, reply, 'account'), view), status);
  };

  /** A refused code or password (shown beside its field), or a state that does not allow the change. */
  const refused = (request: FastifyRequest, reply: FastifyReply, error: unknown, fieldName: string) => {
    if (error instanceof SignInError) {
      if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
      return show(request, reply, { errors: { [fieldName]: error.message } }, error.code === 'locked' ? 429 : 401);
    }
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'validation_error') return show(request, reply, { errors: fieldMessages(error) }, 400);
    return show(request, reply, { error: error.message }, error.status);
  };

  app.get('/account', own, (request, reply) => show(request, reply));

  const enrolment = async (request: FastifyRequest, reply: FastifyReply, message?: string, status = 200) => {
    const session = sessionOf(request);
    const secret = await enrolmentSecret(ctx, { personId: session.user.person_id });
    if (!secret) return reply.code(303).redirect('/dashboard/account');
    const csrf = formToken(deps, request, reply);
    const otherBusinesses = session.requireTwoFactor && session.memberships.length > 1 ? businessSwitcher(session, csrf) : undefined;
    const view = { csrf, email: session.user.email, secret: secret.secret, qrSvg: await qrSvg(secret.uri), required: session.requireTwoFactor, otherBusinesses, message };
    return sendPage(reply, enrolPage(signedIn(request) ? frameOf(deps, request, reply, 'account') : undefined, view), status);
  };

  app.get('/account/two-factor', halfway, async (request, reply) => {
    if (sessionOf(request).stage === 'second_factor') return reply.code(303).redirect('/dashboard/login/code');
    return enrolment(request, reply);
  });

  app.post('/account/two-factor', halfway, async (request, reply) => {
    const session = sessionOf(request);
    if (session.stage === 'second_factor') return reply.code(303).redirect('/dashboard/login/code');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    try {
      const codes = await confirmEnrolment(ctx, { personId: session.user.person_id, code: field(request, 'code') });
      await completeSession(ctx, { sessionId: session.id });
      session.stage = 'signed_in';
      session.user = { ...session.user, totp_enrolled_at: ctx.clock.now() };
      return sendPage(reply, recoveryCodesPage(frameOf(deps, request, reply, 'account'), { codes, intro: 'Two-factor log-in is on: your authenticator app is set up.' }));
    } catch (error) {
      if (error instanceof SignInError) {
        if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
        return enrolment(request, reply, error.message, error.code === 'locked' ? 429 : 401);
      }
      if (error instanceof AppError && error.code === 'conflict') return reply.code(303).redirect('/dashboard/account');
      throw error;
    }
  });

  app.post('/account/two-factor/recovery-codes', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    try {
      const codes = await regenerateUserRecoveryCodes(ctx, { personId: sessionOf(request).user.person_id, code: field(request, 'code') });
      return sendPage(reply, recoveryCodesPage(frameOf(deps, request, reply, 'account'), { codes, intro: 'Your new recovery codes: the old ones no longer work.' }));
    } catch (error) {
      return refused(request, reply, error, 'codes');
    }
  });

  app.post('/account/two-factor/off', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    try {
      await turnOffTwoFactor(ctx, { personId: session.user.person_id, code: field(request, 'off_code') });
      return reply.code(303).redirect('/dashboard/account?done=two-factor-off');
    } catch (error) {
      return refused(request, reply, error, 'off');
    }
  });

  app.post('/account/password', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    try {
      await changeUserPassword(ctx, { personId: session.user.person_id, sessionId: session.id, currentPassword: field(request, 'current_password'), newPassword: field(request, 'new_password') });
      return reply.code(303).redirect('/dashboard/account?done=password');
    } catch (error) {
      return refused(request, reply, error, 'current_password');
    }
  });

  app.post('/account/team-two-factor', doing('team.require_two_factor'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const required = field(request, 'required') === 'yes';
    try {
      await setTeamTwoFactor(ctx, { user: sessionOf(request).user, required });
      return reply.code(303).redirect(`/dashboard/account?done=${required ? 'team-on' : 'team-off'}`);
    } catch (error) {
      return refused(request, reply, error, 'team');
    }
  });

  app.post('/account/verify-email', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { user } = sessionOf(request);
    if (user.email_verified_at) return reply.code(303).redirect('/dashboard/account');
    if (!(await sendVerificationEmail(ctx, { personId: user.person_id, email: user.email, emailVerifiedAt: user.email_verified_at }))) return show(request, reply, { error: 'We sent several links just now. Wait a minute, then try again.' }, 429);
    return reply.code(303).redirect('/dashboard/account?done=verify');
  });

  // Followed from the e-mail, logged in or not (a link in an e-mail may open in another browser).
  app.get('/verify-email/:token', { config: { public: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    try {
      await verifyEmail(ctx, { token, ip: request.ip });
      if (signedIn(request)) return reply.code(303).redirect('/dashboard/account?done=verified');
      return messagePage(deps, request, reply, 200, { title: 'E-mail confirmed', message: 'Your e-mail address is confirmed. Log in to continue.', link: { href: '/dashboard/login', text: 'Log in' } });
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const refusal = linkRefusal(error, 'This link is not valid: it was used already, it expired, or a newer one was sent. Log in and send a new one from the notice at the top.');
      reply.headers(refusal.headers);
      return messagePage(deps, request, reply, refusal.status, { title: 'Link not valid', message: refusal.message, link: { href: '/dashboard', text: 'Go to the dashboard' } });
    }
  });

  // The step-up box of a page of many forms: proves who the user is, then back to that page.
  app.post('/account/confirm', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const back = safeNext(field(request, 'back')) ?? '/dashboard';
    const refusal = await stepUp(ctx, request);
    if (refusal) return messagePage(deps, request, reply, refusal.status, { title: 'Not confirmed', message: refusal.message, link: { href: back, text: 'Back' } });
    return reply.code(303).redirect(back);
  });

  app.get('/account/sessions', own, async (request, reply) => {
    const session = sessionOf(request);
    const sessions = await listSessions(ctx, { personId: session.user.person_id, currentId: session.id });
    return sendPage(reply, sessionsPage(frameOf(deps, request, reply, 'account'), { sessions, done: DONE[queryText(request, 'done')] }));
  });

  app.post('/account/sessions/end', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const ended = await endSessionByRef(ctx, { personId: sessionOf(request).user.person_id, ref: field(request, 'session') });
    return reply.code(303).redirect(ended ? '/dashboard/account/sessions?done=session' : '/dashboard/account/sessions');
  });

  app.post('/account/sessions/end-all', own, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    await logOutEverywhere(ctx, { personId: sessionOf(request).user.person_id });
    reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return reply.code(303).redirect('/dashboard/login?done=everywhere');
  });
}
