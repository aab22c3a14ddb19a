// eSewa as the registry knows it: ePay v2's signed form and status check spoken as a client; no
// refund API, so its refunds go to the operators' queue.
import { Type, type TNull } from '@sinclair/typebox';
import type { ProviderDescriptor } from '../provider.js';
import { esewaConnector } from './esewa-connector.js';
import { ESEWA_TEST_PAIR } from './test-pair.js';

const setup = [
  { name: 'form_url', label: 'Form URL (ePay v2 form)', secret: false, kind: 'url' },
  { name: 'status_url', label: 'Status check URL', secret: false, kind: 'url' },
  { name: 'product_code', label: 'Product code', secret: false },
  { name: 'secret_key', label: 'Secret key', secret: true },
] as const;

export const esewa = {
  label: 'eSewa',
  recordType: 'eSewa payment',
  ledgerNumber: 2,
  setup,
  amounts: { least: 10 },
  connector: esewaConnector,
  // The status check asks by the attempt and its amount: the connector keeps nothing.
  reference: Type.Null(),
  // …/pay/return/esewa/<attempt>/<success|failure>?data=…
  returnedAttempt: (path) => path[0],
  sandboxSetup: async ({ base }) => ({
    settings: { form_url: `${base}/api/epay/main/v2/form`, status_url: `${base}/api/epay/transaction/status/`, product_code: ESEWA_TEST_PAIR.product_code },
    credentials: { secret_key: ESEWA_TEST_PAIR.secret_key },
  }),
  settlementReport: { key: ['ref_id', 'reference id', 'reference code', 'transaction_code'], keyField: 'provider_transaction_id', amount: ['total_amount', 'amount'], fee: ['commission', 'fee'], date: ['date', 'transaction date'] },
  refundsByApi: false,
} as const satisfies ProviderDescriptor<typeof setup, TNull>;
