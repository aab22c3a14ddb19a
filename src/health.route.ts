import type { FastifyInstance } from 'fastify';

/**
 * Liveness: the process answers. It does not touch the database, so a load balancer keeps it while
 * the store recovers. Its requests are not logged (a load balancer asks every few seconds); they are
 * counted in /metrics, one of them the server's own as it starts.
 */
export function registerHealth(app: FastifyInstance) {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
}
