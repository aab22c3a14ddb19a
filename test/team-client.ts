// Members of a merchant's team for tests: a user of a given role added straight to the store (the
// invitation flow has its own tests), and a dashboard browser logged in as them.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../src/context.js';
import type { MerchantRole } from '../src/merchants/merchant-user.js';
import { insertMerchantUser } from '../src/merchants/merchant-user-store.js';
import { hashPassword } from '../src/people/password.js';
import { merchantBrowser, type MerchantBrowser } from './dashboard-client.js';

let counter = 0;

export interface TeamMember {
  id: number;
  email: string;
  password: string;
  role: MerchantRole;
}

/** A new user of `role` in the merchant's team, with a unique e-mail. */
export async function teamMember(ctx: AppContext, merchantId: number, role: Exclude<MerchantRole, 'owner'>): Promise<TeamMember> {
  counter += 1;
  const email = `team-${role}-${process.pid}-${Date.now()}-${counter}@example.com`;
  const password = `${role} password ${counter}`;
  const now = ctx.clock.now();
  const user = await insertMerchantUser(ctx.db, { merchantId, email, role, passwordHash: await hashPassword(password), emailVerifiedAt: now, now });
  return { id: Number(user.id), email, password, role };
}

/** A dashboard browser logged in as `member`. */
export async function loggedInAs(app: FastifyInstance, member: Pick<TeamMember, 'email' | 'password'>): Promise<MerchantBrowser> {
  const browser = merchantBrowser(app);
  const answer = await browser.logIn(member.email, member.password);
  if (answer.status !== 303) throw new Error(`log-in of ${member.email} failed: ${answer.status}`);
  return browser;
}
