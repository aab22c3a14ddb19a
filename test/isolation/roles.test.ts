// Roles (issue 17): for every dashboard route the app registers, every role of a merchant's team is
// allowed or refused exactly as the permission table says (src/people/merchant-permissions.ts).
// Refused: a 403 "Not allowed for your role" page, forms posted by hand with a valid CSRF token of
// the user's own session included, and nothing of the merchant's changed. Allowed: past the check
// (a harmless request: a review step, an invalid field, an unknown id). Every dashboard route must
// be listed below with the action it declares: a new route fails this suite until classified.
import { afterAll, describe, expect, it } from 'vitest';
import { ACTIONS, type Action, may } from '../../src/people/merchant-permissions.js';
import { merchantRoles, type MerchantRole } from '../../src/merchants/merchant-user.js';
import { requestPayout } from '../../src/settlements/request-payout.js';
import { merchantBrowser, type MerchantBrowser, paidPayment } from '../dashboard-client.js';
import { approveSignedUp } from '../merchant-approval.js';
import { loggedInAs, merchantOwnedBy, teamMember } from '../team-client.js';
import { routeKey, snapshotOfMerchant, startRecordingRoutes } from './isolation-helper.js';

interface Request {
  /** Form fields of a POST (its CSRF token is added). */
  body?: Record<string, string>;
  /** A route that ends the session: sent from a fresh log-in of the role. */
  endsSession?: boolean;
}

/** Each dashboard route: the action it must declare, and what to send (harmless when allowed). */
const routesTable: Record<string, { action: Action | 'public' } & Request> = {
  'GET /dashboard': { action: 'view' },
  'GET /dashboard/transactions': { action: 'view' },
  'GET /dashboard/transactions.csv': { action: 'transactions.export' },
  'GET /dashboard/payments/:pidx': { action: 'view' },
  'POST /dashboard/payments/:pidx/refund': { action: 'refunds.create', body: { amount: 'not an amount' } },
  'POST /dashboard/payments/:pidx/refund/confirm': { action: 'refunds.create', body: { amount_paisa: '100', refunded_before: '999999' } },
  'GET /dashboard/links': { action: 'view' },
  'POST /dashboard/links': { action: 'links.manage', body: { name: '', pricing: 'fixed', amount: 'not an amount' } },
  'GET /dashboard/links/:idx': { action: 'view' },
  'GET /dashboard/links/:idx/print': { action: 'view' },
  'POST /dashboard/links/:idx/deactivate': { action: 'links.manage' },
  'POST /dashboard/links/:idx/activate': { action: 'links.manage' },
  'GET /dashboard/keys': { action: 'keys.view' },
  'POST /dashboard/keys/rotate': { action: 'keys.rotate', body: { environment: 'live', grace: '86400' } },
  'POST /dashboard/keys/rotate/confirm': { action: 'keys.rotate', body: { environment: 'live', grace: 'none' } },
  'POST /dashboard/keys/esewa/rotate': { action: 'keys.rotate', body: { environment: 'live', grace: '86400' } },
  'POST /dashboard/keys/esewa/rotate/confirm': { action: 'keys.rotate', body: { environment: 'live', grace: 'none' } },
  'GET /dashboard/webhooks': { action: 'keys.view' },
  'POST /dashboard/webhooks/endpoint': { action: 'webhooks.manage', body: { url: 'not a url' } },
  'POST /dashboard/webhooks/:id/resend': { action: 'webhooks.manage' },
  'GET /dashboard/business': { action: 'business.manage' },
  'POST /dashboard/business': { action: 'business.manage', body: { legal_name: '' } },
  'POST /dashboard/business/bank-account': { action: 'business.manage', body: { account_number: 'not a number' } },
  'POST /dashboard/environment': { action: 'view', body: { environment: 'test', back: '/dashboard' } },
  'POST /dashboard/switch-business': { action: 'view', body: { business: 'not-one-of-theirs' } },
  'POST /dashboard/logout': { action: 'view', endsSession: true },
  'GET /dashboard/settlements': { action: 'view' },
  'POST /dashboard/settlements/payouts': { action: 'payouts.request', body: { payout: 'amount', amount: 'not an amount' } },
  'POST /dashboard/settlements/schedule': { action: 'payouts.request', body: { frequency: 'hourly' } },
  'GET /dashboard/settlements/:idx': { action: 'view' },
  'GET /dashboard/settlements/:idx/statement.csv': { action: 'transactions.export' },
  'GET /dashboard/team': { action: 'view' },
  'POST /dashboard/team/invite': { action: 'team.manage', body: { email: 'not an e-mail', role: 'viewer' } },
  'POST /dashboard/team/invitations/:id/resend': { action: 'team.manage' },
  'POST /dashboard/team/invitations/:id/revoke': { action: 'team.manage' },
  'POST /dashboard/team/users/:id/role': { action: 'team.manage', body: { role: 'owner' } },
  'POST /dashboard/team/users/:id/remove': { action: 'team.manage' },
  'POST /dashboard/team/transfer': { action: 'team.transfer', body: { user_id: 'none' } },
  'GET /dashboard/account': { action: 'view' },
  'GET /dashboard/account/two-factor': { action: 'view' },
  'POST /dashboard/account/two-factor': { action: 'view', body: { code: 'not a code' } },
  'POST /dashboard/account/two-factor/recovery-codes': { action: 'view', body: { code: 'not a code' } },
  'POST /dashboard/account/two-factor/off': { action: 'view', body: { off_code: 'not a code' } },
  'POST /dashboard/account/password': { action: 'view', body: { current_password: 'not the password', new_password: 'short' } },
  'POST /dashboard/account/team-two-factor': { action: 'team.require_two_factor', body: { required: 'no' } },
  'POST /dashboard/account/verify-email': { action: 'view' },
  'POST /dashboard/account/confirm': { action: 'view', body: { back: '/dashboard/account' } },
  'GET /dashboard/account/sessions': { action: 'view' },
  'POST /dashboard/account/sessions/end': { action: 'view', body: { session: 'none' } },
  'POST /dashboard/account/sessions/end-all': { action: 'view', endsSession: true },
  'GET /dashboard/verify-email/:token': { action: 'public' },
  'GET /dashboard/login/code': { action: 'public' },
  'POST /dashboard/login/code': { action: 'public' },
  'GET /dashboard/forgot-password': { action: 'public' },
  'POST /dashboard/forgot-password': { action: 'public' },
  'GET /dashboard/reset-password/:token': { action: 'public' },
  'POST /dashboard/reset-password/:token': { action: 'public' },
  'GET /dashboard/invitation/:token': { action: 'public' },
  'POST /dashboard/invitation/:token': { action: 'public' },
  'GET /dashboard/signup': { action: 'public' },
  'POST /dashboard/signup': { action: 'public' },
  'GET /dashboard/signup/:token': { action: 'public' },
  'POST /dashboard/signup/:token': { action: 'public' },
  'GET /dashboard/login': { action: 'public' },
  'POST /dashboard/login': { action: 'public' },
};

const REFUSED = 'Not allowed for your role';

const { t, routes } = await startRecordingRoutes();
afterAll(() => t.close());
t.clock.advance(20 * 365 * 24 * 3600);

// The world: one merchant (approved, so live works too) with a paid payment, a webhook delivery,
// a payment link, and one logged-in browser per role.
const owner = merchantBrowser(t.app);
const signedUp = await owner.signUp();
await approveSignedUp(t.ctx, signedUp.fields.email);
const merchantId = await merchantOwnedBy(t.db, signedUp.fields.email);
await owner.get('/dashboard/webhooks');
expect((await owner.post('/dashboard/webhooks/endpoint', { url: 'https://roles.example.com/hook' })).status).toBe(200);
const paid = await paidPayment(t.app, signedUp.keys.test);
// A payout of part of it, for the statement's routes.
const payout = await requestPayout(t.ctx, { merchantId, environment: 'test', amount: 100, requestedBy: signedUp.fields.email });
const [{ id: deliveryId }] = await t.db.query<{ id: number }>('SELECT max(id) AS id FROM webhook_deliveries WHERE merchant_id = $1', [merchantId]);
const madeLink = await t.app.inject({ method: 'POST', url: '/api/v2/payment-links/', headers: { authorization: `Key ${signedUp.keys.test}` }, payload: { name: 'Roles link', amount: 1000 } });
const link = JSON.parse(madeLink.body) as { idx: string };
const credentials: Record<MerchantRole, { email: string; password: string }> = {
  owner: { email: signedUp.fields.email, password: signedUp.fields.password },
  admin: await teamMember(t.ctx, merchantId, 'admin'),
  developer: await teamMember(t.ctx, merchantId, 'developer'),
  finance: await teamMember(t.ctx, merchantId, 'finance'),
  viewer: await teamMember(t.ctx, merchantId, 'viewer'),
};
const browsers = {} as Record<MerchantRole, MerchantBrowser>;
for (const role of merchantRoles) browsers[role] = await loggedInAs(t.app, credentials[role]);

// A team route's id is the owner's (a role change to owner, a removal of the owner: refused by the
// rules when the role may, by the table when not) or an invitation nobody has.
const [{ id: ownerId }] = await t.db.query<{ id: number }>(`SELECT id FROM merchant_users WHERE merchant_id = $1 AND role = 'owner'`, [merchantId]);
const concrete = (url: string) =>
  url
    .replace(':pidx', paid.pidx)
    .replace(/\/links\/:idx/, `/links/${link.idx}`)
    .replace(':idx', payout.idx)
    .replace(/\/users\/:id/, `/users/${ownerId}`)
    .replace(/\/invitations\/:id/, '/invitations/999999999')
    .replace(':id', String(deliveryId))
    .replace(':token', 'A'.repeat(43));

async function send(role: MerchantRole, method: string, url: string, request: Request) {
  const browser = request.endsSession ? await loggedInAs(t.app, credentials[role]) : browsers[role];
  if (method === 'GET') return browser.get(url);
  // The form's token of this user's own session, as a page of theirs would carry it.
  await browser.get('/dashboard');
  return browser.post(url, request.body ?? {});
}

const dashboardRoutes = routes.filter((r) => r.url.startsWith('/dashboard') && r.method !== 'HEAD');

describe('roles on the dashboard', () => {
  it('every dashboard route is listed with the action it declares (a new route must be classified)', () => {
    const declared = Object.fromEntries(dashboardRoutes.map((r) => [routeKey(r), r.config.public === true ? 'public' : r.config.action]));
    const listed = Object.fromEntries(Object.entries(routesTable).map(([key, { action }]) => [key, action]));
    expect(declared, 'add the route to test/isolation/roles.test.ts with the action of docs/dashboard.md').toEqual(listed);
  });

  it('every action of the table is some route’s', () => {
    const used = new Set(Object.values(routesTable).map((r) => r.action));
    expect(Object.keys(ACTIONS).filter((a) => !used.has(a as Action))).toEqual([]);
  });

  const checked = dashboardRoutes.filter((r) => routesTable[routeKey(r)] && routesTable[routeKey(r)].action !== 'public');
  describe.each(checked.map((r) => [routeKey(r), r] as const))('%s', (key, route) => {
    const { action, ...request } = routesTable[key] as { action: Action } & Request;
    it(`${action}: ${ACTIONS[action].roles.join(', ')}; refused to the others`, async () => {
      const url = concrete(route.url);
      for (const role of merchantRoles) {
        const before = await snapshotOfMerchant(t.db, merchantId);
        const answer = await send(role, route.method, url, request);
        const shown = `${role}: ${route.method} ${url} → ${answer.status} ${answer.body.slice(0, 300)}`;
        expect(answer.status, shown).toBeLessThan(500);
        if (may(role, action)) {
          expect(answer.body, shown).not.toContain(REFUSED);
          // Past the check: only a route that ends the session sends to log-in.
          expect(answer.location?.startsWith('/dashboard/login') ?? false, shown).toBe(request.endsSession === true);
          continue;
        }
        expect(answer.status, shown).toBe(403);
        expect(answer.body, shown).toContain(REFUSED);
        expect(await snapshotOfMerchant(t.db, merchantId), `${shown}: the merchant's data changed`).toEqual(before);
      }
    }, 120_000);
  });
});
