import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { refuseUndeclaredRoutes } from './console.routes.js';
import { mayUse, PERMISSIONS } from '../people/operator-permissions.js';

describe('console permissions', () => {
  it('give each role its permissions: admin everything, support payments and wallets, finance payouts and refunds', () => {
    const of = (role: 'admin' | 'support' | 'finance') => Object.keys(PERMISSIONS).filter((p) => mayUse(role, p as keyof typeof PERMISSIONS));
    expect(of('admin')).toEqual(Object.keys(PERMISSIONS));
    expect(of('support')).toEqual(['read', 'ledger.verify', 'payments.resolve', 'wallets.freeze']);
    // Finance marks refunds made at providers by hand; admins set providers up.
    expect(of('finance')).toEqual(['read', 'ledger.verify', 'payouts.process', 'providers.refunds']);
  });

  it('refuse to register a console route that declares no permission, or an unknown one', async () => {
    for (const config of [undefined, {}, { permission: 'everything' }]) {
      const app = Fastify();
      refuseUndeclaredRoutes(app);
      expect(() => app.get('/console/new-page', config ? { config: config as never } : {}, async () => 'hi')).toThrow(/declares no permission/);
      await app.close();
    }
    const app = Fastify();
    refuseUndeclaredRoutes(app);
    app.get('/console/declared', { config: { permission: 'read' } }, async () => 'hi');
    app.get('/console/before-sign-in', { config: { permission: 'signed-out' } }, async () => 'hi');
    await app.ready();
    await app.close();
  });
});
