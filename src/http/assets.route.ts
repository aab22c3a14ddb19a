// The stylesheets and scripts of the portal and dashboard, shipped with the service (nothing is
// loaded from another host). Read once at start-up.
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const ASSET_DIR = new URL('../../assets/', import.meta.url);
const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml' };

export function registerAssets(app: FastifyInstance) {
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(ASSET_DIR)) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type) assets.set(name, { body: readFileSync(new URL(name, ASSET_DIR)), type });
  }
  app.get('/assets/:name', async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(asset.body);
  });
}
