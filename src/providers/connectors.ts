// The connector of a provider's set-up, speaking over this instance's transport (the simulators in
// process, the rest over HTTP with PROVIDER_TIMEOUT_MS).
import type { AppContext } from '../context.js';
import { transportFor } from './provider-http.js';
import type { Provider, ProviderSetup } from './provider.js';
import { descriptorOf, type ProviderName } from './registry.js';

export function connectorFor(ctx: Pick<AppContext, 'config'>, setup: ProviderSetup & { name: ProviderName }): Provider {
  return descriptorOf(setup.name).connector(setup, transportFor(ctx, ctx.config.providerTimeoutMs));
}
