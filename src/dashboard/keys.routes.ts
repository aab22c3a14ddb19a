// GET /dashboard/keys, and rotation: review, then confirm; the new key is in the confirm's answer
// only (not behind a redirect), since it is never stored. The owner is told by e-mail of a live rotation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { listSecretKeys, type SecretKeySummary } from '../merchants/list-secret-keys.js';
import { listEsewaCredentials } from '../merchants/rotate-esewa-secret-key.js';
import { notifyOwner } from '../people/owner-notice.js';
import { ROTATION_GRACE_SECONDS, rotateSecretKey, type RotationGrace } from '../merchants/rotate-secret-key.js';
import type { Environment } from '../environment.js';
import { frameOf, formExpired } from './dashboard-pages.js';
import { doing, field, formVerified, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { formatDateTime } from './format.js';
import { keysPage, newKeyPage, rotateConfirmPage } from './keys-page.js';
import { stepUp, stepUpField } from './step-up.js';

/** The rotation a form asks for (an environment and an offered grace period), for secret keys and eSewa's alike. */
export function rotationOf(request: FastifyRequest): { environment: Environment; grace: RotationGrace } | undefined {
  const environment = field(request, 'environment');
  const grace = Number(field(request, 'grace'));
  if ((environment !== 'test' && environment !== 'live') || !(ROTATION_GRACE_SECONDS as readonly number[]).includes(grace) || field(request, 'grace') === '') return undefined;
  return { environment, grace: grace as RotationGrace };
}

/** What the keys page shows: the secret keys and eSewa's credentials of the session's merchant. */
export async function keysView(ctx: AppContext, request: FastifyRequest) {
  const merchantId = sessionOf(request).merchant.id;
  return { keys: await listSecretKeys(ctx, { merchantId }), esewa: await listEsewaCredentials(ctx, { merchantId }) };
}

export function registerKeys(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  const keysOf = (request: FastifyRequest) => listSecretKeys(ctx, { merchantId: sessionOf(request).merchant.id });

  /** What the confirmation shows: the keys the rotation cuts short (those that would outlive the new revocation time). */
  const reviewOf = (request: FastifyRequest, rotation: { environment: Environment; grace: RotationGrace }, keys: SecretKeySummary[], message?: string) => {
    const revokeAt = new Date(ctx.clock.now().getTime() + rotation.grace * 1000);
    const current = keys.filter((k) => k.environment === rotation.environment && (k.status.name === 'active' || (k.status.name === 'revoking' && k.status.at > revokeAt)));
    const stepUpHtml = rotation.environment === 'live' ? stepUpField(ctx, sessionOf(request), message) : '';
    return { ...rotation, current, revokeAt, stepUp: stepUpHtml, message };
  };

  app.get('/keys', doing('keys.view'), async (request, reply) => {
    return sendPage(reply, keysPage(frameOf(deps, request, reply, 'keys'), await keysView(ctx, request)));
  });

  app.post('/keys/rotate', doing('keys.rotate'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const rotation = rotationOf(request);
    const frame = frameOf(deps, request, reply, 'keys');
    if (!rotation) return sendPage(reply, keysPage(frame, { ...(await keysView(ctx, request)), message: 'Choose a key and when to revoke the old one.' }), 400);
    return sendPage(reply, rotateConfirmPage(frame, reviewOf(request, rotation, await keysOf(request))));
  });

  app.post('/keys/rotate/confirm', doing('keys.rotate'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const rotation = rotationOf(request);
    const frame = frameOf(deps, request, reply, 'keys');
    if (!rotation) return sendPage(reply, keysPage(frame, { ...(await keysView(ctx, request)), message: 'Choose a key and when to revoke the old one.' }), 400);
    // A live key guards real money: rotating it asks the user to prove who they are again.
    const refusal = rotation.environment === 'live' ? await stepUp(ctx, request) : undefined;
    if (refusal) return sendPage(reply, rotateConfirmPage(frame, reviewOf(request, rotation, await keysOf(request), refusal.message)), refusal.status);
    const { merchant, user } = sessionOf(request);
    const rotated = await rotateSecretKey(ctx, { merchantId: merchant.id, environment: rotation.environment, graceSeconds: rotation.grace });
    if (rotation.environment === 'live') {
      const revokes = rotation.grace === 0 ? 'The old live key stopped working at once.' : `The old live key works until ${formatDateTime(rotated.oldKeysRevokeAt, ctx.config.timeZone)} (${ctx.config.timeZone}).`;
      await notifyOwner(ctx, { merchantId: merchant.id, merchantName: merchant.name, what: 'A live secret key was rotated', by: user.email, lines: [revokes] }, request.log);
    }
    return sendPage(reply, newKeyPage(frame, { environment: rotation.environment, rotated, grace: rotation.grace }));
  });
}
