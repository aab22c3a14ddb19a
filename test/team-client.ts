// Members of a merchant's team for tests: a new person, a user of a given role, added straight to the store (the
// invitation flow has its own tests), and a dashboard browser logged in as them.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../src/context.js';
import type { Queryable } from '../src/db/db.js';
import type { MerchantRole } from '../src/merchants/merchant-user.js';
import { insertMerchantPerson } from '../src/merchants/merchant-person-store.js';
import { insertMerchantUser } from '../src/merchants/merchant-user-store.js';
import { hashPassword } from '../src/people/password.js';
import { merchantBrowser, type MerchantBrowser } from './dashboard-client.js';

let counter = 0;

export interface TeamMember {
  /** Their membership of the team (merchant_users), as the team page's forms name it. */
  id: number;
  personId: number;
  email: string;
  password: string;
  role: MerchantRole;
}

/** A new person, a user of `role` in the merchant's team, with a unique e-mail (or the one given). */
export async function teamMember(ctx: AppContext, merchantId: number, role: Exclude<MerchantRole, 'owner'>, given: { email?: string; password?: string } = {}): Promise<TeamMember> {
  counter += 1;
  const email = given.email ?? `team-${role}-${process.pid}-${Date.now()}-${counter}@example.com`;
  const password = given.password ?? `${role} password ${counter}`;
  const now = ctx.clock.now();
  const person = await insertMerchantPerson(ctx.db, { email, passwordHash: await hashPassword(password), emailVerifiedAt: now, now });
  const user = await insertMerchantUser(ctx.db, { merchantId, personId: person.id, role, now });
  return { id: user.id, personId: person.id, email, password, role };
}

/** A dashboard browser logged in as `member`. */
export async function loggedInAs(app: FastifyInstance, member: Pick<TeamMember, 'email' | 'password'>): Promise<MerchantBrowser> {
  const browser = merchantBrowser(app);
  const answer = await browser.logIn(member.email, member.password);
  if (answer.status !== 303) throw new Error(`log-in of ${member.email} failed: ${answer.status}`);
  return browser;
}

/** The merchant whose owner logs in with `email`. */
export async function merchantOwnedBy(db: Queryable, email: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `SELECT u.merchant_id AS id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE lower(p.email) = lower($1) AND u.role = 'owner' AND u.removed_at IS NULL`,
    [email],
  );
  if (!row) throw new Error(`${email} owns no merchant`);
  return Number(row.id);
}
