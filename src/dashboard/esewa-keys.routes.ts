// eSewa's credentials on the keys page: rotation reviewed, then confirmed, with the secret key's
// rules (keys.routes.ts): a live one asks for step-up and its owner is told by e-mail.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '../environment.js';
import { listEsewaCredentials, rotateEsewaSecretKey } from '../merchants/rotate-esewa-secret-key.js';
import type { RotationGrace } from '../merchants/rotate-secret-key.js';
import { notifyOwner } from '../people/owner-notice.js';
import { formExpired, frameOf } from './dashboard-pages.js';
import { doing, formVerified, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { esewaRotateConfirmPage, newEsewaKeyPage } from './esewa-keys-page.js';
import { formatDateTime } from './format.js';
import { keysPage } from './keys-page.js';
import { keysView, rotationOf } from './keys.routes.js';
import { stepUp, stepUpField } from './step-up.js';

export function registerEsewaKeys(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  const review = async (request: FastifyRequest, rotation: { environment: Environment; grace: RotationGrace }, message?: string) => {
    const credentials = await listEsewaCredentials(ctx, { merchantId: sessionOf(request).merchant.id });
    const stepUpHtml = rotation.environment === 'live' ? stepUpField(ctx, sessionOf(request), message) : '';
    const revokeAt = new Date(ctx.clock.now().getTime() + rotation.grace * 1000);
    return { ...rotation, credential: credentials.find((c) => c.environment === rotation.environment), revokeAt, stepUp: stepUpHtml, message };
  };

  const choose = async (request: FastifyRequest, reply: Parameters<typeof frameOf>[2]) =>
    sendPage(reply, keysPage(frameOf(deps, request, reply, 'keys'), { ...(await keysView(ctx, request)), message: 'Choose an eSewa secret key and when to revoke the old one.' }), 400);

  app.post('/keys/esewa/rotate', doing('keys.rotate'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const rotation = rotationOf(request);
    if (!rotation) return choose(request, reply);
    return sendPage(reply, esewaRotateConfirmPage(frameOf(deps, request, reply, 'keys'), await review(request, rotation)));
  });

  app.post('/keys/esewa/rotate/confirm', doing('keys.rotate'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const rotation = rotationOf(request);
    if (!rotation) return choose(request, reply);
    const frame = frameOf(deps, request, reply, 'keys');
    // A live key guards real money: as for the secret key, the user proves who they are again.
    const refusal = rotation.environment === 'live' ? await stepUp(ctx, request) : undefined;
    if (refusal) return sendPage(reply, esewaRotateConfirmPage(frame, await review(request, rotation, refusal.message)), refusal.status);
    const { merchant, user } = sessionOf(request);
    const rotated = await rotateEsewaSecretKey(ctx, { merchantId: merchant.id, environment: rotation.environment, graceSeconds: rotation.grace });
    if (rotation.environment === 'live') {
      const revokes = rotated.issued
        ? `Live eSewa credentials were made (product code ${rotated.productCode}).`
        : rotated.previousRevokesAt
          ? `The old live eSewa secret key works until ${formatDateTime(rotated.previousRevokesAt, ctx.config.timeZone)} (${ctx.config.timeZone}).`
          : 'The old live eSewa secret key stopped working at once.';
      await notifyOwner(ctx, { merchantId: merchant.id, merchantName: merchant.name, what: 'A live eSewa secret key was rotated', by: user.email, lines: [revokes] }, request.log);
    }
    return sendPage(reply, newEsewaKeyPage(frame, { environment: rotation.environment, rotated }));
  });
}
