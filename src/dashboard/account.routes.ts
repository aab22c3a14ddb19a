// Sign-up, log-in and log-out. The two public forms carry CSRF tokens too (a forged log-in would
// put the victim in the attacker's account).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { LogInError, logIn } from '../merchants/log-in.js';
import { createSession, deleteSession, findSession, SESSION_COOKIE, sessionCookieOptions } from '../merchants/merchant-sessions.js';
import { logInPage, signUpPage, welcomePage } from './account-pages.js';
import { doing, field, fieldMessages, formToken, formVerified, queryText, safeNext, sendPage, type DashboardDeps } from './dashboard-request.js';
import { formExpired } from './dashboard-pages.js';

export function registerAccount(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const open = { config: { public: true } };

  const startSession = async (reply: FastifyReply, merchantId: number, userId: number) => {
    const { token } = await createSession(ctx, { merchantId, userId });
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(ctx.config));
    return token;
  };

  const loggedInAlready = (request: FastifyRequest) => request.merchantSession !== undefined;

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
      const token = await startSession(reply, created.merchant.id, created.owner.id);
      request.merchantSession = await findSession(ctx, { token });
      const frame = { session: request.merchantSession!, csrf: formToken(deps, request, reply), path: '/dashboard', timeZone: ctx.config.timeZone };
      return sendPage(reply, welcomePage(frame, { test: created.test_secret_key, live: created.live_secret_key }));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      const errors = fieldMessages(error);
      return sendPage(reply, signUpPage({ csrf: formToken(deps, request, reply), values, errors, message: 'Please correct the fields marked below.' }), 400);
    }
  });

  app.get('/login', open, async (request, reply) => {
    const next = safeNext(queryText(request, 'next'));
    if (loggedInAlready(request)) return reply.code(303).redirect(next ?? '/dashboard');
    return sendPage(reply, logInPage({ csrf: formToken(deps, request, reply), next }));
  });

  app.post('/login', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const email = field(request, 'email').trim();
    const next = safeNext(field(request, 'next'));
    try {
      const { merchant, user } = await logIn(ctx, { email, password: field(request, 'password'), ip: request.ip });
      if (request.merchantSession) await deleteSession(ctx, { sessionId: request.merchantSession.id });
      await startSession(reply, merchant.id, user.id);
      return reply.code(303).redirect(next ?? '/dashboard');
    } catch (error) {
      if (!(error instanceof LogInError)) throw error;
      const page = logInPage({ csrf: formToken(deps, request, reply), email, next, message: error.message });
      if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
      return sendPage(reply, page, error.code === 'locked' ? 429 : 401);
    }
  });

  app.post('/logout', doing('view'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    await deleteSession(ctx, { sessionId: request.merchantSession!.id });
    reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return reply.code(303).redirect('/dashboard/login');
  });
}
