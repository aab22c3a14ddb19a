// The sandbox's providers: each provider's simulator under PUBLIC_URL/sandbox/<name>/, speaking its
// real protocol, so the test environment's ways to pay work with nothing set up. The app's own calls
// to them go in process (provider-http.ts). They hold no money: only the attempt's settlement at
// Bhuktani moves any, as it does for a real provider. NPI's simulator, the test environment's payout
// rail, is served beside them and keeps its own books.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { serveSandboxInProcess } from '../providers/provider-http.js';
import { sandboxSetup } from '../providers/provider-setup.js';
import { providerNames } from '../providers/registry.js';
import { npiMember } from './npi/npi-member.js';
import { registerNpiSimulator } from './npi/npi-simulator.js';
import { simulators } from './simulators.js';

export async function sandboxProvidersPlugin(app: FastifyInstance, { ctx, csrfSecret, root }: { ctx: AppContext; csrfSecret: Buffer; root: FastifyInstance }) {
  // "Never answers": held until the caller has given up, then closed.
  const silence = () => new Promise<void>((resolve) => setTimeout(resolve, ctx.config.providerTimeoutMs + 1000).unref());
  for (const name of providerNames) simulators[name](app, { ctx, csrfSecret, silence, sandboxSetup: () => sandboxSetup(ctx, name) });
  registerNpiSimulator(app, { prefix: '/sandbox/npi', db: ctx.db, clock: ctx.clock, ids: ctx.ids, member: npiMember(ctx) });
  serveSandboxInProcess(ctx, root, ctx.config.publicUrl);
}
