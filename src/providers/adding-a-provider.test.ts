// docs/adding-a-provider.md walked through: its example, a toy provider that has a QR and no page of
// its own, built here as the document shows it, and each rule the document states held by the
// compiler (`npm run typecheck` fails where a `@ts-expect-error` below finds no error) or by a check.
import { Type, type Static } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from './provider-http.js';
import type { Provider, ProviderAnswer, ProviderDescriptor, SetupWith } from './provider.js';
import { providers, type EachItsOwn, type ListedInClient } from './registry.js';
import { oneOf, readJson, unmapped } from './wire.js';

// ---- the document's example ---------------------------------------------------------------------

/** What the toy's status check answers (its published shape). */
const ToyStatus = Type.Object({ reference: Type.String(), amount: Type.Integer(), status: Type.String() });

/** The statuses the toy publishes. */
const toyStatuses = ['PAID', 'WAITING', 'SETTLING', 'DECLINED'] as const;

function toyAnswer(answer: HttpAnswer, expected: { reference: string; amount: number }): ProviderAnswer {
  const read = readJson(answer, ToyStatus, 'the status check');
  if (!read.ok) return { kind: 'unknown', detail: read.reason, fault: true };
  if (read.body.reference !== expected.reference) return { kind: 'unknown', detail: 'answered for another payment', fault: true };
  const status = oneOf(toyStatuses, read.body.status);
  if (!status) return { kind: 'unknown', detail: `Toy: ${read.body.status.slice(0, 40)}` };
  switch (status) {
    case 'PAID':
      if (read.body.amount !== expected.amount) return { kind: 'unknown', detail: 'paid another amount', fault: true };
      return { kind: 'paid', transactionId: expected.reference, fee: 0, detail: 'Toy: PAID' };
    case 'WAITING':
      return { kind: 'open', detail: 'Toy: WAITING' };
    case 'SETTLING':
      // The payer paid; the toy has not settled it: unknown, never open.
      return { kind: 'unknown', detail: 'Toy: SETTLING' };
    case 'DECLINED':
      return { kind: 'failed', detail: 'Toy: DECLINED' };
    default:
      return unmapped(status);
  }
}

/** What the connector keeps of an attempt: the QR it issued (stored as JSON, read back through this). */
const ToyReference = Type.Object({ qr: Type.String() });
type ToyReference = Static<typeof ToyReference>;

/** The set-up's fields: the connector's set-up is typed by them. */
const toySetup = [
  { name: 'base_url', label: 'Base URL', secret: false, kind: 'url' },
  { name: 'api_key', label: 'API key', secret: true },
] as const;

const toyConnector = (setup: SetupWith<{ base_url: string }, { api_key: string }>): Provider<ToyReference> => ({
  // No `start`: a QR is the toy's only way.
  async startQr(attempt) {
    return { qrMessage: `toy:${setup.settings.base_url}:${attempt.idx}`, providerReference: { qr: `toy:${setup.settings.base_url}:${attempt.idx}` } };
  },
  readReturn: (path) => ({ attemptIdx: path[0], claim: 'unclear' }),
  async status(attempt) {
    return toyAnswer({ status: 200, contentType: 'application/json', text: JSON.stringify({ reference: attempt.idx, amount: attempt.amount, status: 'WAITING' }) }, { reference: attempt.idx, amount: attempt.amount });
  },
});

const toy = {
  label: 'Toy',
  recordType: 'Toy payment',
  ledgerNumber: 99,
  setup: toySetup,
  amounts: { least: 100 },
  connector: toyConnector,
  reference: ToyReference,
  returnedAttempt: (path) => path[0],
  qr: { label: 'Toy QR', messageOf: (reference) => reference?.qr, sandboxBankApp: (message) => `/sandbox/toy/bank-app?qr=${encodeURIComponent(message)}`, only: true },
  sandboxSetup: async ({ base, secret }) => ({ settings: { base_url: base }, credentials: { api_key: await secret('key') } }),
  settlementReport: { key: ['reference'], keyField: 'idx', amount: ['amount'], fee: ['fee'], date: ['date'] },
  refundsByApi: false,
} as const satisfies ProviderDescriptor<typeof toySetup, typeof ToyReference>;

// ---- each rule ----------------------------------------------------------------------------------

// A descriptor missing a field fails `satisfies`.
// @ts-expect-error no settlement report
const incomplete = { ...toy, settlementReport: undefined } satisfies ProviderDescriptor<typeof toySetup, typeof ToyReference>;

/** The toy's set-up as the registry hands it to its connector. */
const toyAt = { name: 'toy', environment: 'test', enabled: true, sandbox: true, settings: { base_url: 'https://toy.example' }, credentials: { api_key: 'k' } } as const;

// A connector with neither its own page nor a QR fails the interface.
// @ts-expect-error no way to start
const noWay: Provider = { readReturn: toy.connector(toyAt).readReturn, status: toy.connector(toyAt).status };

// A connector that reads a field its descriptor's set-up does not give fails the descriptor.
const readsMore = (setup: SetupWith<{ base_url: string; merchant_code: string }, { api_key: string }>) => toyConnector(setup);
// @ts-expect-error merchant_code is not among the toy's fields
const undeclared = { ...toy, connector: readsMore } satisfies ProviderDescriptor<typeof toySetup, typeof ToyReference>;

// A connector that keeps a reference of another shape than its descriptor's schema fails it too.
const packed = (setup: SetupWith<{ base_url: string }, { api_key: string }>): Provider<string> => ({
  startQr: async (attempt) => ({ qrMessage: `toy:${attempt.idx}`, providerReference: `qr:${setup.settings.base_url}` }),
  readReturn: () => ({ claim: 'unclear' }),
  status: async () => ({ kind: 'open', detail: 'Toy: WAITING' }),
});
// @ts-expect-error a packed string is not the toy's reference
const untyped = { ...toy, connector: packed } satisfies ProviderDescriptor<typeof toySetup, typeof ToyReference>;

// A copied descriptor (another provider's ledger number, list name and label) fails the registry's check.
const registered: EachItsOwn<typeof providers & { toy: typeof toy }> = true;
// @ts-expect-error Khalti's descriptor copied under another name
const copied: EachItsOwn<typeof providers & { toy: typeof providers.khalti }> = true;

// A list name the typed client (src/client/types.ts) does not know fails too.
// @ts-expect-error 'Toy payment' is not in KnownRecordType
const unlisted: ListedInClient<{ toy: typeof toy }> = true;

// A status added to a provider's list without its meaning fails the switch that ends in `unmapped`.
function oneMore(status: (typeof toyStatuses)[number] | 'REFUNDED'): string {
  switch (status) {
    case 'PAID':
    case 'WAITING':
    case 'SETTLING':
    case 'DECLINED':
      return status;
    default:
      // @ts-expect-error REFUNDED has no meaning
      return unmapped(status);
  }
}

describe('adding a provider, as docs/adding-a-provider.md shows it', () => {
  it('the toy has a QR and no page of its own, and its descriptor says so', async () => {
    const connector = toy.connector(toyAt);
    expect(connector.start).toBeUndefined();
    expect(toy.qr.only).toBe(true);
    const started = await connector.startQr!({ idx: 'A1', amount: 500, environment: 'test', providerReference: null, createdAt: new Date(), pidx: 'p', orderName: 'o', merchantName: 'm', websiteUrl: 'https://shop.example', customer: null, returnUrl: () => '' });
    expect(toy.qr.messageOf(started.providerReference)).toBe(started.qrMessage);
  });

  it('reads the toy’s answers through its schema: each status its meaning, another shape or status unknown', () => {
    const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });
    const expected = { reference: 'A1', amount: 500 };
    expect(toyAnswer(json({ reference: 'A1', amount: 500, status: 'PAID' }), expected)).toMatchObject({ kind: 'paid' });
    expect(toyAnswer(json({ reference: 'A1', amount: 500, status: 'WAITING' }), expected)).toMatchObject({ kind: 'open' });
    expect(toyAnswer(json({ reference: 'A1', amount: 500, status: 'SETTLING' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(toyAnswer(json({ reference: 'A1', amount: 500, status: 'DECLINED' }), expected)).toMatchObject({ kind: 'failed' });
    expect(toyAnswer(json({ reference: 'A1', amount: 400, status: 'PAID' }), expected)).toMatchObject({ kind: 'unknown', fault: true });
    expect(toyAnswer(json({ reference: 'A1', amount: '500', status: 'PAID' }), expected)).toMatchObject({ kind: 'unknown', fault: true, detail: expect.stringContaining('/amount') });
    expect(toyAnswer(json({ reference: 'A1', amount: 500, status: 'LOST' }), expected)).toMatchObject({ kind: 'unknown', detail: 'Toy: LOST' });
    expect(toyAnswer({ status: 200, contentType: 'text/html', text: '<html>' }, expected)).toMatchObject({ kind: 'unknown', fault: true });
  });

  it('the compile-time checks hold for the real registry, and the rules’ examples are what they say', () => {
    expect([registered, copied, unlisted]).toEqual([true, true, true]);
    expect(incomplete.label).toBe('Toy');
    expect(typeof noWay.status).toBe('function');
    expect([undeclared.label, untyped.label]).toEqual(['Toy', 'Toy']);
    expect(oneMore('PAID')).toBe('PAID');
  });

  it('is the example docs/adding-a-provider.md shows', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/adding-a-provider.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const example = source.slice(source.indexOf('/** What the toy'), source.indexOf('// ---- each rule'));
    expect(doc).toContain(example.trim());
  });
});
