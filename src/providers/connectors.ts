// The connector of a provider's set-up, speaking over this instance's transport (the simulators in
// process, the rest over HTTP with PROVIDER_TIMEOUT_MS). What reaches a connector from the store is
// read first through its descriptor: the set-up through its fields, an attempt's reference through
// its schema. A set-up without a field (kept from a release before the field was added) or a
// reference of another shape answers `unknown` with the reason, and starts nothing: never a guess.
import type { AppContext } from '../context.js';
import { transportFor } from './provider-http.js';
import { ProviderUnavailableError, type AttemptRef, type Provider, type ProviderDescriptor, type ProviderSetup } from './provider.js';
import { descriptorOf, type ProviderName } from './registry.js';
import { readAs } from './wire.js';

/** The required fields `setup` lacks, by the descriptor's `fields`: settings and credentials alike. */
export function missingFields(descriptor: Pick<ProviderDescriptor, 'setup'>, setup: Pick<ProviderSetup, 'settings' | 'credentials'>): string[] {
  return descriptor.setup.filter((field) => !field.optional && !(setup[field.secret ? 'credentials' : 'settings'][field.name] ?? '')).map((field) => field.name);
}

/** A connector for a set-up it cannot use: each call says why, and nothing starts. */
function unusable(reason: string): Provider {
  return {
    start: () => Promise.reject(new ProviderUnavailableError(reason)),
    readReturn: () => ({ claim: 'unclear' }),
    status: async () => ({ kind: 'unknown', detail: reason, fault: true }),
    refund: async () => ({ kind: 'unknown', detail: reason, fault: true }),
    refunded: async () => ({ kind: 'unknown', detail: reason, fault: true }),
  };
}

export function connectorFor(ctx: Pick<AppContext, 'config'>, setup: ProviderSetup & { name: ProviderName }): Provider {
  const descriptor = descriptorOf(setup.name);
  const missing = missingFields(descriptor, setup);
  if (missing.length > 0) return unusable(`${descriptor.label} (${setup.environment}) is set up without ${missing.join(', ')}: set it up again`);
  // Read through its fields just now: each the connector reads is there.
  const connector = descriptor.connector(setup as never, transportFor(ctx, ctx.config.providerTimeoutMs));
  // The stored reference, read through the provider's schema before its connector sees it.
  const referenceOf = (attempt: AttemptRef) =>
    attempt.providerReference === null ? ({ ok: true, body: null } as const) : readAs(descriptor.reference, attempt.providerReference, `${descriptor.label}'s reference of attempt ${attempt.idx}`);
  const { refund, refunded } = connector;
  return {
    ...connector,
    async status(attempt) {
      const reference = referenceOf(attempt);
      return reference.ok ? connector.status({ ...attempt, providerReference: reference.body }) : { kind: 'unknown', detail: reference.reason };
    },
    refund: refund && (async (attempt, amount) => {
      const reference = referenceOf(attempt);
      return reference.ok ? refund.call(connector, { ...attempt, providerReference: reference.body }, amount) : { kind: 'unknown', detail: reference.reason };
    }),
    refunded: refunded && (async (attempt) => {
      const reference = referenceOf(attempt);
      return reference.ok ? refunded.call(connector, { ...attempt, providerReference: reference.body }) : { kind: 'unknown', detail: reference.reason };
    }),
  };
}

/** The QR message a stored reference of `name`'s attempt holds, when the attempt went by its QR. */
export function qrMessageOf(name: ProviderName, stored: unknown): string | undefined {
  const { qr, reference } = descriptorOf(name);
  if (!qr || stored === null || stored === undefined) return undefined;
  const read = readAs(reference, stored, 'the reference');
  return read.ok ? qr.messageOf(read.body) : undefined;
}
