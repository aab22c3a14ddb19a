// The console's first page: how the gateway is doing (overview-figures.ts) and the ledger check.
import type { FastifyInstance } from 'fastify';
import { html } from '../http/html.js';
import { consolePage } from './console-layout.js';
import { type ConsoleDeps, formToken, operatorOf, sendPage } from './console-request.js';

export function registerConsoleOverview(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/', { config: { permission: 'read' } }, async (request, reply) => {
    const { operator } = operatorOf(request);
    const body = html`<h1>Overview</h1>`;
    return sendPage(reply, consolePage({ title: 'Overview', operator, csrf: formToken(deps, request, reply), body, active: 'overview' }));
  });
}
