// The sandbox's providers: each provider's simulator under PUBLIC_URL/sandbox/<name>/, speaking its
// real protocol, so the test environment's ways to pay work with nothing set up. The app's own calls
// to them go in process (provider-http.ts). They hold no money: only the attempt's settlement at
// Bhuktani moves any, as it does for a real provider. NPI's simulator, the test environment's payout
// rail, is served beside them and keeps its own books.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { checkNpiKey } from '../payout-rails/npi/npi-key.js';
import { serveSandboxInProcess } from '../providers/provider-http.js';
import { sandboxSetup } from '../providers/provider-setup.js';
import { providerNames } from '../providers/registry.js';
import { findPayoutRail, sandboxNpiSetup, type NpiRailSetup } from '../settlements/payout-rail-setup.js';
import { registerNpiSimulator, type NpiMember } from './npi/npi-simulator.js';
import { simulators } from './simulators.js';

export async function sandboxProvidersPlugin(app: FastifyInstance, { ctx, csrfSecret, root }: { ctx: AppContext; csrfSecret: Buffer; root: FastifyInstance }) {
  // "Never answers": held until the caller has given up, then closed.
  const silence = () => new Promise<void>((resolve) => setTimeout(resolve, ctx.config.providerTimeoutMs + 1000).unref());
  for (const name of providerNames) simulators[name](app, { ctx, csrfSecret, silence, sandboxSetup: () => sandboxSetup(ctx, name) });
  registerNpiSimulator(app, { prefix: '/sandbox/npi', db: ctx.db, clock: ctx.clock, ids: ctx.ids, member: npiMember(ctx) });
  serveSandboxInProcess(ctx, root, ctx.config.publicUrl);
}

/**
 * The member NPI's simulator serves, read on each call: the test environment's NPI set-up, so a
 * connector built from it is the member, or the sandbox's own when test pays otherwise.
 */
function npiMember(ctx: AppContext): () => Promise<NpiMember> {
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
