// The member NPI's simulator serves in the sandbox (the test environment's NPI set-up), and the
// simulator served in a process of its own for a command that has no server to reach.
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { checkNpiKey } from '../../payout-rails/npi/npi-key.js';
import { serveSandboxInProcess } from '../../providers/provider-http.js';
import { findPayoutRail, sandboxNpiSetup, type NpiRailSetup } from '../../settlements/payout-rail-setup.js';
import { registerNpiSimulator, type NpiMember } from './npi-simulator.js';

/**
 * The member NPI's simulator serves, read on each call: the test environment's NPI set-up, so a
 * connector built from it is the member, or the sandbox's own when test pays otherwise.
 */
export function npiMember(ctx: AppContext): () => Promise<NpiMember> {
  // The certificate of the last key read: opening a PFX costs more than the rest of a call.
  let known: { pfx: string; passphrase: string; certificate: string } | undefined;
  const certificateOf = ({ credentials }: NpiRailSetup) => {
    if (known?.pfx !== credentials.key_file || known.passphrase !== credentials.key_passphrase) {
      const key = checkNpiKey(Buffer.from(credentials.key_file, 'base64'), credentials.key_passphrase, ctx.clock.now());
      if (!key.ok) throw new Error(`the sandbox NPI member's key: ${key.reason}`);
      known = { pfx: credentials.key_file, passphrase: credentials.key_passphrase, certificate: key.key.publicKey.export({ type: 'spki', format: 'pem' }).toString() };
    }
    return known.certificate;
  };
  return async () => {
    const rail = await findPayoutRail(ctx, 'test');
    const setup = rail.rail === 'npi' ? rail.setup : await sandboxNpiSetup(ctx);
    const { settings, credentials } = setup;
    return { clientId: settings.client_id, clientSecret: credentials.client_secret, username: settings.username, password: credentials.password, certificate: certificateOf(setup) };
  };
}

/**
 * NPI's simulator in this process, for a command (`bhuktani payout reconcile --env test`): the
 * test environment's NPI is the sandbox's, served by the server; a command without a server reaches
 * the same books through its own copy. Closed by the caller.
 */
export async function npiSandboxInProcess(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerNpiSimulator(app, { prefix: '/sandbox/npi', db: ctx.db, clock: ctx.clock, ids: ctx.ids, member: npiMember(ctx) });
  await app.ready();
  serveSandboxInProcess(ctx, app, ctx.config.publicUrl);
  return app;
}
