// Providers' set-up and health: credentials sealed at rest and never shown, a
// live provider only with PROVIDER_SECRETS_KEY, a disabled provider off the hosted page, and a
// provider that keeps failing left off it for a cool-down, whichever instance saw the failures.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { open, seal, sealKeys, SealError } from '../secrets/seal.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { providerNames } from './registry.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { offeredProviders } from '../provider-payments/offered-providers.js';
import { checkLiveProviderKeys, enableProvider, findProviderSetup, listProviders, setProvider } from './provider-setup.js';

let t: TestApp;
let second: TestApp;
let api: ReturnType<typeof merchantApi>;
const key = randomBytes(32);

beforeAll(async () => {
  t = await startTestApp({ ownDb: true, config: { secretsKey: key, providerFailureLimit: 2, providerCooldownSeconds: 60, providerTimeoutMs: 300 } });
  // Another instance on the same store, with its own clock.
  second = await startTestApp({ db: t.db, config: { secretsKey: key, providerFailureLimit: 2, providerCooldownSeconds: 60 } });
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(async () => {
  await second.close();
  await t.close();
});

describe('sealing', () => {
  it('opens what it sealed, only in the row it was sealed for, and not after a change', async () => {
    const keys = await sealKeys(t.db, key);
    const sealed = seal(keys, 'secret-value', 'provider:khalti:live');
    expect(sealed).not.toContain('secret-value');
    expect(open(keys, sealed, 'provider:khalti:live')).toBe('secret-value');
    expect(() => open(keys, sealed, 'provider:esewa:live')).toThrow(SealError);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => open(keys, tampered, 'provider:khalti:live')).toThrow(SealError);
    const otherKeys = await sealKeys(t.db, randomBytes(32));
    expect(() => open({ ...otherKeys, byId: new Map([...otherKeys.byId].filter(([id]) => id !== 'store')) }, sealed, 'provider:khalti:live')).toThrow(/another key/);
  });
});

describe('set-up', () => {
  it('keeps a live provider’s credentials sealed in the store, never in the list, the audit log or the settings', async () => {
    await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'live', values: { base_url: 'https://khalti.example.com/', secret_key: 'live_secret_key_0123456789abcdef' } });
    const [row] = await t.db.query<Record<string, unknown>>("SELECT * FROM providers WHERE name = 'khalti' AND environment = 'live'");
    expect(JSON.stringify(row)).not.toContain('0123456789abcdef');
    expect(row.settings).toEqual({ base_url: 'https://khalti.example.com' });
    const audit = await t.db.query("SELECT after FROM audit_log WHERE action = 'provider.set'");
    expect(JSON.stringify(audit)).not.toContain('0123456789abcdef');
    expect(JSON.stringify(await listProviders(t.ctx))).not.toContain('0123456789abcdef');
    expect((await findProviderSetup(t.ctx, 'khalti', 'live'))!.credentials.secret_key).toBe('live_secret_key_0123456789abcdef');
    expect(await checkLiveProviderKeys(t.ctx)).toBeUndefined();
    expect(await checkLiveProviderKeys({ db: t.db, config: { ...t.ctx.config, secretsKey: undefined } })).toMatch(/PROVIDER_SECRETS_KEY/);
  });

  it('refuses a live provider without PROVIDER_SECRETS_KEY, and one reached over plain http', async () => {
    const ctx = { ...t.ctx, config: { ...t.ctx.config, secretsKey: undefined } };
    await expect(setProvider(ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'live', values: {} })).rejects.toThrow(/PROVIDER_SECRETS_KEY/);
    await expect(
      setProvider(t.ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'live', values: { form_url: 'http://esewa.example.com/form', status_url: 'https://esewa.example.com/status', product_code: 'P', secret_key: 'S' } }),
    ).rejects.toMatchObject({ fields: { form_url: ['A live provider is reached over https.'] } });
  });

  it('lists every field that is wrong at once, and refuses a key file that does not open', async () => {
    await expect(setProvider(t.ctx, { actor: CLI_ACTOR, name: 'connectips', environment: 'test', values: { gateway_url: 'not a url', pfx: Buffer.from('junk').toString('base64') } })).rejects.toMatchObject({
      fields: {
        gateway_url: ['Enter a valid URL.'],
        api_url: ['This field is required.'],
        merchant_id: ['This field is required.'],
        app_id: ['This field is required.'],
        app_name: ['This field is required.'],
        password: ['This field is required.'],
        pfx: [expect.stringMatching(/does not open/)],
      },
    });
  });

  it('offers only enabled providers on the hosted page, and the change is every instance’s', async () => {
    expect(await offeredProviders(t.db, 'test', t.clock.now())).toEqual(providerNames);
    expect(await offeredProviders(t.db, 'live', t.clock.now())).toEqual(['khalti']);
    await enableProvider(t.ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'test', enabled: false });
    const { body } = await api.initiate(validInitiate());
    const page = await providerPayer(second.app).browser.open(body.pidx);
    expect(page.body).not.toContain('value="esewa"');
    expect(page.body).toContain('value="khalti"');
    await enableProvider(t.ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'test', enabled: true });
    expect(await offeredProviders(second.db, 'test', second.clock.now())).toContain('esewa');
  });
});

describe('failover', () => {
  it('leaves a provider that fails PROVIDER_FAILURE_LIMIT times in a row off the hosted page for the cool-down, on every instance', async () => {
    await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: 'http://127.0.0.1:9', secret_key: 'test_secret_key_x' } });
    const payer = providerPayer(t.app);
    for (let i = 0; i < 2; i++) {
      const { body } = await api.initiate(validInitiate());
      const chosen = await payer.choose(body.pidx, 'khalti');
      expect(chosen.status).toBe(503);
      expect(chosen.body).toContain('not available at the moment');
    }
    const { body } = await api.initiate(validInitiate());
    const page = await providerPayer(second.app).browser.open(body.pidx);
    expect(page.body).not.toContain('value="khalti"');
    expect(page.body).toContain('value="connectips"');
    const attempts = await t.db.query<{ state: string }>("SELECT state FROM provider_attempts WHERE provider = 'khalti'");
    expect(attempts.every((a) => a.state === 'Failed')).toBe(true);
    t.clock.advance(61);
    expect(await offeredProviders(t.db, 'test', t.clock.now())).toContain('khalti');
  });

  it('counts a provider’s refusal of a request as invalid as no failure: it stays offered', async () => {
    // Khalti's documented answer to a request it finds invalid (docs.khalti.com, Web Checkout, initiate's errors).
    const refusing = createServer((request, response) => {
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ amount: ['Amount should be greater than Rs. 10, that is 1000 paisa.'], error_key: 'validation_error' }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, secret_key: 'test_secret_key_x' } });
      // On the second instance: its provider timeout is the default, not the first's 300 ms, so a busy
      // machine's slow answer is not taken for a failure.
      const payer = providerPayer(second.app);
      second.clock.advance(61); // past the cool-down the test above left
      for (let i = 0; i < 3; i++) {
        const { body } = await api.initiate(validInitiate({ amount: 5000 }));
        const chosen = await payer.choose(body.pidx, 'khalti');
        expect(chosen.status).toBe(400);
        expect(chosen.body).toContain('not available at the moment');
      }
      const [health] = await t.db.query<{ failures_in_a_row: number; cooldown_until: Date | null }>("SELECT failures_in_a_row, cooldown_until FROM provider_health WHERE name = 'khalti' AND environment = 'test'");
      expect(health).toMatchObject({ failures_in_a_row: 0, cooldown_until: null });
      expect(await offeredProviders(t.db, 'test', t.clock.now())).toContain('khalti');
      const [attempt] = await t.db.query<{ state: string; last_answer: string }>("SELECT state, last_answer FROM provider_attempts WHERE provider = 'khalti' ORDER BY id DESC LIMIT 1");
      expect(attempt).toEqual({ state: 'Failed', last_answer: expect.stringContaining('Khalti refused it: amount: Amount should be greater than Rs. 10') });
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});
