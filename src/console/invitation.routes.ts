// An invited operator opens the e-mailed link, chooses a password (the link is spent), and goes on
// to the TOTP enrolment (sign-in.routes.ts) in a half-way session. Wrong and dead links count
// against the address like every e-mailed link's (people/link-guesses.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import type { InvitationRow } from '../people/invitation-store.js';
import { acceptInvitation, usableInvitation } from '../people/operator-invitations.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import { endSession, OPERATOR_SESSIONS, sessionCookieOptions, startSession } from '../people/sessions.js';
import { formExpired, messagePage } from './console-pages.js';
import { type ConsoleDeps, field, formToken, formVerified, sendPage } from './console-request.js';
import { invitationPage } from './sign-in-pages.js';

const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

export function registerConsoleInvitation(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const signedOut = { config: { permission: 'signed-out' as const } };
  /** A link that cannot be used: dead or wrong, or this address guessed at links too often (people/link-guesses.ts). */
  const unusable = (request: FastifyRequest, reply: FastifyReply, error: SignInError) => {
    const refusal = linkRefusal(error, 'It was used already, revoked, or is more than 7 days old. Ask an admin to send you a new invitation.');
    reply.headers(refusal.headers);
    return messagePage(deps, request, reply, refusal.status, { title: 'This invitation link cannot be used', message: refusal.message });
  };
  const showInvitation = (request: FastifyRequest, reply: FastifyReply, invitation: InvitationRow, message?: string, status = 200) =>
    sendPage(reply, invitationPage({ csrf: formToken(deps, request, reply), token: tokenOf(request), email: invitation.email, role: invitation.role, message }), status);

  app.get('/invitation/:token', signedOut, async (request, reply) => {
    try {
      return showInvitation(request, reply, await usableInvitation(ctx, { token: tokenOf(request), ip: request.ip }));
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      return unusable(request, reply, error);
    }
  });

  app.post('/invitation/:token', signedOut, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const link = { token: tokenOf(request), ip: request.ip };
    let invitation: InvitationRow | undefined;
    try {
      invitation = await usableInvitation(ctx, link);
      const password = field(request, 'password');
      if (password !== field(request, 'password_again')) return showInvitation(request, reply, invitation, 'The two passwords differ.', 400);
      const operator = await acceptInvitation(ctx, { invitation, token: link.token, password });
      // Spent meanwhile (the same link accepted twice at once): dead now.
      if (!operator) return unusable(request, reply, new SignInError('wrong_code'));
      const current = request.operatorSession?.id ?? request.halfwaySession?.session.id;
      if (current) await endSession(ctx.db, { sessionId: current });
      const { token: sessionToken } = await startSession(ctx.db, OPERATOR_SESSIONS, { accountId: operator.id, stage: 'enrolment', now: ctx.clock.now() });
      reply.setCookie(OPERATOR_SESSIONS.cookie, sessionToken, sessionCookieOptions(OPERATOR_SESSIONS, ctx.config));
      return reply.code(303).redirect('/console/enrol');
    } catch (error) {
      if (error instanceof SignInError) return unusable(request, reply, error);
      if (!(error instanceof AppError) || error.code !== 'validation_error' || !invitation) throw error;
      return showInvitation(request, reply, invitation, Object.values(error.fields ?? {}).flat().join(' ') || error.message, 400);
    }
  });
}
