// connectIPS as the registry knows it: NCHL's e-payment (a form signed with the merchant's PFX, posted
// to the gateway's login page) and its validation API, which live at different addresses; no refund API.
import { Type, type TNull } from '@sinclair/typebox';
import type { ProviderDescriptor } from '../provider.js';
import { connectipsConnector } from './connectips-connector.js';
import { readPfx } from './connectips-token.js';
import { sandboxPfx } from './sandbox-certificate.js';

const setup = [
  { name: 'gateway_url', label: 'Gateway URL (the payer’s login page)', secret: false, kind: 'url' },
  { name: 'api_url', label: 'API URL (transaction validation)', secret: false, kind: 'url' },
  { name: 'merchant_id', label: 'Merchant ID', secret: false },
  { name: 'app_id', label: 'App ID', secret: false },
  { name: 'app_name', label: 'App name', secret: false },
  { name: 'password', label: 'App password', secret: true },
  { name: 'pfx', label: 'Key file (PFX, base64)', secret: true, kind: 'file', flag: 'key-file' },
  { name: 'key_passphrase', label: 'Key file passphrase', secret: true, optional: true },
] as const;

export const connectips = {
  label: 'connectIPS',
  recordType: 'connectIPS payment',
  ledgerNumber: 3,
  setup,
  checkCredentials(credentials) {
    if (!credentials.pfx) return undefined;
    try {
      readPfx(Buffer.from(credentials.pfx, 'base64'), credentials.key_passphrase);
      return undefined;
    } catch (error) {
      return { pfx: `The key file does not open: ${(error as Error).message}` };
    }
  },
  amounts: { least: 10 },
  connector: connectipsConnector,
  // The validation API asks by the attempt (TXNID) and its amount: the connector keeps nothing.
  reference: Type.Null(),
  // …/pay/return/connectips/<success|failure>?TXNID=<attempt>
  returnedAttempt: (path, query) => query.TXNID,
  sandboxSetup: async ({ base, db, secret }) => ({
    settings: { gateway_url: base, api_url: base, merchant_id: '1', app_id: 'BHUKTANI-SANDBOX-1', app_name: 'Bhuktani sandbox' },
    credentials: { password: await secret('password'), pfx: (await sandboxPfx(db)).toString('base64'), key_passphrase: '' },
  }),
  settlementReport: { key: ['txn_id', 'txnid', 'reference_id', 'merchant txn id'], keyField: 'idx', amount: ['txn_amount', 'amount'], fee: ['charge_amount', 'charge', 'fee'], date: ['txn_date', 'date'] },
  refundsByApi: false,
} as const satisfies ProviderDescriptor<typeof setup, TNull>;
