// eSewa's ePay door (contract section 12): its v2 form and status check, its v1 form and
// verification, on the same payments as the v2 web checkout. No secret key: the product code
// selects the merchant and environment. Every answer is in eSewa's shapes (esewa-door-errors.ts).
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { acceptMultipart } from '../../http/multipart-body.js';
import { esewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { esewaErrorHandler } from './esewa-door-errors.js';
import { registerForm } from './form.route.js';
import { registerStatus } from './status.route.js';
import { registerV1 } from './v1.routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of eSewa's door described in the OpenAPI document (public, eSewa's error shapes). */
    esewa?: boolean;
  }
}

export async function esewaDoorPlugin(app: FastifyInstance, { ctx, routes }: { ctx: AppContext; routes: RouteOptions[] }) {
  // The JSON routes among them are described in the OpenAPI document too.
  app.addHook('onRoute', (route) => {
    if (route.config?.esewa) routes.push(route);
  });
  app.setErrorHandler(esewaErrorHandler);
  acceptMultipart(app);
  const resolve = esewaCredentialResolver(ctx);
  registerForm(app, ctx, resolve);
  registerStatus(app, ctx, resolve);
  registerV1(app, ctx, resolve);
}
