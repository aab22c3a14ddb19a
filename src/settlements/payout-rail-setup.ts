// The payout rail of each environment as an operator set it (`bhuktani payout rail set|show`),
// audited, the same for every instance: the bank file, or NCHL's National Payments Interface. With
// nothing set up the test environment pays through the sandbox's NPI simulator (under
// PUBLIC_URL/sandbox/npi, with a member of the store's own) and live stays on the bank file. An NPI
// set-up's client secret, password and PFX are sealed as providers' credentials are.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { readEndpointUrl } from '../http/endpoint-url.js';
import { AppError } from '../http/errors.js';
import { serverSecret } from '../http/server-secret.js';
import { npiConnector, type NpiConnector, type NpiSetup } from '../payout-rails/npi/npi-connector.js';
import { checkNpiKey } from '../payout-rails/npi/npi-key.js';
import { transportFor } from '../providers/provider-http.js';
import { providerSealKeys } from '../providers/provider-setup.js';
import { keyId, open, seal } from '../secrets/seal.js';
import { findPayoutRailRow, listPayoutRailRows, upsertPayoutRailRow, type PayoutRailName, type PayoutRailRow } from './payout-rail-store.js';
import { sandboxNpiPfx } from './sandbox-npi-key.js';

/** What an NPI set-up shows: where NPI is, who Bhuktani is there, and the account payouts leave from. */
export interface NpiRailSettings {
  base_url: string;
  client_id: string;
  username: string;
  debtor_bank: string;
  debtor_branch: string;
  debtor_account: string;
  debtor_name: string;
  /** `real-time` (the default): each payout within connectIPS's limit goes at once; `batches`: all go in NCHL-IPS batches (but those to the debtor's own bank, which NCHL-IPS does not carry). */
  send?: NpiSend;
}

export const npiSends = ['real-time', 'batches'] as const;
export type NpiSend = (typeof npiSends)[number];

/** What it never shows: `key_file` is the PFX, base64. */
export interface NpiRailCredentials {
  client_secret: string;
  password: string;
  key_file: string;
  key_passphrase: string;
}

export interface NpiRailSetup {
  settings: NpiRailSettings;
  credentials: NpiRailCredentials;
}

export type PayoutRail = { rail: 'file' } | { rail: 'npi'; sandbox: boolean; setup: NpiRailSetup };

const settingNames = ['base_url', 'client_id', 'username', 'debtor_bank', 'debtor_branch', 'debtor_account', 'debtor_name'] as const satisfies readonly (keyof NpiRailSettings)[];
const credentialNames = ['client_secret', 'password', 'key_file', 'key_passphrase'] as const satisfies readonly (keyof NpiRailCredentials)[];

const context = (environment: Environment) => `payout_rail:npi:${environment}`;

/** The sandbox's own NPI member: its addresses under PUBLIC_URL/sandbox/npi, its secrets and key the store's. */
export async function sandboxNpiSetup(ctx: Pick<AppContext, 'db' | 'config'>): Promise<NpiRailSetup> {
  const secret = async (purpose: string) => (await serverSecret(ctx.db, `sandbox-npi-${purpose}`)).toString('hex').slice(0, 32);
  const username = 'BHUKTANI@9999';
  return {
    settings: {
      base_url: `${ctx.config.publicUrl}/sandbox/npi`,
      client_id: 'bhuktani-sandbox',
      username,
      debtor_bank: '9999',
      debtor_branch: '1',
      debtor_account: '99990000000017',
      debtor_name: 'Bhuktani Sandbox Settlement',
    },
    credentials: { client_secret: await secret('client-secret'), password: await secret('password'), key_file: await sandboxNpiPfx(ctx.db, username), key_passphrase: '' },
  };
}

async function readPayoutRail(ctx: Pick<AppContext, 'db' | 'config'>, environment: Environment): Promise<PayoutRail> {
  const row = await findPayoutRailRow(ctx.db, environment);
  if (!row) return environment === 'test' ? { rail: 'npi', sandbox: true, setup: await sandboxNpiSetup(ctx) } : { rail: 'file' };
  if (row.rail === 'file' || row.credentials_sealed === null) return { rail: 'file' };
  const credentials = JSON.parse(open(await providerSealKeys(ctx), row.credentials_sealed, context(environment))) as NpiRailCredentials;
  return { rail: 'npi', sandbox: false, setup: { settings: row.settings as unknown as NpiRailSettings, credentials } };
}

const rails = new WeakMap<object, Map<Environment, { until: number; rail: Promise<PayoutRail> }>>();

/**
 * The payout rail of `environment`. Read at most once per KEY_CACHE_SECONDS by an instance, as
 * providers' set-ups are: a change reaches every instance within that time.
 */
export async function findPayoutRail(ctx: Pick<AppContext, 'db' | 'config'>, environment: Environment): Promise<PayoutRail> {
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  if (ttlMs === 0) return readPayoutRail(ctx, environment);
  let cache = rails.get(ctx.config);
  if (!cache) rails.set(ctx.config, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(environment);
  if (hit && hit.until > now) return hit.rail;
  const rail = readPayoutRail(ctx, environment);
  cache.set(environment, { until: now + ttlMs, rail });
  rail.catch(() => cache.delete(environment));
  return rail;
}

export interface PayoutRailListing {
  environment: Environment;
  rail: PayoutRailName;
  sandbox: boolean;
  settings: Partial<NpiRailSettings>;
  updatedAt?: Date;
}

/** The settings in the set-up's own order (the store's jsonb keeps them in its own). */
const ordered = (settings: Partial<NpiRailSettings>): Partial<NpiRailSettings> =>
  Object.fromEntries([...settingNames, 'send' as const].filter((name) => settings[name] !== undefined).map((name) => [name, settings[name]]));

const listingOf = (row: PayoutRailRow): PayoutRailListing => ({ environment: row.environment, rail: row.rail, sandbox: false, settings: ordered(row.settings), updatedAt: row.updated_at });

/** The rail of both environments as `payout rail show` shows them: never a credential. */
export async function listPayoutRails(ctx: Pick<AppContext, 'db' | 'config'>): Promise<PayoutRailListing[]> {
  const rows = await listPayoutRailRows(ctx.db);
  const listings: PayoutRailListing[] = [];
  for (const environment of ['test', 'live'] as const) {
    const row = rows.find((r) => r.environment === environment);
    if (row) listings.push(listingOf(row));
    else if (environment === 'test') listings.push({ environment, rail: 'npi', sandbox: true, settings: (await sandboxNpiSetup(ctx)).settings });
    else listings.push({ environment, rail: 'file', sandbox: false, settings: {} });
  }
  return listings;
}

function checkBaseUrl(raw: string, environment: Environment): string | { problem: string } {
  const read = readEndpointUrl(raw, environment);
  if ('url' in read) return read.url;
  return { problem: read.problem === 'not a URL' ? 'Enter a valid URL.' : 'Live NPI is reached over https.' };
}

/** What each field must be, as NPI's wire takes it (the connector's field rules); undefined when it is. */
const fieldRules: Partial<Record<keyof NpiRailSettings | keyof NpiRailCredentials, (value: string) => string | undefined>> = {
  // The API user ends every signed token string, whose fields are joined by commas.
  username: (v) => (/^[A-Za-z0-9._@/-]{1,100}$/.test(v) ? undefined : 'NPI’s API user (NAME@code) has letters, digits and . _ @ / - only.'),
  debtor_bank: (v) => (/^\d{4}$/.test(v) ? undefined : 'NCHL’s bank code has 4 digits.'),
  debtor_branch: (v) => (/^[A-Za-z0-9._@/-]{1,4}$/.test(v) ? undefined : 'A branch code has 1 to 4 letters or digits.'),
  debtor_account: (v) => (/^[A-Za-z0-9._@/-]{1,20}$/.test(v) ? undefined : 'An account number has 1 to 20 letters or digits.'),
  debtor_name: (v) => (v.length <= 140 && !/[\u0000-\u001f]/.test(v) ? undefined : 'The account’s name has at most 140 characters on one line.'),
};

const sentence = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

/** Checks every field at once; the settings and credentials to store. */
function checkNpiSetup(environment: Environment, given: Record<string, string | undefined>, now: Date): NpiRailSetup {
  const fields: Record<string, string[]> = {};
  const values: Record<string, string> = {};
  for (const name of [...settingNames, ...credentialNames]) {
    const raw = given[name];
    // A passphrase is kept exactly as given, and may be empty (a PFX without one).
    if (name === 'key_passphrase') {
      values[name] = raw ?? '';
      continue;
    }
    const value = raw?.trim() ?? '';
    if (!value) {
      fields[name] = [raw === undefined ? 'This field is required.' : 'This field may not be blank.'];
      continue;
    }
    values[name] = name === 'key_file' ? (raw ?? '') : value;
    const problem = fieldRules[name]?.(value);
    if (problem) fields[name] = [problem];
  }
  if (values.base_url) {
    const checked = checkBaseUrl(values.base_url, environment);
    if (typeof checked === 'string') values.base_url = checked;
    else fields.base_url = [checked.problem];
  }
  if (values.key_file) {
    // NCHL verifies every payout's token with the certificate: a key that does not open, or has
    // expired, is refused here rather than found as E003 on the first payout.
    const key = checkNpiKey(Buffer.from(values.key_file, 'base64'), values.key_passphrase, now);
    if (!key.ok) fields.key_file = [sentence(key.reason)];
  }
  const send = given.send?.trim() || 'real-time';
  if (!(npiSends as readonly string[]).includes(send)) fields.send = ['Send real-time (each payout at once, within connectIPS’s limit) or batches (NCHL-IPS).'];
  if (Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });
  const pick = <K extends string>(names: readonly K[]) => Object.fromEntries(names.map((n) => [n, values[n]])) as Record<K, string>;
  return { settings: { ...pick(settingNames), send: send as NpiSend }, credentials: pick(credentialNames) };
}

/**
 * Sets the payout rail of one environment: NPI with its set-up, or the bank file. NPI in live needs
 * PROVIDER_SECRETS_KEY: its credentials are never sealed with the store's own key. The audit entry
 * shows the settings, never a credential (only which were given).
 */
export async function setPayoutRail(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  input: { actor: Actor; environment: Environment } & ({ rail: 'file' } | { rail: 'npi'; values: Record<string, string | undefined> }),
): Promise<PayoutRailListing> {
  const { environment, actor } = input;
  const now = ctx.clock.now();
  let row: PayoutRailRow;
  let credentialsGiven: string[] = [];
  if (input.rail === 'npi') {
    if (environment === 'live' && !ctx.config.secretsKey) {
      throw new AppError('bad_request', { detail: 'Set PROVIDER_SECRETS_KEY (32 bytes, e.g. openssl rand -hex 32) before setting up NPI in live: live credentials are sealed with it.' });
    }
    const { settings, credentials } = checkNpiSetup(environment, input.values, now);
    const sealed = seal(await providerSealKeys(ctx), JSON.stringify(credentials), context(environment));
    row = { environment, rail: 'npi', settings: { ...settings }, credentials_sealed: sealed, updated_at: now };
    credentialsGiven = credentialNames.filter((n) => credentials[n] !== '');
  } else {
    row = { environment, rail: 'file', settings: {}, credentials_sealed: null, updated_at: now };
  }
  return ctx.db
    .transaction(async (tx) => {
      const before = await upsertPayoutRailRow(tx, row);
      await appendAudit(tx, {
        now,
        actor,
        action: 'payout_rail.set',
        object: { type: 'payout_rail', id: environment },
        environment,
        before: before ? { rail: before.rail, settings: before.settings } : undefined,
        after: { rail: row.rail, settings: row.settings, ...(row.rail === 'npi' ? { credentials: credentialsGiven } : {}) },
      });
      return listingOf(row);
    })
    .finally(() => rails.delete(ctx.config));
}

/** The connector's set-up from a rail's: its key opened (refused with the reason when it no longer opens or has expired). */
export function npiSetupOf(setup: NpiRailSetup, now: Date): NpiSetup {
  const { settings, credentials } = setup;
  const key = checkNpiKey(Buffer.from(credentials.key_file, 'base64'), credentials.key_passphrase, now);
  if (!key.ok) throw new AppError('conflict', { detail: `NPI’s key of this environment no longer serves: ${key.reason}. Set the payout rail up again with a new key file.` });
  return {
    credentials: { baseUrl: settings.base_url, clientId: settings.client_id, clientSecret: credentials.client_secret, username: settings.username, password: credentials.password },
    key: key.key,
    debtor: { agent: settings.debtor_bank, branch: settings.debtor_branch, account: settings.debtor_account, name: settings.debtor_name },
  };
}

const connectors = new WeakMap<NpiRailSetup, NpiConnector>();

/**
 * NPI's reports carry every transaction of a batch (up to 10,000) or of a day, about 0.5 KB each, and
 * NCHL publishes no paging: its answers are taken up to 64 MB, where a provider's stop at 1 MB.
 */
export const NPI_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * The NPI connector of a rail's set-up, over the app's transport (in process to the sandbox's
 * simulator); one per set-up read, so its access token serves every run until it expires.
 */
export function npiConnectorOf(ctx: Pick<AppContext, 'clock' | 'config'>, setup: NpiRailSetup): NpiConnector {
  const known = connectors.get(setup);
  if (known) return known;
  const connector = npiConnector(npiSetupOf(setup, ctx.clock.now()), transportFor(ctx, ctx.config.providerTimeoutMs, NPI_MAX_ANSWER_BYTES), ctx.clock);
  connectors.set(setup, connector);
  return connector;
}

/** A server refuses to start with a live NPI rail whose credentials PROVIDER_SECRETS_KEY does not open, as with a live provider. */
export async function checkLivePayoutRailKeys(ctx: Pick<AppContext, 'db' | 'config'>): Promise<string | undefined> {
  const live = (await listPayoutRailRows(ctx.db)).find((r) => r.environment === 'live' && r.credentials_sealed);
  if (!live) return undefined;
  if (!ctx.config.secretsKey) return 'the store has a live NPI payout rail set up: set PROVIDER_SECRETS_KEY, the key its credentials were sealed with';
  if (live.credentials_sealed!.split('.')[1] !== keyId(ctx.config.secretsKey)) return 'the credentials of the live NPI payout rail were sealed with another PROVIDER_SECRETS_KEY';
  return undefined;
}
