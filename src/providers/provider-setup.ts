// Providers as the operator set them up: `bhuktani provider set|enable|disable` and the console's
// Providers page, audited, the same for every instance (in the store). In the test environment a
// provider nobody set up runs against its simulator, with nothing to configure. Each provider's
// fields come from its descriptor (registry.ts).
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { readEndpointUrl } from '../http/endpoint-url.js';
import { AppError } from '../http/errors.js';
import { serverSecret } from '../http/server-secret.js';
import { keyId, open, seal, sealKeys, type SealKeys } from '../secrets/seal.js';
import type { ProviderSetup as AnyProviderSetup } from './provider.js';
import { findProviderRow, listProviderRows, setProviderEnabled, upsertProviderRow, type ProviderRow } from './provider-store.js';
import { descriptorOf, providerLabel, providerNames, type ProviderName } from './registry.js';

export type ProviderSetup = AnyProviderSetup & { name: ProviderName };

const keysOf = new WeakMap<object, Promise<SealKeys>>();

/** The seal keys of this store and configuration, read once. */
export function providerSealKeys(ctx: Pick<AppContext, 'db' | 'config'>): Promise<SealKeys> {
  let keys = keysOf.get(ctx.config);
  if (!keys) {
    keys = sealKeys(ctx.db, ctx.config.secretsKey);
    keysOf.set(ctx.config, keys);
    keys.catch(() => keysOf.delete(ctx.config));
  }
  return keys;
}

const context = (name: ProviderName, environment: Environment) => `provider:${name}:${environment}`;

/** The test environment's simulator of `name`: addresses under PUBLIC_URL/sandbox/, keys of the store. */
export async function sandboxSetup(ctx: Pick<AppContext, 'db' | 'config'>, name: ProviderName): Promise<ProviderSetup> {
  const secret = async (purpose: string) => (await serverSecret(ctx.db, `sandbox-${name}-${purpose}`)).toString('hex').slice(0, 32);
  const made = await descriptorOf(name).sandboxSetup({ base: `${ctx.config.publicUrl}/sandbox/${name}`, db: ctx.db, secret });
  return { name, environment: 'test', enabled: true, sandbox: true, ...made };
}

async function setupOf(ctx: Pick<AppContext, 'db' | 'config'>, row: ProviderRow): Promise<ProviderSetup> {
  const keys = await providerSealKeys(ctx);
  const credentials = JSON.parse(open(keys, row.credentials_sealed, context(row.name, row.environment))) as Record<string, string>;
  return { name: row.name, environment: row.environment, enabled: row.enabled, sandbox: false, settings: row.settings, credentials };
}

async function readProviderSetup(ctx: Pick<AppContext, 'db' | 'config'>, name: ProviderName, environment: Environment): Promise<ProviderSetup | undefined> {
  const row = await findProviderRow(ctx.db, name, environment);
  if (row) return setupOf(ctx, row);
  return environment === 'test' ? sandboxSetup(ctx, name) : undefined;
}

const setups = new WeakMap<object, Map<string, { until: number; setup: Promise<ProviderSetup | undefined> }>>();

/**
 * The provider's set-up in `environment`: the operator's, the simulator in test when there is none,
 * else undefined. Read at most once per KEY_CACHE_SECONDS by an instance, as secret keys are: a
 * change reaches every instance within that time, and a payment's way through a provider costs no
 * read of it.
 */
export async function findProviderSetup(ctx: Pick<AppContext, 'db' | 'config'>, name: ProviderName, environment: Environment): Promise<ProviderSetup | undefined> {
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  if (ttlMs === 0) return readProviderSetup(ctx, name, environment);
  let cache = setups.get(ctx.config);
  if (!cache) setups.set(ctx.config, (cache = new Map()));
  const key = `${name}:${environment}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.setup;
  const setup = readProviderSetup(ctx, name, environment);
  cache.set(key, { until: now + ttlMs, setup });
  setup.catch(() => cache.delete(key));
  return setup;
}

const changes = new WeakMap<object, number>();

/** How many set-up changes this instance made: what is cached from the set-ups is stale when it moves. */
export const setupChanges = (ctx: Pick<AppContext, 'config'>): number => changes.get(ctx.config) ?? 0;

/** This instance's own changes show at once. */
function forgetSetups(ctx: Pick<AppContext, 'config'>): void {
  setups.delete(ctx.config);
  changes.set(ctx.config, setupChanges(ctx) + 1);
}

export interface ProviderListing {
  name: ProviderName;
  label: string;
  environment: Environment;
  enabled: boolean;
  sandbox: boolean;
  settings: Record<string, string>;
  updatedAt?: Date;
}

/** Every provider of both environments as `provider list` and the console show them: never a credential. */
export async function listProviders(ctx: Pick<AppContext, 'db' | 'config'>): Promise<ProviderListing[]> {
  const rows = await listProviderRows(ctx.db);
  const listings: ProviderListing[] = [];
  for (const environment of ['test', 'live'] as const) {
    for (const name of providerNames) {
      const row = rows.find((r) => r.name === name && r.environment === environment);
      if (row) listings.push({ name, label: providerLabel(name), environment, enabled: row.enabled, sandbox: false, settings: row.settings, updatedAt: row.updated_at });
      else if (environment === 'test') listings.push({ name, label: providerLabel(name), environment, enabled: true, sandbox: true, settings: (await sandboxSetup(ctx, name)).settings });
    }
  }
  return listings;
}

function checkUrl(field: string, raw: string, environment: Environment): string {
  const read = readEndpointUrl(raw, environment);
  if ('url' in read) return read.url;
  throw new AppError('validation_error', { fields: { [field]: [read.problem === 'not a URL' ? 'Enter a valid URL.' : 'A live provider is reached over https.'] } });
}

/** Checks every field at once; the settings and credentials to store. */
function checkSetup(name: ProviderName, environment: Environment, given: Record<string, string | undefined>) {
  const descriptor = descriptorOf(name);
  const fields: Record<string, string[]> = {};
  const settings: Record<string, string> = {};
  const credentials: Record<string, string> = {};
  for (const field of descriptor.setup) {
    const raw = given[field.name];
    const value = raw?.trim() ?? '';
    if (!value && !field.optional) {
      fields[field.name] = [raw === undefined ? 'This field is required.' : 'This field may not be blank.'];
      continue;
    }
    const into = field.secret ? credentials : settings;
    // A key file or passphrase is kept exactly as given; the rest without surrounding spaces.
    into[field.name] = field.kind === 'file' || field.optional ? (raw ?? '') : value;
    if (field.kind !== 'url' || !value) continue;
    try {
      into[field.name] = checkUrl(field.name, value, environment);
    } catch (error) {
      if (!(error instanceof AppError) || !error.fields) throw error;
      Object.assign(fields, error.fields);
    }
  }
  for (const [field, problem] of Object.entries(descriptor.checkCredentials?.(credentials) ?? {})) fields[field] ??= [problem];
  if (Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });
  return { settings, credentials };
}

/**
 * Sets up (or replaces) a provider in one environment. A live one needs PROVIDER_SECRETS_KEY: its
 * credentials are never sealed with the store's own key. The audit entry shows the settings, never a
 * credential (only which credential fields changed).
 */
export async function setProvider(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  input: { actor: Actor; name: ProviderName; environment: Environment; values: Record<string, string | undefined> },
): Promise<ProviderListing> {
  const { name, environment, actor } = input;
  if (environment === 'live' && !ctx.config.secretsKey) {
    throw new AppError('bad_request', { detail: 'Set PROVIDER_SECRETS_KEY (32 bytes, e.g. openssl rand -hex 32) before setting up a live provider: live credentials are sealed with it.' });
  }
  const { settings, credentials } = checkSetup(name, environment, input.values);
  const keys = await providerSealKeys(ctx);
  const now = ctx.clock.now();
  const sealed = seal(keys, JSON.stringify(credentials), context(name, environment));
  return ctx.db.transaction(async (tx) => {
    const before = await upsertProviderRow(tx, { name, environment, enabled: true, settings, credentials_sealed: sealed, updated_at: now });
    await appendAudit(tx, {
      now,
      actor,
      action: 'provider.set',
      object: { type: 'provider', id: `${name}:${environment}` },
      environment,
      before: before ? { settings: before.settings, enabled: before.enabled } : undefined,
      after: { settings, enabled: before?.enabled ?? true, credentials: Object.keys(credentials).filter((k) => credentials[k] !== '') },
    });
    return { name, label: providerLabel(name), environment, enabled: before?.enabled ?? true, sandbox: false, settings, updatedAt: now };
  }).finally(() => forgetSetups(ctx));
}

/** Enables or disables a provider of one environment; the sandbox's simulator is set up on first use of this. */
export async function enableProvider(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  input: { actor: Actor; name: ProviderName; environment: Environment; enabled: boolean },
): Promise<void> {
  const { name, environment, enabled, actor } = input;
  const now = ctx.clock.now();
  if (!(await findProviderRow(ctx.db, name, environment))) {
    if (environment === 'live') throw new AppError('bad_request', { detail: `${providerLabel(name)} is not set up in live: use provider set first.` });
    // Disabling the sandbox's simulator stores it as a set-up of its own, so the choice is kept.
    const sandbox = await sandboxSetup(ctx, name);
    await upsertProviderRow(ctx.db, { name, environment, enabled: true, settings: sandbox.settings, credentials_sealed: seal(await providerSealKeys(ctx), JSON.stringify(sandbox.credentials), context(name, environment)), updated_at: now });
  }
  await ctx.db.transaction(async (tx) => {
    const before = await setProviderEnabled(tx, name, environment, enabled, now);
    await appendAudit(tx, { now, actor, action: enabled ? 'provider.enable' : 'provider.disable', object: { type: 'provider', id: `${name}:${environment}` }, environment, before: { enabled: before?.enabled }, after: { enabled } });
  });
  forgetSetups(ctx);
}

/** A server refuses to start with a live provider whose credentials PROVIDER_SECRETS_KEY does not open. */
export async function checkLiveProviderKeys(ctx: Pick<AppContext, 'db' | 'config'>): Promise<string | undefined> {
  const rows = (await listProviderRows(ctx.db)).filter((r) => r.environment === 'live');
  if (rows.length === 0) return undefined;
  if (!ctx.config.secretsKey) return 'the store has live providers set up: set PROVIDER_SECRETS_KEY, the key their credentials were sealed with';
  const configured = keyId(ctx.config.secretsKey);
  for (const row of rows) {
    if (row.credentials_sealed.split('.')[1] !== configured) return `the credentials of ${row.name} (live) were sealed with another PROVIDER_SECRETS_KEY`;
  }
  return undefined;
}

