// The sandbox's providers (contract section 13): each provider's simulator under PUBLIC_URL/sandbox/,
// speaking its real protocol, so the test environment's ways to pay work with nothing set up. The
// app's own calls to them go in process (provider-http.ts). They hold no money: only the attempt's
// settlement at Bhuktani moves any, as it does for a real provider.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerConnectipsSimulator } from './connectips/connectips-simulator.js';
import { registerEsewaSimulator } from './esewa/esewa-simulator.js';
import { registerKhaltiSimulator } from './khalti/khalti-simulator.js';
import { serveSandboxInProcess } from './provider-http.js';

export async function sandboxProvidersPlugin(app: FastifyInstance, { ctx, csrfSecret, root }: { ctx: AppContext; csrfSecret: Buffer; root: FastifyInstance }) {
  // "Never answers": held until the caller has given up, then closed.
  const silence = () => new Promise<void>((resolve) => setTimeout(resolve, ctx.config.providerTimeoutMs + 1000).unref());
  registerKhaltiSimulator(app, ctx, csrfSecret, silence);
  registerEsewaSimulator(app, ctx, csrfSecret, silence);
  registerConnectipsSimulator(app, ctx, csrfSecret, silence);
  serveSandboxInProcess(ctx, root, ctx.config.publicUrl);
}
