// An invited operator opens the e-mailed link, chooses a password (the link is spent), and goes on
// to the TOTP enrolment (sign-in.routes.ts) in a half-way session.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { acceptInvitation, usableInvitation } from '../people/operator-invitations.js';
import { endSession, OPERATOR_SESSIONS, sessionCookieOptions, startSession } from '../people/sessions.js';
import { formExpired, messagePage } from './console-pages.js';
import { type ConsoleDeps, field, formToken, formVerified, sendPage } from './console-request.js';
import { invitationPage } from './sign-in-pages.js';

const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

export function registerConsoleInvitation(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const signedOut = { config: { permission: 'signed-out' as const } };
  const unusable = { title: 'This invitation link cannot be used', message: 'It was used already, revoked, or is more than 7 days old. Ask an admin to send you a new invitation.' };

  app.get('/invitation/:token', signedOut, async (request, reply) => {
    const invitation = await usableInvitation(ctx, tokenOf(request));
    if (!invitation) return messagePage(deps, request, reply, 404, unusable);
    return sendPage(reply, invitationPage({ csrf: formToken(deps, request, reply), token: tokenOf(request), email: invitation.email, role: invitation.role }));
  });

  app.post('/invitation/:token', signedOut, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const token = tokenOf(request);
    const invitation = await usableInvitation(ctx, token);
    if (!invitation) return messagePage(deps, request, reply, 404, unusable);
    const again = (message: string) => sendPage(reply, invitationPage({ csrf: formToken(deps, request, reply), token, email: invitation.email, role: invitation.role, message }), 400);
    const password = field(request, 'password');
    if (password !== field(request, 'password_again')) return again('The two passwords differ.');
    try {
      const operator = await acceptInvitation(ctx, { token, password });
      if (!operator) return messagePage(deps, request, reply, 404, unusable);
      const current = request.operatorSession?.id ?? request.halfwaySession?.session.id;
      if (current) await endSession(ctx.db, { sessionId: current });
      const { token: sessionToken } = await startSession(ctx.db, OPERATOR_SESSIONS, { accountId: operator.id, stage: 'enrolment', now: ctx.clock.now() });
      reply.setCookie(OPERATOR_SESSIONS.cookie, sessionToken, sessionCookieOptions(OPERATOR_SESSIONS, ctx.config));
      return reply.code(303).redirect('/console/enrol');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      return again(Object.values(error.fields ?? {}).flat().join(' ') || error.message);
    }
  });
}
