// Sign-up (the form, then its e-mailed link: merchants/sign-up.ts), log-in (the password, then the
// two-factor code of a person who has it) and log-out. The public forms carry CSRF tokens too (a
// forged log-in would put the victim in the attacker's account).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import type { CreatedMerchant } from '../merchants/create-merchant.js';
import { LogInError, logIn } from '../merchants/log-in.js';
import type { MerchantUser } from '../merchants/merchant-user.js';
import { completeSession, createSession, deleteSession, findSession, SESSION_COOKIE, sessionCookieOptions } from '../merchants/merchant-sessions.js';
import { checkUserCode } from '../people/merchant-user-two-factor.js';
import type { SessionStage } from '../people/session-store.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import { finishSignUp, requestSignUp, usableSignUp } from '../merchants/sign-up.js';
import { checkEmailPage, finishSignUpPage, logInPage, signUpPage, welcomePage } from './account-pages.js';
import { field, fieldMessages, formToken, formVerified, queryText, safeNext, sendPage, signedIn, type DashboardDeps } from './dashboard-request.js';
import { codePage } from './security-pages.js';
import { formExpired, messagePage } from './dashboard-pages.js';

const LOGIN_NOTICES: Record<string, string> = {
  everywhere: 'You were logged out everywhere.',
  reset: 'Your password is changed and every session of your account has ended. Log in with the new password.',
};

export function registerAccount(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const open = { config: { public: true } };

  const startSession = async (request: FastifyRequest, reply: FastifyReply, options: { user: MerchantUser; stage?: SessionStage }) => {
    const { token } = await createSession(ctx, { ...options, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(ctx.config));
    return token;
  };

  const loggedInAlready = signedIn;
  const halfway = { config: { public: true, halfway: true } };

  app.get('/signup', open, async (request, reply) => {
    if (loggedInAlready(request)) return reply.code(303).redirect('/dashboard');
    return sendPage(reply, signUpPage({ csrf: formToken(deps, request, reply) }));
  });

  app.post('/signup', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const values = { name: field(request, 'name'), email: field(request, 'email') };
    try {
      // Only these three: the fee and the rest are the operator's to set.
      await requestSignUp(ctx, { ...values, password: field(request, 'password') }, (error) => request.log.error({ err: error }, 'sign-up e-mail not sent'));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      const errors = fieldMessages(error);
      return sendPage(reply, signUpPage({ csrf: formToken(deps, request, reply), values, errors, message: 'Please correct the fields marked below.' }), 400);
    }
    // The same page whether the address has an account or not: its e-mail says which.
    return sendPage(reply, checkEmailPage({ email: values.email.trim(), mailInLog: ctx.mailer.kind === 'log' }));
  });

  // ---- the sign-up's link ----------------------------------------------------------------------
  const signUpToken = (request: FastifyRequest) => (request.params as { token: string }).token;
  const deadSignUp = (request: FastifyRequest, reply: FastifyReply, error: SignInError) => {
    const refusal = linkRefusal(error, 'It was used already, or is more than 24 hours old. Sign up again, or log in if you finished signing up.');
    reply.headers(refusal.headers);
    return messagePage(deps, request, reply, refusal.status, { title: 'This sign-up link cannot be used', message: refusal.message, link: { href: '/dashboard/login', text: 'Log in' } });
  };

  app.get('/signup/:token', open, async (request, reply) => {
    try {
      const signUp = await usableSignUp(ctx, { token: signUpToken(request), ip: request.ip });
      return sendPage(reply, finishSignUpPage({ csrf: formToken(deps, request, reply), token: signUpToken(request), ...signUp }));
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      return deadSignUp(request, reply, error);
    }
  });

  app.post('/signup/:token', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const token = signUpToken(request);
    try {
      const signUp = await usableSignUp(ctx, { token, ip: request.ip });
      let created: CreatedMerchant | undefined;
      try {
        created = await finishSignUp(ctx, { token });
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
        return sendPage(reply, finishSignUpPage({ csrf: formToken(deps, request, reply), token, ...signUp, message: error.message }), 409);
      }
      // Spent meanwhile (pressed twice at once): dead now.
      if (!created) return deadSignUp(request, reply, new SignInError('wrong_code'));
      // Whoever was logged in in this browser is not any more: the new owner is.
      if (request.merchantSession) await deleteSession(ctx, { sessionId: request.merchantSession.id });
      const sessionToken = await startSession(request, reply, { user: created.owner });
      request.merchantSession = await findSession(ctx, { token: sessionToken });
      const frame = { session: request.merchantSession!, csrf: formToken(deps, request, reply), path: '/dashboard', timeZone: ctx.config.timeZone };
      return sendPage(reply, welcomePage(frame, { test: created.test_secret_key, live: created.live_secret_key, esewa: created.esewa }));
    } catch (error) {
      if (error instanceof SignInError) return deadSignUp(request, reply, error);
      throw error;
    }
  });

  app.get('/login', open, async (request, reply) => {
    const next = safeNext(queryText(request, 'next'));
    if (loggedInAlready(request)) return reply.code(303).redirect(next ?? '/dashboard');
    return sendPage(reply, logInPage({ csrf: formToken(deps, request, reply), next, notice: LOGIN_NOTICES[queryText(request, 'done')] }));
  });

  app.post('/login', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const email = field(request, 'email').trim();
    const next = safeNext(field(request, 'next'));
    try {
      const { user } = await logIn(ctx, { email, password: field(request, 'password'), ip: request.ip });
      if (request.merchantSession) await deleteSession(ctx, { sessionId: request.merchantSession.id });
      const stage = user.totp_enrolled_at ? 'second_factor' : 'signed_in';
      await startSession(request, reply, { user, stage });
      if (stage === 'second_factor') return reply.code(303).redirect(`/dashboard/login/code${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      return reply.code(303).redirect(next ?? '/dashboard');
    } catch (error) {
      if (!(error instanceof LogInError)) throw error;
      const page = logInPage({ csrf: formToken(deps, request, reply), email, next, message: error.message });
      if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
      return sendPage(reply, page, error.code === 'locked' ? 429 : 401);
    }
  });

  app.get('/login/code', halfway, async (request, reply) => {
    const session = request.merchantSession;
    if (signedIn(request)) return reply.code(303).redirect('/dashboard');
    if (session?.stage !== 'second_factor') return reply.code(303).redirect('/dashboard/login');
    return sendPage(reply, codePage({ csrf: formToken(deps, request, reply), email: session.user.email, next: safeNext(queryText(request, 'next')) }));
  });

  app.post('/login/code', halfway, async (request, reply) => {
    const session = request.merchantSession;
    if (session?.stage !== 'second_factor') return reply.code(303).redirect('/dashboard/login');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const next = safeNext(field(request, 'next'));
    try {
      await checkUserCode(ctx, { personId: session.user.person_id, code: field(request, 'code'), purpose: 'to log in' });
      await completeSession(ctx, { sessionId: session.id });
      return reply.code(303).redirect(next ?? '/dashboard');
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
      return sendPage(reply, codePage({ csrf: formToken(deps, request, reply), email: session.user.email, next, message: error.message }), error.code === 'locked' ? 429 : 401);
    }
  });

  app.post('/logout', { config: { action: 'view', halfway: true } }, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    await deleteSession(ctx, { sessionId: request.merchantSession!.id });
    reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return reply.code(303).redirect('/dashboard/login');
  });
}
