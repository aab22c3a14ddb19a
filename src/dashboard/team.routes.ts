// GET /dashboard/team and its forms (invite, resend, revoke, change a role, remove, hand over), each
// through its use case in people/merchant-team.ts and back to the page (PRG); and the invitee's link,
// /dashboard/invitation/:token: a new address sets its password, an address with an account gives its
// password (and code) or, logged in as it, just presses Join; either way they land on the new business.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { createSession, deleteSession, findSession, SESSION_COOKIE, sessionCookieOptions, switchSessionBusiness } from '../merchants/merchant-sessions.js';
import { listOpenInvitations, merchantInvitations } from '../people/invitation-store.js';
import {
  acceptTeamInvitation,
  changeTeamRole,
  handOverOwnership,
  inviteTeamMember,
  removeTeamMember,
  resendTeamInvitation,
  revokeTeamInvitation,
  type InvitationProof,
  type TeamActor,
  type UsableInvitation,
  usableTeamInvitation,
} from '../people/merchant-team.js';
import { listTeamEvents, listTeamUsers } from '../people/merchant-team-store.js';
import { linkRefusal, SignInError } from '../people/sign-in-error.js';
import { formExpired, frameOf, messagePage } from './dashboard-pages.js';
import { doing, field, fieldMessages, formToken, formVerified, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { stepUp, stepUpBox } from './step-up.js';
import { invitationPage, teamPage, type TeamView } from './team-page.js';

/** Lines of the team's log a page, paged by keyset (`before` = the last id shown) like the audit log. */
const LOG_PAGE_SIZE = 20;
const ID = /^\d{1,15}$/;

/** What the page says after each form (by a fixed key, so nothing typed is reflected). */
const DONE: Record<string, string> = {
  invited: 'Invitation sent.',
  resent: 'Invitation sent again, with a new link; the old link no longer works.',
  revoked: 'Invitation revoked.',
  role: 'Role changed.',
  removed: 'User removed and logged out.',
  transferred: 'Ownership handed over. You are an admin now.',
};

const idOf = (request: FastifyRequest) => {
  const { id } = request.params as { id: string };
  return ID.test(id) ? Number(id) : NaN;
};

function actorOf(request: FastifyRequest): TeamActor {
  const { user, merchant } = sessionOf(request);
  return { userId: user.id, email: user.email, merchantId: merchant.id, merchantName: merchant.name };
}

export function registerTeam(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, extra: Partial<TeamView> = {}, status = 200) {
    const merchantId = sessionOf(request).merchant.id;
    const before = queryText(request, 'before');
    const lines = await listTeamEvents(ctx.db, merchantId, { beforeId: ID.test(before) ? Number(before) : undefined, limit: LOG_PAGE_SIZE + 1 });
    const events = lines.slice(0, LOG_PAGE_SIZE);
    const view: TeamView = {
      users: await listTeamUsers(ctx.db, merchantId),
      invitations: await listOpenInvitations(ctx.db, merchantInvitations(merchantId)),
      events,
      log: {
        olderHref: lines.length > LOG_PAGE_SIZE ? `/dashboard/team?before=${events[events.length - 1].id}#log-heading` : undefined,
        newestHref: ID.test(before) ? '/dashboard/team#log-heading' : undefined,
      },
      now: ctx.clock.now(),
      stepUp: stepUpBox(ctx, sessionOf(request), { csrf: formToken(deps, request, reply), back: '/dashboard/team' }),
      ...extra,
    };
    return sendPage(reply, teamPage(frameOf(deps, request, reply, 'team'), view), status);
  }

  /** A team form: CSRF checked, the use case run, back to the page; an expected refusal shown on it. */
  function teamForm(path: string, action: 'team.manage' | 'team.transfer', run: (request: FastifyRequest) => Promise<string>) {
    app.post(path, doing(action), async (request, reply) => {
      if (!formVerified(deps, request)) return formExpired(deps, request, reply);
      // Changing the team asks the user to prove who they are again (the box at the top of the page).
      const refusal = await stepUp(ctx, request);
      if (refusal) return show(request, reply, { message: `${refusal.message} Use the box at the top of the page, then try again.` }, refusal.status);
      try {
        const done = await run(request);
        // Removing oneself ends one's own session: off to log-in.
        if (!(await stillLoggedIn(request))) return reply.code(303).redirect('/dashboard/login');
        return reply.code(303).redirect(`/dashboard/team?done=${done}`);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        reply.headers(error.headers);
        if (error.code === 'validation_error') {
          const values = { email: field(request, 'email'), role: field(request, 'role') };
          return show(request, reply, { message: 'Please correct the fields marked below.', values, errors: fieldMessages(error) }, 400);
        }
        return show(request, reply, { message: error.message }, error.status);
      }
    });
  }

  const stillLoggedIn = async (request: FastifyRequest) => (await findSession(ctx, { token: request.cookies[SESSION_COOKIE] })) !== undefined;

  app.get('/team', doing('view'), (request, reply) => {
    const done = DONE[queryText(request, 'done')];
    return show(request, reply, done ? { message: done, tone: 'success' } : {});
  });

  teamForm('/team/invite', 'team.manage', async (request) => {
    await inviteTeamMember(ctx, { actor: actorOf(request), email: field(request, 'email'), role: field(request, 'role') });
    return 'invited';
  });
  teamForm('/team/invitations/:id/resend', 'team.manage', async (request) => {
    await resendTeamInvitation(ctx, { actor: actorOf(request), invitationId: idOf(request) });
    return 'resent';
  });
  teamForm('/team/invitations/:id/revoke', 'team.manage', async (request) => {
    await revokeTeamInvitation(ctx, { actor: actorOf(request), invitationId: idOf(request) });
    return 'revoked';
  });
  teamForm('/team/users/:id/role', 'team.manage', async (request) => {
    await changeTeamRole(ctx, { actor: actorOf(request), userId: idOf(request), role: field(request, 'role') }, request.log);
    return 'role';
  });
  teamForm('/team/users/:id/remove', 'team.manage', async (request) => {
    await removeTeamMember(ctx, { actor: actorOf(request), userId: idOf(request) }, request.log);
    return 'removed';
  });
  teamForm('/team/transfer', 'team.transfer', async (request) => {
    const id = field(request, 'user_id');
    await handOverOwnership(ctx, { actor: actorOf(request), userId: /^\d{1,15}$/.test(id) ? Number(id) : NaN }, request.log);
    return 'transferred';
  });

  // ---- the invitee's link ----------------------------------------------------------------------
  const open = { config: { public: true } };
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;
  /** A link that cannot be used: dead or wrong, or this address guessed at links too often (people/link-guesses.ts). */
  const unusable = (request: FastifyRequest, reply: FastifyReply, error: SignInError) => {
    const refusal = linkRefusal(error, 'It was used already, revoked, or is more than 7 days old. Ask whoever invited you to send a new invitation.');
    reply.headers(refusal.headers);
    return messagePage(deps, request, reply, refusal.status, { title: 'This invitation link cannot be used', message: refusal.message });
  };
  /** The browser is logged in, all steps done, as the person the invitation's address has. */
  const loggedInAs = (request: FastifyRequest, usable: UsableInvitation) =>
    usable.person !== undefined && request.merchantSession?.stage === 'signed_in' && request.merchantSession.user.person_id === usable.person.id;
  const showInvitation = (request: FastifyRequest, reply: FastifyReply, usable: UsableInvitation, message?: string, status = 200) => {
    const { invitation, merchantName, person } = usable;
    const account = person ? { signedIn: loggedInAs(request, usable), twoFactor: person.totp_enrolled_at !== null } : undefined;
    return sendPage(reply, invitationPage({ csrf: formToken(deps, request, reply), token: tokenOf(request), email: invitation.email, role: invitation.role, merchantName, account, message }), status);
  };
  const proofOf = (request: FastifyRequest, usable: UsableInvitation): InvitationProof => {
    if (!usable.person) return { kind: 'new', password: field(request, 'password') };
    if (loggedInAs(request, usable)) return { kind: 'session', personId: usable.person.id };
    return { kind: 'account', password: field(request, 'password'), code: field(request, 'code') };
  };

  app.get('/invitation/:token', open, async (request, reply) => {
    try {
      return showInvitation(request, reply, await usableTeamInvitation(ctx, { token: tokenOf(request), ip: request.ip }));
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      return unusable(request, reply, error);
    }
  });

  app.post('/invitation/:token', open, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const link = { token: tokenOf(request), ip: request.ip };
    let usable: UsableInvitation;
    try {
      usable = await usableTeamInvitation(ctx, link);
    } catch (error) {
      if (error instanceof SignInError) return unusable(request, reply, error);
      throw error;
    }
    const proof = proofOf(request, usable);
    if (proof.kind === 'new' && proof.password !== field(request, 'password_again')) return showInvitation(request, reply, usable, 'The two passwords differ.', 400);
    try {
      const user = await acceptTeamInvitation(ctx, { usable, token: link.token, proof }, request.log);
      // Spent meanwhile (the same link accepted twice at once): dead now.
      if (!user) return unusable(request, reply, new SignInError('wrong_code'));
      // Logged in as the invitee already: the same session looks at the new business.
      if (proof.kind === 'session') await switchSessionBusiness(ctx, { sessionId: request.merchantSession!.id, merchantIdx: usable.merchantIdx });
      else {
        // Whoever was logged in in this browser is not any more: the invitee is.
        if (request.merchantSession) await deleteSession(ctx, { sessionId: request.merchantSession.id });
        const { token: sessionToken } = await createSession(ctx, { user, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
        reply.setCookie(SESSION_COOKIE, sessionToken, sessionCookieOptions(ctx.config));
      }
      return reply.code(303).redirect('/dashboard');
    } catch (error) {
      if (error instanceof SignInError) {
        if (error.code === 'locked') reply.header('retry-after', String(error.retryAfterSeconds));
        const wrong = error.code === 'wrong_credentials' ? 'That is not the password of this account.' : error.message;
        return showInvitation(request, reply, usable, wrong, error.code === 'locked' ? 429 : 401);
      }
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return showInvitation(request, reply, usable, Object.values(error.fields ?? {}).flat().join(' ') || error.message, error.status);
    }
  });
}
