// The audit log, filtered and paged by keyset (`before` = the last id shown), so a deep page costs
// what the first does.
import { lagging } from '../db/db.js';
import type { FastifyInstance } from 'fastify';
import { listAudit } from '../audit/audit-store.js';
import { listOperators } from '../people/operator-store.js';
import { auditBody } from './audit-page.js';
import { consolePage } from './console-layout.js';
import { type ConsoleDeps, formToken, operatorOf, queryText, sendPage } from './console-request.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

const PAGE_SIZE = 50;
const ID = /^\d{1,15}$/;
// A NUL cannot be in any stored text (PostgreSQL refuses it in a parameter): it matches nothing.
const clean = (value: string) => value.replace(/\u0000/g, '').trim();

export function registerConsoleAudit(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;

  app.get('/audit', { config: { permission: 'read' } }, async (request, reply) => {
    const { operator } = operatorOf(request);
    const filter = {
      operator: ID.test(queryText(request, 'operator')) ? queryText(request, 'operator') : '',
      action: clean(queryText(request, 'action')).slice(0, 100),
      objectType: clean(queryText(request, 'object_type')).slice(0, 20),
      objectId: clean(queryText(request, 'object_id')).slice(0, 200),
    };
    const before = queryText(request, 'before');
    const rows = await listAudit(lagging(ctx.db), {
      operatorId: filter.operator ? Number(filter.operator) : undefined,
      action: filter.action || undefined,
      objectType: filter.objectType || undefined,
      objectId: filter.objectId || undefined,
      beforeId: ID.test(before) ? Number(before) : undefined,
      limit: PAGE_SIZE + 1,
    });
    const entries = rows.slice(0, PAGE_SIZE);
    const query = (extra: Record<string, string>) =>
      `/console/audit?${new URLSearchParams({ ...(filter.operator && { operator: filter.operator }), ...(filter.action && { action: filter.action }), ...(filter.objectType && { object_type: filter.objectType }), ...(filter.objectId && { object_id: filter.objectId }), ...extra })}`;
    const olderHref = rows.length > PAGE_SIZE ? query({ before: String(entries[entries.length - 1].id) }) : undefined;
    const newestHref = ID.test(before) ? query({}) : undefined;
    const csrf = formToken(deps, request, reply);
    const body = auditBody({ entries, operators: await listOperators(ctx.db), filter, olderHref, newestHref, timeZone: ctx.config.timeZone });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Audit log', operator, csrf, body, active: 'audit' }));
  });
}
