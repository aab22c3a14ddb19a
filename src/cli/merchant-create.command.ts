import { parseArgs } from 'node:util';
import { createMerchant, DEFAULT_FEE_BPS } from '../merchants/create-merchant.js';
import { command } from './command.js';

export const merchantCreate = command({
  usage: `merchant create --name N --email E --password P [--fee-bps B (default ${DEFAULT_FEE_BPS})] [--mobile M] [--json]`,
  parse: (args) =>
    parseArgs({
      args,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'fee-bps': { type: 'string' },
        mobile: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }).values,
  async run(ctx, values, io) {
    const created = await createMerchant(ctx, {
      name: values.name,
      email: values.email,
      password: values.password,
      fee_bps: values['fee-bps'],
      mobile: values.mobile,
    });
    const { merchant } = created;
    if (values.json) {
      io.out(
        JSON.stringify({
          idx: merchant.idx,
          name: merchant.name,
          email: merchant.email,
          fee_bps: merchant.fee_bps,
          test_secret_key: created.test_secret_key,
          live_secret_key: created.live_secret_key,
          esewa: created.esewa,
        }),
      );
    } else {
      io.out(`Merchant ${merchant.name} <${merchant.email}> created (idx ${merchant.idx}, fee ${merchant.fee_bps} bps).`);
      io.out(`test_secret_key: ${created.test_secret_key}`);
      io.out(`live_secret_key: ${created.live_secret_key}`);
      for (const [environment, { product_code, secret_key }] of Object.entries(created.esewa)) io.out(`esewa ${environment}: product_code ${product_code}, secret_key ${secret_key}`);
      io.out('Keep the keys now: they cannot be shown again (secret keys are stored hashed, eSewa secret keys sealed).');
    }
    return 0;
  },
});
