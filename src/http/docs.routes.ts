import type { FastifyInstance, RouteOptions } from 'fastify';
import { docsPage, type DocsSection } from './docs-page.js';
import { buildOpenApi } from './openapi.js';
import { setPageHeaders } from './page-headers.js';

/** GET /api/v2/openapi.json and GET /docs: public, built once the routes are known. */
export function registerDocs(app: FastifyInstance, options: { routes: RouteOptions[]; publicUrl: string; version: string; sections?: DocsSection[] }) {
  let doc: Record<string, unknown> | undefined;
  let page: string | undefined;
  const openApi = () => (doc ??= buildOpenApi(options.routes, options));
  app.get('/api/v2/openapi.json', async () => openApi());
  app.get('/docs', async (_request, reply) => setPageHeaders(reply).removeHeader('x-robots-tag').header('cache-control', 'public, max-age=60').send((page ??= docsPage(openApi(), options.sections).value)));
}
