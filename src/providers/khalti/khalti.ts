// Khalti as the registry knows it: the v2 web checkout spoken as a client, with a refund API.
import type { ProviderDescriptor } from '../provider.js';
import { khaltiConnector } from './khalti-connector.js';
import { KhaltiReference } from './transformers.js';

const setup = [
  { name: 'base_url', label: 'Base URL (the root of /api/v2/epayment/)', secret: false, kind: 'url' },
  { name: 'secret_key', label: 'Secret key', secret: true },
] as const;

export const khalti = {
  label: 'Khalti',
  recordType: 'Khalti payment',
  ledgerNumber: 1,
  setup,
  // Khalti's initiate refuses less than Rs 10.
  amounts: { least: 1000 },
  connector: khaltiConnector,
  reference: KhaltiReference,
  // …/pay/return/khalti/<attempt>?status=…&purchase_order_id=…
  returnedAttempt: (path) => path[0],
  sandboxSetup: async ({ base, secret }) => ({ settings: { base_url: base }, credentials: { secret_key: `test_secret_key_${await secret('key')}` } }),
  settlementReport: { key: ['transaction_id', 'transaction id', 'idx'], keyField: 'provider_transaction_id', amount: ['amount'], fee: ['fee', 'fee_amount', 'service charge'], date: ['date', 'created_on', 'transaction date'] },
  refundsByApi: true,
} as const satisfies ProviderDescriptor<typeof setup, typeof KhaltiReference>;
