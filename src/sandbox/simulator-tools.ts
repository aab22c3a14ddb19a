// What a provider's simulator is given to serve the sandbox under PUBLIC_URL/sandbox/<name>/.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { ProviderSetup } from '../providers/provider.js';

export interface SimulatorTools {
  ctx: AppContext;
  csrfSecret: Buffer;
  /** "Never answers": held until the caller has given up, then closed. */
  silence: () => Promise<void>;
  /** The set-up the test environment's Bhuktani uses for this simulator (its keys). */
  sandboxSetup: () => Promise<ProviderSetup>;
}

/** Registers a provider's simulator's routes. */
export type RegisterSimulator = (app: FastifyInstance, tools: SimulatorTools) => void;
