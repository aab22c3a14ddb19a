// What each role of a merchant's team may do (on the dashboard, and who may invite): one table, read by the one check in
// the dashboard plugin's onRequest hook (dashboard.routes.ts) and by the pages that hide what a
// role may not use. Every dashboard route names its action in its config (`config: { action:
// 'refunds.create' }`) or says it is public (`config: { public: true }`); any other fails to register.
// docs/dashboard.md carries the same table (permissionTableMarkdown; a test compares them).
import { merchantRoles, type MerchantRole } from '../merchants/merchant-user.js';

export const ACTIONS = {
  /** See the home page, transactions and payments, payment links, the team; switch environment; log out. */
  view: { roles: ['owner', 'admin', 'developer', 'finance', 'viewer'], says: 'see the home page, transactions, payments, payment links and the team' },
  /** Download the transaction list as CSV. */
  'transactions.export': { roles: ['owner', 'admin', 'finance'], says: 'download transactions as CSV' },
  /** See the API keys and the webhook signing secrets. */
  'keys.view': { roles: ['owner', 'admin', 'developer'], says: 'see the API keys, webhooks and signing secrets' },
  /** Rotate a secret key. */
  'keys.rotate': { roles: ['owner', 'admin', 'developer'], says: 'rotate a secret key' },
  /** Set the webhook endpoint, resend a delivery. */
  'webhooks.manage': { roles: ['owner', 'admin', 'developer'], says: 'set the webhook endpoint, resend deliveries' },
  /** Create payment links, deactivate and activate them; every role sees them. */
  'links.manage': { roles: ['owner', 'admin', 'developer', 'finance'], says: 'create, deactivate and activate payment links' },
  /** Refund a payment. */
  'refunds.create': { roles: ['owner', 'admin', 'finance'], says: 'refund a payment' },
  /** Ask for a payout (settlements). */
  'payouts.request': { roles: ['owner', 'admin', 'finance'], says: 'request a payout' },
  /** See and change the business details and the settlement bank account; apply to go live. */
  'business.manage': { roles: ['owner', 'admin'], says: 'see and change the business details and bank account' },
  /** Invite, resend, revoke; change a role; remove a user. */
  'team.manage': { roles: ['owner', 'admin'], says: 'invite, change roles, remove users' },
  /** Require two-factor log-in of every user of the team (account safety). */
  'team.require_two_factor': { roles: ['owner'], says: 'require two-factor for the team' },
  /** Hand the ownership over to another user. */
  'team.transfer': { roles: ['owner'], says: 'hand over ownership' },
} as const satisfies Record<string, { roles: readonly MerchantRole[]; says: string }>;

export type Action = keyof typeof ACTIONS;

export const isAction = (value: unknown): value is Action => typeof value === 'string' && Object.hasOwn(ACTIONS, value);

export function may(role: MerchantRole, action: Action): boolean {
  return (ACTIONS[action].roles as readonly MerchantRole[]).includes(role);
}

/** The table as Markdown, exactly as docs/dashboard.md shows it. */
export function permissionTableMarkdown(): string {
  const rows = Object.entries(ACTIONS).map(([action, { roles, says }]) => `| \`${action}\` — ${says} | ${merchantRoles.map((role) => ((roles as readonly string[]).includes(role) ? 'yes' : '—')).join(' | ')} |`);
  return [`| action | ${merchantRoles.join(' | ')} |`, `|---|${merchantRoles.map(() => '---').join('|')}|`, ...rows].join('\n');
}
