import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { createOperator } from '../people/create-operator.js';
import { command } from './command.js';

export const operatorCreate = command({
  usage: 'operator create --email E --password P [--role admin|support|finance (default admin)] [--json]',
  parse: (args) =>
    parseArgs({
      args,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string', default: 'admin' },
        json: { type: 'boolean', default: false },
      },
    }).values,
  async run(ctx, values, io) {
    const created = await createOperator(ctx, { email: values.email ?? '', password: values.password ?? '', role: values.role, actor: CLI_ACTOR });
    const { operator } = created;
    if (values.json) {
      io.out(
        JSON.stringify({
          id: operator.id,
          email: operator.email,
          role: operator.role,
          totp_secret: created.totpSecret,
          totp_uri: created.totpUri,
          recovery_codes: created.recoveryCodes,
        }),
      );
    } else {
      io.out(`Operator ${operator.email} created (role ${operator.role}). Sign in at /console/.`);
      io.out(`totp_secret: ${created.totpSecret}`);
      io.out(`totp_uri: ${created.totpUri}`);
      io.out(`recovery_codes: ${created.recoveryCodes.join(' ')}`);
      io.out('Add the secret to an authenticator app and keep the recovery codes now: they cannot be shown again.');
    }
    return 0;
  },
});
