// Your own account: change your password, make new recovery codes (shown once).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { changeOwnPassword, regenerateRecoveryCodes } from '../people/manage-operators.js';
import { countUnusedRecoveryCodes } from '../people/recovery-code-store.js';
import { accountBody } from './account-pages.js';
import { consolePage } from './console-layout.js';
import { formExpired } from './console-pages.js';
import { type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

export function registerConsoleAccount(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const read = { config: { permission: 'read' as const } };

  const page = async (request: FastifyRequest, reply: FastifyReply, extra: { error?: string; codes?: string[] } = {}, status = 200) => {
    const { operator } = operatorOf(request);
    const csrf = formToken(deps, request, reply);
    const done = queryText(request, 'done') === 'password' ? 'Password changed. Your other sessions were signed out.' : undefined;
    const body = accountBody({ csrf, email: operator.email, role: operator.role, unusedCodes: await countUnusedRecoveryCodes(ctx.db, 'operator', operator.id), done, ...extra });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Your account', operator, csrf, body, active: 'account' }), status);
  };

  const refused = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
    return page(request, reply, { error: Object.values(error.fields ?? {}).flat().join(' ') }, 400);
  };

  app.get('/account', read, (request, reply) => page(request, reply));

  app.post('/account/password', read, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = operatorOf(request);
    try {
      await changeOwnPassword(ctx, { operatorId: session.operator.id, sessionId: session.id, currentPassword: field(request, 'current_password'), newPassword: field(request, 'new_password') });
      return reply.code(303).redirect('/console/account?done=password');
    } catch (error) {
      return refused(request, reply, error);
    }
  });

  app.post('/account/recovery-codes', read, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    try {
      const codes = await regenerateRecoveryCodes(ctx, { operatorId: operatorOf(request).operator.id, currentPassword: field(request, 'current_password') });
      return page(request, reply, { codes });
    } catch (error) {
      return refused(request, reply, error);
    }
  });
}
