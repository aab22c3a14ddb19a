// What every console route shares: the signed-in operator (or the half-way session of someone
// signing in), CSRF tokens bound to that session, the actor for the audit log, and page sending.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../audit/audit-entry.js';
import type { AppContext } from '../context.js';
import { csrfToken, csrfValid } from '../http/csrf.js';
import type { Operator } from '../people/operator.js';
import type { PeopleSession } from '../people/sessions.js';
import type { RouteAccess } from '../people/operator-permissions.js';

export { field, queryText, sendPage } from '../http/page-request.js';

declare module 'fastify' {
  interface FastifyRequest {
    operatorSession?: OperatorSession;
    /** A session that has the password but not yet the second factor (or the enrolment). */
    halfwaySession?: { session: PeopleSession; operator: Operator };
  }
  interface FastifyContextConfig {
    /** What a console route needs (operator-permissions.ts); a console route without it does not register. */
    permission?: RouteAccess;
  }
}

export interface ConsoleDeps {
  ctx: AppContext;
  csrfSecret: Buffer;
}

export interface OperatorSession {
  /** The SHA-256 of the cookie's token. */
  id: string;
  operator: Pick<Operator, 'id' | 'email' | 'role'>;
  expiresAt: Date;
}

/** The session of a request that passed the guard (every console route but the signed-out ones). */
export function operatorOf(request: FastifyRequest): OperatorSession {
  if (!request.operatorSession) throw new Error('console route without an operator session');
  return request.operatorSession;
}

/** Who to write in the audit log for this request. */
export function actorOf(request: FastifyRequest): Actor {
  const { operator } = operatorOf(request);
  return { kind: 'operator', id: operator.id, label: operator.email };
}

// Tokens are bound to the session, so a token from one operator's page is worthless in another's;
// before sign-in they are bound to the half-way session, or to the public forms.
const binding = (request: FastifyRequest) =>
  request.operatorSession ? `console:${request.operatorSession.id}` : request.halfwaySession ? `console:halfway:${request.halfwaySession.session.id}` : 'console:public';

export function formToken(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply): string {
  return csrfToken(request, reply, deps.csrfSecret, { binding: binding(request), secure: deps.ctx.config.publicUrl.startsWith('https:') });
}

export function formVerified(deps: ConsoleDeps, request: FastifyRequest): boolean {
  return csrfValid(request, deps.csrfSecret, binding(request));
}

/** Where to go after sign-in: a console path, never another site. */
export function safeConsoleNext(next: string): string | undefined {
  if (!next.startsWith('/console') || next.startsWith('//') || next.includes('\\')) return undefined;
  try {
    const url = new URL(next, 'http://x.invalid');
    return url.origin === 'http://x.invalid' && /^\/console(\/|$)/.test(url.pathname) && !url.pathname.startsWith('/console/login') ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}
