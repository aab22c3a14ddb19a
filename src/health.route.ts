import type { FastifyInstance } from 'fastify';

/** Liveness: the process answers. It does not touch the database, so a load balancer keeps it while the store recovers. */
export function registerHealth(app: FastifyInstance) {
  app.get('/health', async () => ({ status: 'ok' }));
}
