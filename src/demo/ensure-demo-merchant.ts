// On an empty store, `npm start` makes a demo merchant so a newcomer can buy something in the first
// minute (/demo). Its sandbox key is kept in plain text in server_secrets, unlike every other key:
// the demo shop must call the API with it, and it moves only sandbox money of a merchant nobody
// else uses. Deleting that row turns the demo shop off.
import type { Logger } from 'pino';
import type { AppContext } from '../context.js';
import type { Db, Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { readServerValue, storeServerValue } from '../http/server-secret.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { addPublishedTestPair } from '../merchants/esewa-credentials.js';
import type { Merchant } from '../merchants/merchant.js';
import { findSecretKeyOwner } from '../merchants/merchant-store.js';
import { hashSecretKey } from '../merchants/secret-key.js';

export const DEMO_MERCHANT = { name: 'Demo Shop', email: 'demo@bhuktani.local' } as const;
/** The server_secrets row holding the demo merchant's test secret key. */
export const DEMO_KEY_NAME = 'demo_test_secret_key';

export interface DemoMerchant {
  merchant: Merchant;
  testSecretKey: string;
}

export async function storeHasNoMerchants(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM merchants) AS any');
  return !row.any;
}

/** The demo merchant and its key, while the key is stored and still works. */
export async function findDemoMerchant(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<DemoMerchant | undefined> {
  const key = await readServerValue(ctx.db, DEMO_KEY_NAME);
  if (!key) return undefined;
  const owner = await findSecretKeyOwner(ctx.db, hashSecretKey(key));
  if (!owner || (owner.revokedAt && owner.revokedAt <= ctx.clock.now())) return undefined;
  return { merchant: owner.merchant, testSecretKey: key };
}

/**
 * The demo merchant: the existing one, a new one when the store has no merchant at all, or
 * undefined (a store that already had merchants gets no demo). It also answers, in the test
 * environment, to eSewa's published test pair (EPAYTEST), given once to the first demo merchant
 * (one made before eSewa's door gets it at its next start). Safe when several instances start
 * at once: the merchant and its stored key are written in one transaction, and the email is unique.
 */
export async function ensureDemoMerchant(
  ctx: AppContext,
  options: { storeIsEmpty?: (db: Queryable) => Promise<boolean> } = {},
): Promise<(DemoMerchant & { created: boolean }) | undefined> {
  const existing = await findDemoMerchant(ctx);
  if (existing) {
    await addPublishedTestPair(ctx, existing.merchant.id);
    return { ...existing, created: false };
  }
  if (!(await (options.storeIsEmpty ?? storeHasNoMerchants)(ctx.db))) return undefined;
  try {
    const made = await ctx.db.transaction(async (tx) => {
      const created = await createMerchant({ ...ctx, db: insideTransaction(ctx.db, tx) }, { ...DEMO_MERCHANT, password: ctx.ids.random(24) }, { logIn: false });
      await storeServerValue(tx, DEMO_KEY_NAME, created.test_secret_key);
      return created;
    });
    await addPublishedTestPair(ctx, made.merchant.id);
    return { merchant: made.merchant, testSecretKey: made.test_secret_key, created: true };
  } catch (error) {
    // Another instance made it first (the email is taken): use theirs.
    if (!(error instanceof AppError && error.code === 'validation_error')) throw error;
    const theirs = await findDemoMerchant(ctx);
    return theirs ? { ...theirs, created: false } : undefined;
  }
}

/** The start-up lines that tell a newcomer where to click and which key to try. */
export function announceDemoShop(log: Pick<Logger, 'info'>, demo: DemoMerchant, publicUrl: string): void {
  const url = `${publicUrl}/demo`;
  log.info({ demo_url: url, demo_test_secret_key: demo.testSecretKey }, `Demo shop: open ${url} — sandbox key of "${demo.merchant.name}": ${demo.testSecretKey}`);
}

/** `db` whose queries and nested transactions run inside `tx`, for use cases that open their own. */
function insideTransaction(db: Db, tx: Queryable): Db {
  return {
    kind: db.kind,
    query: <T>(sql: string, params?: unknown[]) => tx.query<T>(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (work) => work(tx),
    close: async () => {},
  };
}
