import type { Queryable } from '../db.js';
import { esewaSandboxPayers, sandboxPayers, seedSandboxWallets } from '../../wallets/sandbox-wallets.js';
import m001 from './001_merchants_payments.js';
import m002 from './002_wallets_ledger.js';
import m004 from './004_server_secrets.js';
import m005 from './005_dashboard.js';
import m006 from './006_integrations.js';
import m007 from './007_transaction_counts.js';
import m008 from './008_lighter_payment_writes.js';
import m009 from './009_transaction_day_counts.js';
import m010 from './010_ledger_references_verified.js';
import m011 from './011_audit_log_bank_accounts.js';
import m012 from './012_merchant_approval.js';
import m013 from './013_operators.js';
import m014 from './014_console_searches.js';
import m015 from './015_merchant_users.js';
import m016 from './016_merchant_team.js';
import m017 from './017_merchant_account_safety.js';
import m018 from './018_settlements.js';
import m019 from './019_payout_schedules.js';
import m020 from './020_invitations_of_those_gone.js';
import m021 from './021_sandbox_covers_confirmed_owners.js';
import m022 from './022_merchant_people.js';
import m030 from './030_esewa_door.js';
import m040 from './040_payment_providers.js';
import m050 from './050_payment_links.js';
import m060 from './060_provider_registry.js';
import m070 from './070_esewa_v1_posts.js';
import m080 from './080_refunds_sent.js';
import m090 from './090_typed_references.js';
import m100 from './100_npi_simulator.js';
import m110 from './110_payout_rails.js';
import m120 from './120_npi_payouts.js';

export interface Migration {
  name: string;
  run(tx: Queryable): Promise<void>;
}

const sql = (name: string, text: string): Migration => ({ name, run: (tx) => tx.exec(text) });

/** Applied in order, each once, each in its own transaction. Never edit one that has shipped: add another. */
export const migrations: Migration[] = [
  sql('001_merchants_payments', m001),
  sql('002_wallets_ledger', m002),
  { name: '003_sandbox_wallets', run: (tx) => seedSandboxWallets(tx, sandboxPayers) },
  sql('004_server_secrets', m004),
  sql('005_dashboard', m005),
  sql('006_integrations', m006),
  sql('007_transaction_counts', m007),
  sql('008_lighter_payment_writes', m008),
  sql('009_transaction_day_counts', m009),
  sql('010_ledger_references_verified', m010),
  sql('011_audit_log_bank_accounts', m011),
  sql('012_merchant_approval', m012),
  sql('013_operators', m013),
  sql('014_console_searches', m014),
  sql('015_merchant_users', m015),
  sql('016_merchant_team', m016),
  sql('017_merchant_account_safety', m017),
  sql('018_settlements', m018),
  sql('019_payout_schedules', m019),
  sql('020_invitations_of_those_gone', m020),
  // 021 reads the users' e-mail columns that 022 moves to merchant_people.
  sql('021_sandbox_covers_confirmed_owners', m021),
  sql('022_merchant_people', m022),
  {
    name: '030_esewa_door',
    async run(tx) {
      await tx.exec(m030);
      await seedSandboxWallets(tx, esewaSandboxPayers);
    },
  },
  sql('040_payment_providers', m040),
  sql('050_payment_links', m050),
  sql('060_provider_registry', m060),
  sql('070_esewa_v1_posts', m070),
  sql('080_refunds_sent', m080),
  sql('090_typed_references', m090),
  sql('100_npi_simulator', m100),
  sql('110_payout_rails', m110),
  sql('120_npi_payouts', m120),
];
