import { parseArgs } from 'node:util';
import { createWallet } from '../wallets/create-wallet.js';
import { topupWallet } from '../wallets/topup-wallet.js';
import type { Command } from './command.js';
import { formatRupees } from '../http/money.js';

export const walletCreate: Command = {
  usage: 'wallet create --mobile M --name N --mpin 4DIGITS [--env test|live] [--json]',
  async run(ctx, args, io) {
    const { values } = parseArgs({
      args,
      options: { mobile: { type: 'string' }, name: { type: 'string' }, mpin: { type: 'string' }, env: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const wallet = await createWallet(ctx, { mobile: values.mobile, name: values.name, mpin: values.mpin, environment: values.env });
    if (values.json) io.out(JSON.stringify({ idx: wallet.idx, mobile: wallet.mobile, name: wallet.name, environment: wallet.environment, balance: 0 }));
    else io.out(`Wallet ${wallet.mobile} (${wallet.name}) created in ${wallet.environment}, balance Rs. 0.00. Fund it with: bhuktani wallet topup --mobile ${wallet.mobile} --amount PAISA --env ${wallet.environment}`);
    return 0;
  },
};

export const walletTopup: Command = {
  usage: 'wallet topup --mobile M --amount PAISA [--env test|live] [--json]',
  async run(ctx, args, io) {
    const { values } = parseArgs({
      args,
      options: { mobile: { type: 'string' }, amount: { type: 'string' }, env: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const { wallet, balance } = await topupWallet(ctx, { mobile: values.mobile, amount: values.amount, environment: values.env });
    if (values.json) io.out(JSON.stringify({ mobile: wallet.mobile, environment: wallet.environment, balance }));
    else io.out(`Wallet ${wallet.mobile} (${wallet.environment}) topped up; balance ${formatRupees(balance)}.`);
    return 0;
  },
};
