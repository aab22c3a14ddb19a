import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AppContext } from './context.js';
import { authenticate } from './http/authenticate.js';
import { idempotency } from './http/idempotency.js';
import { acceptMultipart } from './http/multipart-body.js';
import { apiRateLimit } from './http/rate-limit.js';
import { secretKeyResolver } from './merchants/secret-key-resolver.js';
import { registerInitiate } from './doors/khalti-v2/initiate.route.js';
import { registerLookup } from './doors/khalti-v2/lookup.route.js';
import { registerRefund } from './doors/khalti-v2/refund.route.js';
import { registerPaymentLinks } from './payment-links/payment-links.route.js';
import { registerSettlements } from './settlements/settlements.route.js';
import { registerTransactionList } from './doors/khalti-v2/list.route.js';

/** The merchant API under /api: every route here requires a secret key. */
export async function apiPlugin(app: FastifyInstance, { ctx, routes }: { ctx: AppContext; routes: RouteOptions[] }) {
  // Recorded for the OpenAPI document.
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  acceptMultipart(app);
  app.addHook('onRequest', authenticate(secretKeyResolver(ctx)));
  app.addHook('onRequest', apiRateLimit(ctx.limiter, ctx.config));
  idempotency(app, ctx);
  registerInitiate(app, ctx);
  registerLookup(app, ctx);
  registerTransactionList(app, ctx);
  registerRefund(app, ctx);
  registerSettlements(app, ctx);
  registerPaymentLinks(app, ctx);
}
