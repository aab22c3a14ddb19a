// Sign-up, log-in (the password, then the two-factor code of a user who has it) and log-out. The
// public forms carry CSRF tokens too (a forged log-in would put the victim in the attacker's account).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { LogInError, logIn } from '../merchants/log-in.js';
import { completeSession, createSession, deleteSession, findSession, SESSION_COOKIE, sessionCookieOptions } from '../merchants/merchant-sessions.js';
import { sendVerificationEmail } from '../people/merchant-user-email.js';
import { checkUserCode } from '../people/merchant-user-two-factor.js';
import type { SessionStage } from '../people/session-store.js';
import { SignInError } from '../people/sign-in-error.js';
import { logInPage, signUpPage, welcomePage } from './account-pages.js';
import { doing, field, fieldMessages, formToken, formVerified, queryText, safeNext, sendPage, signedIn, type DashboardDeps } from './dashboard-request.js';
import { codePage } from './security-pages.js';
import { formExpired } from './dashboard-pages.js';

const LOGIN_NOTICES: Record<string, string> = {
  everywhere: 'You were logged out everywhere.',
  reset: 'Your password is changed and every session of your account has ended. Log in with the new password.',
};

export function registerAccount(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const open = { config: { public: true } };

  const startSession = async (request: FastifyRequest, reply: FastifyReply, options: { merchantId: number; userId: number; stage?: SessionStage }) => {
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
      // Only these three: the fee and the rest are the operator's to set. Test at once, live once approved.
      const created = await createMerchant(ctx, { ...values, password: field(request, 'password') }, { status: 'new' });
      const token = await startSession(request, reply, { merchantId: created.merchant.id, userId: created.owner.id });
      request.merchantSession = await findSession(ctx, { token });
      try {
        await sendVerificationEmail(ctx, created.owner);
      } catch (error) {
        // The account exists; the notice on every page offers to send the link again.
        request.log.error({ err: error }, 'verification e-mail not sent');
      }
      const frame = { session: request.merchantSession!, csrf: formToken(deps, request, reply), path: '/dashboard', timeZone: ctx.config.timeZone };
      return sendPage(reply, welcomePage(frame, { test: created.test_secret_key, live: created.live_secret_key, esewa: created.esewa }));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      const errors = fieldMessages(error);
      return sendPage(reply, signUpPage({ csrf: formToken(deps, request, reply), values, errors, message: 'Please correct the fields marked below.' }), 400);
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
      const { merchant, user } = await logIn(ctx, { email, password: field(request, 'password'), ip: request.ip });
      if (request.merchantSession) await deleteSession(ctx, { sessionId: request.merchantSession.id });
      const stage = user.totp_enrolled_at ? 'second_factor' : 'signed_in';
      await startSession(request, reply, { merchantId: merchant.id, userId: user.id, stage });
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
      await checkUserCode(ctx, { userId: session.user.id, code: field(request, 'code'), purpose: 'to log in' });
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
