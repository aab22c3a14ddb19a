// Fonepay as the registry knows it: its web checkout (a signed redirect, a signed return, the
// verification) and its dynamic QR (a QR message any Nepali bank app pays, and its status check),
// from one set-up; no refund API (docs/fonepay.md).
import type { ProviderDescriptor } from '../provider.js';
import { fonepayConnector, fonepayReturnedAttempt, qrMessageOf } from './fonepay-connector.js';
import { FONEPAY_TEST_MERCHANT } from './test-merchant.js';
import { FonepayReference } from './transformers.js';

const setup = [
  { name: 'base_url', label: 'Base URL (the web checkout’s server; the QR API is Fonepay’s beside it)', secret: false, kind: 'url' },
  { name: 'merchant_code', label: 'Merchant code (PID)', secret: false },
  { name: 'secret_key', label: 'Secret key', secret: true },
  { name: 'username', label: 'QR API username', secret: false },
  { name: 'password', label: 'QR API password', secret: true },
] as const;

export const fonepay = {
  label: 'Fonepay',
  recordType: 'Fonepay payment',
  ledgerNumber: 4,
  setup,
  // The QR's amount has at most 10 characters (`9999999.99`).
  amounts: { least: 100, most: 999_999_999 },
  connector: fonepayConnector,
  reference: FonepayReference,
  // …/pay/return/fonepay/<attempt>/success?PRN=<attempt>&…, and …/<attempt>/qr from the QR page.
  returnedAttempt: fonepayReturnedAttempt,
  qr: { label: 'Fonepay QR', messageOf: qrMessageOf, sandboxBankApp: (qrMessage) => `/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage)}` },
  sandboxSetup: async ({ base }) => {
    const { merchant_code, username, secret_key, password } = FONEPAY_TEST_MERCHANT;
    return { settings: { base_url: base, merchant_code, username }, credentials: { secret_key, password } };
  },
  // No public format of Fonepay's portal report: the PRN (the attempt) or the trace id names a payment.
  settlementReport: { key: ['prn', 'product number', 'merchant prn'], keyField: 'idx', amount: ['amount', 'transaction amount', 'txn amount'], fee: ['commission amount', 'commission', 'charge', 'fee'], date: ['transaction date', 'txn date', 'date'] },
  refundsByApi: false,
} as const satisfies ProviderDescriptor<typeof setup, typeof FonepayReference>;
