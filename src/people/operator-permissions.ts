// What each operator role may do in the console: one table, read by the one check in the console
// plugin's onRequest hook (console.routes.ts). Every console route names the permission it needs in
// its config (`config: { permission: 'payments.resolve' }`); a route that names none does not register.
import type { OperatorRole } from '../people/operator.js';

export const PERMISSIONS = {
  /** See every page: merchants, payments, wallets, the audit log, your own account. */
  read: ['admin', 'support', 'finance'],
  /** Run `ledger verify` from the overview. */
  'ledger.verify': ['admin', 'support', 'finance'],
  /** Resolve a Pending payment (Completed or User canceled). */
  'payments.resolve': ['admin', 'support'],
  /** Freeze and unfreeze a payer wallet. */
  'wallets.freeze': ['admin', 'support'],
  /** Create wallets and top them up. */
  'wallets.manage': ['admin'],
  /** Approve, reject, suspend, reactivate merchants; change their fee. */
  'merchants.decide': ['admin'],
  /** Invite, remove and change the role of operators. */
  'operators.manage': ['admin'],
  /** Move payouts (settlements). */
  'payouts.process': ['admin', 'finance'],
  /** Set up payment providers, enable and disable them. */
  'providers.manage': ['admin'],
  /** Mark refunds made at a provider by hand. */
  'providers.refunds': ['admin', 'finance'],
} as const satisfies Record<string, readonly OperatorRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What a route asks of its caller: a permission (signed in, with a role that has it), or
 * 'signed-out' for the few pages before sign-in (sign-in, enrolment, accepting an invitation),
 * which work in their own half-way session or none.
 */
export type RouteAccess = Permission | 'signed-out';

export const isPermission = (value: unknown): value is Permission => typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);

export function mayUse(role: OperatorRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}
