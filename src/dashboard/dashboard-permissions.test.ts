import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { refuseUnclassifiedRoutes } from './dashboard.routes.js';
import { ACTIONS, type Action, may, permissionTableMarkdown } from '../people/merchant-permissions.js';

describe('dashboard permissions', () => {
  const of = (role: Parameters<typeof may>[0]) => (Object.keys(ACTIONS) as Action[]).filter((action) => may(role, action));

  it('give each role its defaults: the owner everything, an admin all but the hand-over and the team’s two-factor rule', () => {
    expect(of('owner')).toEqual(Object.keys(ACTIONS));
    expect(of('admin')).toEqual(Object.keys(ACTIONS).filter((a) => a !== 'team.transfer' && a !== 'team.require_two_factor'));
    expect(of('developer')).toEqual(['view', 'keys.view', 'keys.rotate', 'webhooks.manage', 'links.manage']);
    expect(of('finance')).toEqual(['view', 'transactions.export', 'links.manage', 'refunds.create', 'payouts.request']);
    expect(of('viewer')).toEqual(['view']);
  });

  it('are the table docs/dashboard.md shows', () => {
    const docs = readFileSync(new URL('../../docs/dashboard.md', import.meta.url), 'utf8');
    expect(docs).toContain(permissionTableMarkdown());
  });

  it('refuse to register a dashboard route that is neither public nor names an action', async () => {
    for (const config of [undefined, {}, { action: 'everything' }, { public: 'yes' }]) {
      const app = Fastify();
      refuseUnclassifiedRoutes(app);
      expect(() => app.get('/dashboard/new-page', config ? { config: config as never } : {}, async () => 'hi')).toThrow(/declares no action/);
      await app.close();
    }
    const app = Fastify();
    refuseUnclassifiedRoutes(app);
    app.get('/dashboard/declared', { config: { action: 'view' } }, async () => 'hi');
    app.get('/dashboard/open', { config: { public: true } }, async () => 'hi');
    await app.ready();
    await app.close();
  });
});
