import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { formatRupees } from '../http/money.js';
import { createWallet } from '../wallets/create-wallet.js';
import { topupWallet } from '../wallets/topup-wallet.js';
import { command } from './command.js';

export const walletCreate = command({
  usage: 'wallet create --mobile M --name N --mpin 4DIGITS [--env test|live (default test)] [--json]',
  parse: (args) =>
    parseArgs({
      args,
      options: { mobile: { type: 'string' }, name: { type: 'string' }, mpin: { type: 'string' }, env: { type: 'string' }, json: { type: 'boolean', default: false } },
    }).values,
  async run(ctx, values, io) {
    const wallet = await createWallet(ctx, { mobile: values.mobile, name: values.name, mpin: values.mpin, environment: values.env });
    if (values.json) io.out(JSON.stringify({ idx: wallet.idx, mobile: wallet.mobile, name: wallet.name, environment: wallet.environment, balance: 0 }));
    else io.out(`Wallet ${wallet.mobile} (${wallet.name}) created in ${wallet.environment}, balance Rs. 0.00. Fund it with: bhuktani wallet topup --mobile ${wallet.mobile} --amount PAISA --env ${wallet.environment}`);
    return 0;
  },
});

export const walletTopup = command({
  usage: 'wallet topup --mobile M --amount PAISA [--env test|live (default test)] [--reason TEXT] [--json]',
  parse: (args) =>
    parseArgs({
      args,
      options: { mobile: { type: 'string' }, amount: { type: 'string' }, env: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean', default: false } },
    }).values,
  async run(ctx, values, io) {
    const { wallet, balance } = await topupWallet(ctx, { mobile: values.mobile, amount: values.amount, environment: values.env }, { actor: CLI_ACTOR, reason: values.reason });
    if (values.json) io.out(JSON.stringify({ mobile: wallet.mobile, environment: wallet.environment, balance }));
    else io.out(`Wallet ${wallet.mobile} (${wallet.environment}) topped up; balance ${formatRupees(balance)}.`);
    return 0;
  },
});
