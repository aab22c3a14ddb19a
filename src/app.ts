import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { readFileSync } from 'node:fs';
import { maxHeaderSize } from 'node:http';
import { randomUUID } from 'node:crypto';
import { apiPlugin } from './api.js';
import type { AppContext } from './context.js';
import { consolePlugin } from './console/console.routes.js';
import { dashboardPlugin } from './dashboard/dashboard.routes.js';
import { demoPlugin } from './demo/demo.routes.js';
import { esewaDocsSection } from './doors/esewa-epay/esewa-docs.js';
import { esewaDoorPlugin } from './doors/esewa-epay/esewa-door.js';
import { registerHealth } from './health.route.js';
import { errorHandler } from './http/error-handler.js';
import { AppError } from './http/errors.js';
import { registerAssets } from './http/assets.route.js';
import { registerDocs } from './http/docs.routes.js';
import { registerMetrics } from './http/metrics-routes.js';
import { schemaController } from './http/schema-compilers.js';
import { SERVER_SECRET_BYTES as CSRF_SECRET_BYTES, serverSecret } from './http/server-secret.js';
import { paymentLinkPagesPlugin } from './portal/link.routes.js';
import { portalPlugin } from './portal/portal.routes.js';
import { sandboxProvidersPlugin } from './sandbox/sandbox.routes.js';
import type { Logger } from 'pino';

export interface AppOptions {
  logger: Logger;
  /** Settles once the demo merchant is made or found, when that happens after the server listens: the demo shop waits for it. */
  demoMerchant?: Promise<unknown>;
  /** Sends one `GET /health` through the app while the store opens (the server's start). */
  warmUp?: boolean;
}

const packageVersion: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const REQUEST_ID = /^[\w.-]{1,64}$/;

export async function buildApp(ctx: AppContext, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    // No path parameter is refused for its length (Fastify's default is 100): the router refuses it
    // before any site's hooks run, so the dashboard, console and hosted page could not answer with
    // their own page (nor after their sign-in check). The request line already bounds a parameter
    // (longer, Node answers 431 before Fastify), and every route checks its parameter's form.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    schemaController,
    // A malformed percent-encoding is refused before routing; answer it in the contract's shape too,
    // not Fastify's.
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply),
    // A caller's request id is kept (to follow a request across systems) if it is harmless.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => errorHandler(new AppError('route_not_found'), request, reply));
  // Served at an https PUBLIC_URL, browsers are told to use nothing else for a year (its subdomains
  // are the operator's to add, at the proxy: docs/deploy.md).
  const strictTransport = ctx.config.publicUrl.startsWith('https:') ? 'max-age=31536000' : undefined;
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (strictTransport) reply.header('strict-transport-security', strictTransport);
  });
  // Only JSON and form bodies are accepted; a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody);
  await app.register(cookie);
  registerHealth(app);
  registerMetrics(app, ctx.metrics, ctx.config);
  registerAssets(app);
  const apiRoutes: RouteOptions[] = [];
  await app.register(apiPlugin, { prefix: '/api', ctx, routes: apiRoutes });
  await app.register(esewaDoorPlugin, { ctx, routes: apiRoutes });
  registerDocs(app, { routes: apiRoutes, publicUrl: ctx.config.publicUrl, version: packageVersion, sections: [esewaDocsSection(ctx.config.publicUrl)] });
  // Read while the pages register (on a start, the store may still be opening); every page holds this
  // one Buffer, filled in before the app is returned, so no form is signed or checked before.
  const csrfSecret = Buffer.alloc(CSRF_SECRET_BYTES);
  const readingCsrfSecret = serverSecret(ctx.db, 'csrf').then((stored) => {
    if (stored.length !== CSRF_SECRET_BYTES) throw new Error(`the stored csrf secret has ${stored.length} bytes, not ${CSRF_SECRET_BYTES}`);
    stored.copy(csrfSecret);
  });
  readingCsrfSecret.catch(() => {}); // awaited below
  await app.register(portalPlugin, { ctx, csrfSecret });
  await app.register(sandboxProvidersPlugin, { ctx, csrfSecret, root: app });
  await app.register(paymentLinkPagesPlugin, { ctx, csrfSecret });
  await app.register(demoPlugin, { ctx, csrfSecret, made: options.demoMerchant });
  await app.register(dashboardPlugin, { ctx, csrfSecret });
  await app.register(consolePlugin, { ctx, csrfSecret });
  // The request path's one-time costs (code run and compiled for a first request, ~15 ms of the first
  // /health after a start) paid here, while the store is still opening and nothing waits on this thread.
  if (options.warmUp) await app.inject({ method: 'GET', url: '/health' });
  await readingCsrfSecret;
  return app;
}
