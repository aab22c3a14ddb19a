// Signing in to the console: e-mail and password start a half-way session; a TOTP code or a
// recovery code completes it (an operator not yet enrolled sets up the app first). Signing out
// ends the session. The forms before sign-in carry CSRF tokens too (a forged sign-in would put the
// victim in the attacker's account).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { appendAudit } from '../audit/audit-store.js';
import { confirmEnrolment, enrolmentSecret } from '../people/operator-enrolment.js';
import { checkOperatorCode, checkOperatorPassword, SignInError } from '../people/operator-sign-in.js';
import { completeSession, endSession, OPERATOR_SESSIONS, sessionCookieOptions, startSession } from '../people/sessions.js';
import { formExpired } from './console-pages.js';
import { type ConsoleDeps, field, formToken, formVerified, queryText, safeConsoleNext, sendPage } from './console-request.js';
import { codePage, enrolledPage, enrolPage, signInPage } from './sign-in-pages.js';

export function registerConsoleSignIn(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const signedOut = { config: { permission: 'signed-out' as const } };
  const cookie = sessionCookieOptions(OPERATOR_SESSIONS, ctx.config);

  const refused = (reply: FastifyReply, error: SignInError) => {
    if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
    return error.code === 'locked' ? 429 : 401;
  };

  app.get('/login', signedOut, async (request, reply) => {
    const next = safeConsoleNext(queryText(request, 'next'));
    if (request.operatorSession) return reply.code(303).redirect(next ?? '/console');
    if (request.halfwaySession) return reply.code(303).redirect(request.halfwaySession.session.stage === 'enrolment' ? '/console/enrol' : '/console/login/code');
    return sendPage(reply, signInPage({ csrf: formToken(deps, request, reply), next }));
  });

  app.post('/login', signedOut, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const email = field(request, 'email').trim();
    const next = safeConsoleNext(field(request, 'next'));
    try {
      const operator = await checkOperatorPassword(ctx, { email, password: field(request, 'password'), ip: request.ip });
      const current = request.operatorSession?.id ?? request.halfwaySession?.session.id;
      if (current) await endSession(ctx.db, { sessionId: current });
      const stage = operator.totpEnrolledAt ? 'second_factor' : 'enrolment';
      const { token } = await startSession(ctx.db, OPERATOR_SESSIONS, { accountId: operator.id, stage, now: ctx.clock.now() });
      reply.setCookie(OPERATOR_SESSIONS.cookie, token, cookie);
      if (stage === 'enrolment') return reply.code(303).redirect('/console/enrol');
      return reply.code(303).redirect(`/console/login/code${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const status = refused(reply, error);
      return sendPage(reply, signInPage({ csrf: formToken(deps, request, reply), email, next, message: error.message }), status);
    }
  });

  app.get('/login/code', signedOut, async (request, reply) => {
    const halfway = request.halfwaySession;
    if (request.operatorSession) return reply.code(303).redirect('/console');
    if (!halfway || halfway.session.stage !== 'second_factor') return reply.code(303).redirect('/console/login');
    const next = safeConsoleNext(queryText(request, 'next'));
    return sendPage(reply, codePage({ csrf: formToken(deps, request, reply), email: halfway.operator.email, next }));
  });

  app.post('/login/code', signedOut, async (request, reply) => {
    const halfway = request.halfwaySession;
    if (!halfway || halfway.session.stage !== 'second_factor') return reply.code(303).redirect('/console/login');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const next = safeConsoleNext(field(request, 'next'));
    const { operator, session } = halfway;
    try {
      const { usedRecoveryCode } = await checkOperatorCode(ctx, { operatorId: operator.id, code: field(request, 'code'), allowRecovery: true });
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        await completeSession(tx, OPERATOR_SESSIONS, { sessionId: session.id, now });
        await appendAudit(tx, {
          now,
          actor: { kind: 'operator', id: operator.id, label: operator.email },
          action: 'operator.sign_in',
          object: { type: 'operator', id: String(operator.id) },
          after: { second_factor: usedRecoveryCode ? 'recovery_code' : 'totp' },
        });
      });
      return reply.code(303).redirect(next ?? '/console');
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const status = refused(reply, error);
      return sendPage(reply, codePage({ csrf: formToken(deps, request, reply), email: operator.email, next, message: error.message }), status);
    }
  });

  app.get('/enrol', signedOut, async (request, reply) => {
    const halfway = request.halfwaySession;
    if (!halfway || halfway.session.stage !== 'enrolment') return reply.code(303).redirect('/console/login');
    return sendPage(reply, await enrolmentPage(deps, halfway.operator, formToken(deps, request, reply)));
  });

  app.post('/enrol', signedOut, async (request, reply) => {
    const halfway = request.halfwaySession;
    if (!halfway || halfway.session.stage !== 'enrolment') return reply.code(303).redirect('/console/login');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { operator, session } = halfway;
    try {
      const codes = await confirmEnrolment(ctx, { operatorId: operator.id, email: operator.email, code: field(request, 'code') });
      await completeSession(ctx.db, OPERATOR_SESSIONS, { sessionId: session.id, now: ctx.clock.now() });
      return sendPage(reply, enrolledPage({ codes }));
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const status = refused(reply, error);
      return sendPage(reply, await enrolmentPage(deps, operator, formToken(deps, request, reply), error.message), status);
    }
  });

  app.post('/logout', signedOut, async (request, reply) => {
    const sessionId = request.operatorSession?.id ?? request.halfwaySession?.session.id;
    if (!sessionId) return reply.code(303).redirect('/console/login');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    await endSession(ctx.db, { sessionId });
    reply.clearCookie(OPERATOR_SESSIONS.cookie, cookie);
    return reply.code(303).redirect('/console/login');
  });
}

async function enrolmentPage(deps: ConsoleDeps, operator: { id: number; email: string }, csrf: string, message?: string) {
  const enrolment = await enrolmentSecret(deps.ctx, operator.id);
  if (!enrolment) throw new Error('enrolment session of an enrolled operator');
  // Loaded on the first enrolment, not on every start.
  const { default: QRCode } = await import('qrcode');
  const qrSvg = await QRCode.toString(enrolment.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return enrolPage({ csrf, email: operator.email, secret: enrolment.secret, qrSvg, message });
}
