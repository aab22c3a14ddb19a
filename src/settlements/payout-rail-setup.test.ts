// The payout rail's set-up in the app: with nothing set up the test environment pays through the
// sandbox's NPI simulator at PUBLIC_URL/sandbox/npi, which a connector built from that set-up
// reaches over the app's own transport; live stays on the bank file. An operator's NPI set-up for
// test becomes the member the simulator serves; its audit entry names no credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { cryptoIds } from '../clock.js';
import { testPfx } from '../payout-rails/npi/fixtures/test-key.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { findPayoutRail, listPayoutRails, npiConnectorOf, npiSetupOf, sandboxNpiSetup, setPayoutRail } from './payout-rail-setup.js';

let t: TestApp;
beforeAll(async () => {
  // A store of its own: the set-up below changes the test environment's rail for everything on it.
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t?.close());

let serial = 0;
const payoutTo = (account: string, amount = 10_000) => {
  const batchId = `BT${cryptoIds.random(8)}${++serial}`;
  return { batchId, transactions: [{ instructionId: `${batchId}-1`, endToEndId: `Payout ${batchId}`, amount, creditorAgent: '0401', creditorBranch: '1', creditorName: 'Ram Bahadur Thapa', creditorAccount: account }] };
};

describe('the payout rail of each environment', () => {
  it("is, with nothing set up, the sandbox's NPI in test and the bank file in live", async () => {
    const test = await findPayoutRail(t.ctx, 'test');
    expect(test).toMatchObject({ rail: 'npi', sandbox: true, setup: { settings: { base_url: 'http://bhuktani.test/sandbox/npi', debtor_bank: '9999' } } });
    expect(await findPayoutRail(t.ctx, 'live')).toEqual({ rail: 'file' });
    // The sandbox member's key and secrets are made once and kept; its key serves whatever a test's clock says.
    expect(await findPayoutRail(t.ctx, 'test')).toEqual(test);
    if (test.rail === 'npi') expect(npiSetupOf(test.setup, new Date('2060-01-01T00:00:00Z')).debtor).toMatchObject({ agent: '9999' });
    const listed = await listPayoutRails(t.ctx);
    expect(listed.map((l) => [l.environment, l.rail, l.sandbox])).toEqual([
      ['test', 'npi', true],
      ['live', 'file', false],
    ]);
    expect(JSON.stringify(listed)).not.toContain(test.rail === 'npi' ? test.setup.credentials.client_secret : '?');
  });

  it("validates an account and pays in real time through the app's /sandbox/npi", async () => {
    const rail = await findPayoutRail(t.ctx, 'test');
    if (rail.rail !== 'npi') throw new Error('the test environment pays through NPI');
    const npi = npiConnectorOf(t.ctx, rail.setup);
    expect(await npi.validateAccount({ bankId: '0401', accountId: '01234567890001', accountName: 'Ram Bahadur Thapa' })).toMatchObject({ kind: 'match' });
    expect(await npi.validateAccount({ bankId: '0401', accountId: '01234567890003', accountName: 'Ram Bahadur Thapa' })).toMatchObject({ kind: 'refused' });
    const payout = payoutTo('01234567890001');
    expect(await npi.postRealTime(payout)).toMatchObject({ kind: 'answered', transactions: [{ status: 'paid' }] });
    expect(await npi.reportByInstruction('cips', { batchId: payout.batchId, instructionId: payout.transactions[0].instructionId, amount: 10_000 })).toMatchObject({ kind: 'found', transactions: [{ status: 'paid' }] });
    // Served by the app itself: the same simulator answers over HTTP at its address.
    const asked = await t.app.inject({ method: 'POST', url: '/sandbox/npi/api/validatebankaccount', payload: {} });
    expect(asked.statusCode).toBe(401);
  });

  it("makes an operator's NPI set-up of test the member the simulator serves, audited without a credential", async () => {
    const pfx = testPfx();
    const username = `OPERATOR${cryptoIds.random(6)}@1701`;
    const set = await setPayoutRail(t.ctx, {
      actor: CLI_ACTOR,
      environment: 'test',
      rail: 'npi',
      values: {
        base_url: 'http://bhuktani.test/sandbox/npi/',
        client_id: 'operator-client',
        client_secret: 'operator-client-secret',
        username,
        password: 'operator-password',
        key_file: pfx.pfx.toString('base64'),
        key_passphrase: pfx.passphrase,
        debtor_bank: '1701',
        debtor_branch: '1',
        debtor_account: '00100000000018',
        debtor_name: 'Bhuktani Settlement',
      },
    });
    expect(set).toMatchObject({ environment: 'test', rail: 'npi', sandbox: false, settings: { base_url: 'http://bhuktani.test/sandbox/npi', username } });
    const rail = await findPayoutRail(t.ctx, 'test');
    expect(rail).toMatchObject({ rail: 'npi', sandbox: false, setup: { credentials: { client_secret: 'operator-client-secret', key_passphrase: pfx.passphrase } } });
    if (rail.rail !== 'npi') throw new Error('set up as NPI');
    const payout = payoutTo('01234567895555');
    expect(await npiConnectorOf(t.ctx, rail.setup).postRealTime(payout)).toMatchObject({ kind: 'answered', transactions: [{ status: 'paid' }] });

    const [audit] = await t.db.query<{ action: string; object_id: string; after: unknown }>("SELECT action, object_id, after FROM audit_log WHERE object_type = 'payout_rail' ORDER BY id DESC LIMIT 1");
    expect(audit).toMatchObject({ action: 'payout_rail.set', object_id: 'test', after: { rail: 'npi', settings: { username }, credentials: ['client_secret', 'password', 'key_file', 'key_passphrase'] } });
    expect(JSON.stringify(audit)).not.toMatch(/operator-client-secret|operator-password/);
    const sealed = await t.db.query<{ credentials_sealed: string }>("SELECT credentials_sealed FROM payout_rails WHERE environment = 'test'");
    expect(sealed[0].credentials_sealed).not.toContain('operator');

    // Back to the bank file: the simulator serves the sandbox's own member again.
    await setPayoutRail(t.ctx, { actor: CLI_ACTOR, environment: 'test', rail: 'file' });
    expect(await findPayoutRail(t.ctx, 'test')).toEqual({ rail: 'file' });
    const sandbox = npiConnectorOf(t.ctx, await sandboxNpiSetup(t.ctx));
    expect(await sandbox.validateAccount({ bankId: '0401', accountId: '01234567890001', accountName: 'Ram Bahadur Thapa' })).toMatchObject({ kind: 'match' });
  });
});
