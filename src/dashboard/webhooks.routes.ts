// GET /dashboard/webhooks, and the forms: set the endpoint, resend a delivery.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { signingSecret } from '../merchants/signing-secret.js';
import { setWebhookEndpoint } from '../webhooks/set-webhook-endpoint.js';
import { findWebhookEndpoint, listDeliveries, resendDelivery } from '../webhooks/webhook-store.js';
import { formExpired, frameOf } from './dashboard-pages.js';
import { doing, field, formVerified, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { webhooksPage, type WebhooksView } from './webhooks-page.js';

export function registerWebhooks(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, extra: Partial<WebhooksView> = {}, status = 200) {
    const { merchant, environment } = sessionOf(request);
    const view: WebhooksView = {
      signingSecret: await signingSecret(ctx.db, merchant.id, environment),
      endpoint: await findWebhookEndpoint(ctx.db, merchant.id, environment),
      deliveries: await listDeliveries(ctx.db, merchant.id, environment),
      ...extra,
    };
    return sendPage(reply, webhooksPage(frameOf(deps, request, reply, 'webhooks'), view), status);
  }

  app.get('/webhooks', doing('keys.view'), (request, reply) => show(request, reply));

  app.post('/webhooks/endpoint', doing('webhooks.manage'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { merchant, environment } = sessionOf(request);
    const url = field(request, 'url');
    try {
      await setWebhookEndpoint(ctx, { merchantId: merchant.id, environment, url });
    } catch (error) {
      if (!(error instanceof AppError) || !error.fields) throw error;
      return show(request, reply, { endpoint: url, urlError: 'Enter a valid http(s) URL.' }, 400);
    }
    return show(request, reply, { message: url.trim() ? 'Endpoint saved.' : 'Endpoint removed; no more events will be sent.', tone: 'success' });
  });

  app.post('/webhooks/:id/resend', doing('webhooks.manage'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { merchant, environment } = sessionOf(request);
    const id = Number((request.params as { id: string }).id);
    const queued = Number.isSafeInteger(id) && (await resendDelivery(ctx.db, merchant.id, environment, id, ctx.clock.now()));
    if (!queued) return show(request, reply, { message: 'That delivery was not found, or it is being sent right now.' }, 404);
    return show(request, reply, { message: 'Queued to be sent again.', tone: 'success' });
  });
}
