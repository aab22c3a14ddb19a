// The registry is the one list of providers: every other place that names them is derived from it
// or held to it here (the store's checks, the ledger's numbers, the list's type names, the CLI's
// flags, the console's labels, the refund way); the type check holds the typed client's names and
// each provider's own ledger number, list name and label (registry.ts: registryHolds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import type { Db } from '../db/db.js';
import { openTestDb } from '../../test/test-app.js';
import { attemptTimelineEntry } from '../provider-payments/attempt-timeline.js';
import { recordTypeOf as recordOf } from '../transactions/transaction-record.js';
import type { ProviderSetup } from './provider.js';
import { connectorFor } from './connectors.js';
import { routeProviderCalls } from './provider-http.js';
import { providerNames, providers, recordTypeOf, registryHolds, type ProviderName } from './registry.js';

/** A set-up of `name` with each of its fields given (an address where the field is one). */
const setupOf = (name: ProviderName): ProviderSetup & { name: ProviderName } => {
  const values = (secret: boolean) => Object.fromEntries(providers[name].setup.filter((f) => f.secret === secret).map((f) => [f.name, 'kind' in f && f.kind === 'url' ? 'https://provider.example' : 'given']));
  return { name, environment: 'test', enabled: true, sandbox: false, settings: values(false), credentials: values(true) };
};

/** Whose provider calls the tests answer. */
const owner = { config: { providerTimeoutMs: 1000 } } as Pick<AppContext, 'config'>;

describe('the providers’ registry', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  /** Each CHECK of `table` on `column`, evaluated for `value` by the store itself. */
  async function checksHold(table: string, column: string, value: string): Promise<boolean[]> {
    const checks = await db.query<{ def: string }>(
      `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relname = $1 AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ $2`,
      [table, `\\m${column}\\M`],
    );
    expect(checks.length, `${table}.${column} has a check`).toBeGreaterThan(0);
    return Promise.all(
      checks.map(async ({ def }) => {
        const expression = def.replace(/^CHECK /, '').replace(/ NOT VALID$/, '').replace(new RegExp(`\\b${column}\\b`, 'g'), '$1::text');
        const [row] = await db.query<{ holds: boolean }>(`SELECT (${expression}) AS holds`, [value]);
        return row.holds;
      }),
    );
  }

  it('names each provider as the store’s checks allow, and no check lists providers', async () => {
    for (const name of providerNames) {
      expect(await checksHold('providers', 'name', name)).not.toContain(false);
      expect(await checksHold('provider_attempts', 'provider', name)).not.toContain(false);
      expect(await checksHold('transactions', 'type', recordTypeOf(name))).not.toContain(false);
    }
    expect(await checksHold('providers', 'name', 'Not A Name')).toContain(false);
    expect(await checksHold('transactions', 'type', 'Payment')).toContain(false);
    const listing = await db.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'c'`);
    for (const name of providerNames) expect(listing.filter((c) => c.def.includes(`'${name}'`)).map((c) => c.def)).toEqual([]);
  });

  it('gives each provider its own ledger number, its label’s list name, and keeps the numbers it gave', () => {
    const numbers = providerNames.map((name) => providers[name].ledgerNumber);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.every((n) => Number.isSafeInteger(n) && n > 0)).toBe(true);
    // Ledger accounts of these numbers hold money: a number never moves to another provider.
    expect({ khalti: providers.khalti.ledgerNumber, esewa: providers.esewa.ledgerNumber, connectips: providers.connectips.ledgerNumber }).toEqual({ khalti: 1, esewa: 2, connectips: 3 });
    for (const name of providerNames) {
      expect(providers[name].recordType).toBe(`${providers[name].label} payment`);
      expect(recordOf(providers[name].recordType)).toEqual({ idx: `${name}_payment`, name: providers[name].recordType });
    }
    expect(new Set(providerNames.map((name) => providers[name].label)).size).toBe(providerNames.length);
  });

  it('words each provider’s attempts on the timeline (the typed client’s names are the compiler’s to check: registryHolds)', () => {
    expect(registryHolds).toEqual([true, true]);
    for (const name of providerNames) expect(attemptTimelineEntry('attempt_start', { provider: name })?.title).toBe(`Payer chose ${providers[name].label}`);
  });

  it('labels every set-up field for people, with one CLI flag each, and refunds by API exactly when the connector has one', () => {
    for (const name of providerNames) {
      const { setup } = providers[name];
      const flags = setup.map((f) => ('flag' in f && f.flag) || f.name.replace(/_/g, '-'));
      expect(new Set(flags).size, name).toBe(flags.length);
      expect(flags).not.toContain('env');
      for (const field of setup) {
        expect(field.name).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(field.label).toMatch(/^[A-Z]/);
      }
      const connector = connectorFor(owner, setupOf(name));
      expect(typeof connector.refund === 'function', name).toBe(providers[name].refundsByApi);
      expect(providers[name].amounts.least).toBeGreaterThanOrEqual(10);
    }
  });

  it('hands a connector only a set-up with every field it reads, and a stored reference only of its own shape', async () => {
    const asked: string[] = [];
    routeProviderCalls(owner, async (request) => {
      asked.push(request.url);
      return { status: 200, contentType: 'application/json', text: JSON.stringify({ pidx: 'P1', total_amount: 1000, status: 'Initiated', transaction_id: null, fee: 0, refunded: false }) };
    });
    const attempt = { idx: 'A1', amount: 1000, environment: 'test' as const, createdAt: new Date() };
    // A set-up kept from before a field was added: nothing starts, and each answer says why.
    const { secret_key: _, ...withoutKey } = setupOf('khalti').credentials;
    const lacking = connectorFor(owner, { ...setupOf('khalti'), credentials: withoutKey });
    await expect(lacking.start!({ ...attempt, providerReference: null, pidx: 'p', orderName: 'o', merchantName: 'm', websiteUrl: 'https://shop.example', customer: null, returnUrl: () => '' })).rejects.toThrow('Khalti (test) is set up without secret_key: set it up again');
    expect(await lacking.status({ ...attempt, providerReference: { pidx: 'P1' } })).toMatchObject({ kind: 'unknown', detail: expect.stringContaining('without secret_key') });
    // A reference of another shape (a packed string of before, another provider's fields) asks nothing.
    const khalti = connectorFor(owner, setupOf('khalti'));
    for (const stored of ['P1', { way: 'qr', qrMessage: 'x' }, { pidx: 7 }]) {
      expect(await khalti.status({ ...attempt, providerReference: stored }), JSON.stringify(stored)).toMatchObject({ kind: 'unknown', detail: expect.stringContaining("Khalti's reference of attempt A1 does not fit") });
    }
    expect(asked).toEqual([]);
    expect(await khalti.status({ ...attempt, providerReference: { pidx: 'P1' } })).toMatchObject({ kind: 'open' });
    expect(asked).toEqual(['https://provider.example/api/v2/epayment/lookup/']);
  });
});
