// A provider's connector whose every server call is timed, and counted in /metrics and in its health.
import type { AppContext } from '../context.js';
import { connectorFor } from '../providers/connectors.js';
import { ProviderRefusedError, ProviderUnavailableError, type AttemptRef, type AttemptToStart, type Provider, type ProviderAnswer, type ProviderSetup, type RefundAnswer, type RefundedRecord } from '../providers/provider.js';
import type { ProviderName } from '../providers/registry.js';
import { recordCall } from './provider-health.js';

/** The connector of `setup`, measured. */
export function measuredConnector(ctx: AppContext, setup: ProviderSetup & { name: ProviderName }) {
  const provider = connectorFor(ctx, setup);
  const record = (operation: 'start' | 'status' | 'refund', started: number, ok: boolean, refused = false) =>
    recordCall(ctx, { name: setup.name, environment: setup.environment, operation, ok, refused, ms: performance.now() - started });
  return {
    provider,
    async start(attempt: AttemptToStart) {
      if (!provider.start) throw new ProviderUnavailableError(`${setup.name} has no page of its own: only its QR`);
      const started = performance.now();
      try {
        const result = await provider.start(attempt);
        // A form the browser posts is no call to the provider's server.
        if (result.redirect.method === 'GET') await record('start', started, true);
        return result;
      } catch (error) {
        if (error instanceof ProviderUnavailableError) await record('start', started, false);
        // The provider answered as it should, that the request was invalid: a healthy call.
        if (error instanceof ProviderRefusedError) await record('start', started, true, true);
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
    async refunded(attempt: AttemptRef): Promise<RefundedRecord | undefined> {
      if (!provider.refunded) return undefined;
      const started = performance.now();
      const answer = await provider.refunded(attempt);
      await record('status', started, !(answer.kind === 'unknown' && answer.fault));
      return answer;
    },
  };
}
