// Operators (admins only): invite by e-mail, resend or revoke an invitation, change a role, remove
// an operator. Each form posts, is audited by its use case, and redirects back (PRG).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { listOpenInvitations, OPERATOR_INVITATIONS } from '../people/invitation-store.js';
import { listOperators } from '../people/operator-store.js';
import { inviteOperator, resendInvitation, revokeInvitation } from '../people/operator-invitations.js';
import { changeOperatorRole, removeOperator } from '../people/manage-operators.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { operatorsBody } from './operators-pages.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

const DONE: Record<string, string> = {
  invited: 'Invitation sent.',
  resent: 'Invitation sent again with a new link; the old link no longer works.',
  revoked: 'Invitation revoked.',
  role: 'Role changed. The operator was signed out and signs in again with the new role.',
  removed: 'Operator removed and signed out.',
};

const idParam = (request: FastifyRequest) => {
  const id = (request.params as { id: string }).id;
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
};

const problemOf = (error: AppError) => (error.fields ? Object.values(error.fields).flat().join(' ') : error.message);

export function registerConsoleOperators(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const manage = { config: { permission: 'operators.manage' as const } };

  const page = async (request: FastifyRequest, reply: FastifyReply, extra: { error?: string; values?: { email: string; role: string } } = {}, status = 200) => {
    const { operator } = operatorOf(request);
    const [operators, invitations] = await Promise.all([listOperators(ctx.db), listOpenInvitations(ctx.db, OPERATOR_INVITATIONS)]);
    const csrf = formToken(deps, request, reply);
    const done = DONE[queryText(request, 'done')];
    const body = operatorsBody({ csrf, me: operator.id, operators, invitations, now: ctx.clock.now(), timeZone: ctx.config.timeZone, done, ...extra });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Operators', operator, csrf, body, active: 'operators' }), status);
  };

  /** Runs a form's use case: back to the list with a notice, or the list with the problem. */
  const act = async (request: FastifyRequest, reply: FastifyReply, done: string, work: () => Promise<unknown>, values?: { email: string; role: string }) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    try {
      await work();
      return reply.code(303).redirect(`/console/operators?done=${done}`);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.code === 'not_found' && !values) return notFound(deps, request, reply, 'operator or invitation');
      reply.headers(error.headers);
      return page(request, reply, { error: problemOf(error), values }, error.status);
    }
  };

  const withId = (work: (id: number, request: FastifyRequest) => Promise<unknown>, done: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const id = idParam(request);
    if (id === undefined) return notFound(deps, request, reply);
    return act(request, reply, done, () => work(id, request));
  };

  const admin = (request: FastifyRequest) => actorOf(request) as ReturnType<typeof actorOf> & { kind: 'operator' };

  app.get('/operators', manage, (request, reply) => page(request, reply));

  app.post('/operators/invite', manage, (request, reply) => {
    const values = { email: field(request, 'email').trim(), role: field(request, 'role') };
    return act(request, reply, 'invited', () => inviteOperator(ctx, { ...values, actor: admin(request) }), values);
  });
  app.post('/operators/invitations/:id/resend', manage, withId((id, request) => resendInvitation(ctx, { invitationId: id, actor: admin(request) }), 'resent'));
  app.post('/operators/invitations/:id/revoke', manage, withId((id, request) => revokeInvitation(ctx, { invitationId: id, actor: actorOf(request) }), 'revoked'));
  app.post('/operators/:id/role', manage, withId((id, request) => changeOperatorRole(ctx, { operatorId: id, role: field(request, 'role'), actor: actorOf(request) }), 'role'));
  app.post('/operators/:id/remove', manage, withId((id, request) => removeOperator(ctx, { operatorId: id, actor: actorOf(request), reason: field(request, 'reason').trim().slice(0, 500) }), 'removed'));
}
