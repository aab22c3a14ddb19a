// Every provider's simulator, one line each: the sandbox's other half of the registry
// (src/providers/registry.ts). A provider without its simulator here fails the type check.
import type { ProviderName } from '../providers/registry.js';
import { registerConnectipsSimulator } from './connectips/connectips-simulator.js';
import { registerEsewaSimulator } from './esewa/esewa-simulator.js';
import { registerFonepaySimulator } from './fonepay/fonepay-simulator.js';
import { registerKhaltiSimulator } from './khalti/khalti-simulator.js';
import type { RegisterSimulator } from './simulator-tools.js';

export const simulators: Record<ProviderName, RegisterSimulator> = {
  khalti: registerKhaltiSimulator,
  esewa: registerEsewaSimulator,
  connectips: registerConnectipsSimulator,
  fonepay: registerFonepaySimulator,
};
