// The connector of a provider's set-up, and its calls timed and counted (provider-health.ts).
import type { AppContext } from '../context.js';
import { connectipsConnector } from './connectips/connectips-connector.js';
import { esewaConnector } from './esewa/esewa-connector.js';
import { khaltiConnector } from './khalti/khalti-connector.js';
import { transportFor } from './provider-http.js';
import { recordCall } from './provider-health.js';
import type { ProviderSetup } from './provider-setup.js';
import { ProviderUnavailableError, type AttemptRef, type AttemptToStart, type Provider, type ProviderAnswer, type RefundAnswer } from './provider.js';

const connectors = { khalti: khaltiConnector, esewa: esewaConnector, connectips: connectipsConnector };

export function connectorFor(ctx: AppContext, setup: ProviderSetup): Provider {
  return connectors[setup.name](setup, transportFor(ctx, ctx.config.providerTimeoutMs));
}

/** A provider whose every server call is timed, counted in /metrics and in its health. */
export function measuredConnector(ctx: AppContext, setup: ProviderSetup) {
  const provider = connectorFor(ctx, setup);
  const record = (operation: 'start' | 'status' | 'refund', started: number, ok: boolean) =>
    recordCall(ctx, { name: setup.name, environment: setup.environment, operation, ok, ms: performance.now() - started });
  return {
    provider,
    async start(attempt: AttemptToStart) {
      const started = performance.now();
      try {
        const result = await provider.start(attempt);
        // A form the browser posts is no call to the provider's server.
        if (result.redirect.method === 'GET') await record('start', started, true);
        return result;
      } catch (error) {
        if (error instanceof ProviderUnavailableError) await record('start', started, false);
        throw error;
      }
    },
    /** The QR way: the provider's server is asked for the QR, timed and counted as a start. */
    async startQr(attempt: AttemptToStart) {
      if (!provider.startQr) throw new ProviderUnavailableError(`${setup.name} issues no QR`);
      const started = performance.now();
      try {
        const result = await provider.startQr(attempt);
        await record('start', started, true);
        return result;
      } catch (error) {
        if (error instanceof ProviderUnavailableError) await record('start', started, false);
        throw error;
      }
    },
    async status(attempt: AttemptRef): Promise<ProviderAnswer> {
      const started = performance.now();
      const answer = await provider.status(attempt);
      await record('status', started, !(answer.kind === 'unknown' && answer.fault));
      return answer;
    },
    async refund(...args: Parameters<NonNullable<Provider['refund']>>): Promise<RefundAnswer | undefined> {
      if (!provider.refund) return undefined;
      const started = performance.now();
      const answer = await provider.refund(...args);
      await record('refund', started, !(answer.kind === 'unknown' && answer.fault));
      return answer;
    },
  };
}
