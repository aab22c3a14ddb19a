// "Forgot your password?": the form sends a single-use link valid one hour (the same answer whether
// the e-mail has an account or not); the link's page sets a new password, which ends every session
// of the user. Dead, wrong and guessed links are counted per address, like log-ins.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../http/errors.js';
import { SESSION_COOKIE } from '../merchants/merchant-sessions.js';
import { requestPasswordReset, resetLinkOwner, resetPassword } from '../people/merchant-user-password.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import { formExpired, messagePage } from './dashboard-pages.js';
import { field, fieldMessages, formToken, formVerified, sendPage, signedIn, type DashboardDeps } from './dashboard-request.js';
import { forgotPasswordPage, resetPasswordPage } from './security-pages.js';

export function registerPasswordReset(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const open = { config: { public: true } };

  app.get('/forgot-password', open, async (request, reply) => {
    if (signedIn(request)) return reply.code(303).redirect('/dashboard/account');
    return sendPage(reply, forgotPasswordPage({ csrf: formToken(deps, request, reply) }));
  });

  app.post('/forgot-password', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const email = field(request, 'email').trim();
    if (!email) return sendPage(reply, forgotPasswordPage({ csrf: formToken(deps, request, reply), message: 'Enter the e-mail you log in with.' }), 400);
    // Answered the same either way: a mail server's failure must not tell who has an account.
    await requestPasswordReset(ctx, { email, onMailError: (error) => request.log.error({ err: error }, 'password reset e-mail not sent') });
    return sendPage(reply, forgotPasswordPage({ csrf: formToken(deps, request, reply), email, sent: true }));
  });

  const deadLink = (request: Parameters<typeof messagePage>[1], reply: FastifyReply, error: SignInError) => {
    const refusal = linkRefusal(error, 'This link is not valid: it was used already, it expired (links work for one hour), or a newer one was sent.');
    reply.headers(refusal.headers);
    return messagePage(deps, request, reply, refusal.status, { title: 'Link not valid', message: refusal.message, link: { href: '/dashboard/forgot-password', text: 'Send a new link' } });
  };

  app.get('/reset-password/:token', open, async (request, reply) => {
    const { token } = request.params as { token: string };
    try {
      const owner = await resetLinkOwner(ctx, { token, ip: request.ip });
      return sendPage(reply, resetPasswordPage({ csrf: formToken(deps, request, reply), token, email: owner.email }));
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      return deadLink(request, reply, error);
    }
  });

  app.post('/reset-password/:token', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { token } = request.params as { token: string };
    try {
      await resetPassword(ctx, { token, password: field(request, 'password'), ip: request.ip });
      reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
      return reply.code(303).redirect('/dashboard/login?done=reset');
    } catch (error) {
      if (error instanceof SignInError) return deadLink(request, reply, error);
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      const owner = await resetLinkOwner(ctx, { token, ip: request.ip });
      return sendPage(reply, resetPasswordPage({ csrf: formToken(deps, request, reply), token, email: owner.email, error: fieldMessages(error).password }), 400);
    }
  });
}
