// The rooms' rules, written once: test/architecture.test.ts holds src/ to each, and docs/layout.md
// shows them as this file renders them (`npx tsx test/architecture/write-rules.ts` writes them there).
// Each rule says which imports break it, and carries an example of a breach it must find.
import { circles, reachedWithin, type ImportGraph } from './import-graph.js';

export interface Rule {
  /** The rule, as docs/layout.md says it. */
  rule: string;
  why: string;
  /** The imports that break it, as `file → imported file`. */
  breaches(graph: ImportGraph): string[];
  /** Files (their paths in src/ and sources) that break it. */
  example: Record<string, string>;
}

const under = (rooms: string[]) => (file: string) => rooms.some((room) => file.startsWith(room));

/** The imports from a file of `from` to one of `to` (folders of src/, with their slash). */
function crossing(graph: ImportGraph, from: (file: string) => boolean, to: (file: string) => boolean): string[] {
  return [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter(to).map((target) => `${file} → ${target}`) : []));
}

/** The rooms that build on providers/: it may import none of them. */
const aboveProviders = ['provider-payments/', 'payments/', 'payment-links/', 'doors/', 'portal/', 'console/', 'dashboard/', 'cli/', 'ledger/', 'transactions/', 'settlements/', 'jobs/', 'merchants/', 'wallets/', 'sandbox/'];

/** What `payout-rails/` may import of `providers/`: the HTTP client and the wire schemas' reader. */
const railCommons = ['providers/provider-http.ts', 'providers/wire.ts'];

/** The rooms below the connectors (`providers/`, `payout-rails/`): the shared rules and the plumbing. */
const belowConnectors = ['protocols/', 'db/', 'http/', 'mail/', 'secrets/', 'context.ts', 'clock.ts', 'config.ts', 'environment.ts'];

/** What a provider's folder may import outside itself: the interface, its HTTP client and its wire schemas' reader. */
const providerCommons = ['providers/provider.ts', 'providers/provider-http.ts', 'providers/wire.ts'];

export const rules: Rule[] = [
  {
    rule: 'No file reaches itself through its imports, type imports included.',
    why: 'a circle of types is still two files that cannot be read apart',
    breaches: (graph) => circles(graph).map((circle) => circle.join(' → ')),
    example: { 'a.ts': "import { b } from './b.js';", 'b.ts': "import type { A } from './a.js';" },
  },
  {
    rule: '`protocols/` imports nothing outside `protocols/`.',
    why: 'the doors, the connectors and the simulators all build on a protocol’s rules (eSewa’s signature, EMVCo’s QR, NPI’s token)',
    breaches: (graph) => crossing(graph, under(['protocols/']), (t) => !t.startsWith('protocols/')),
    example: { 'protocols/esewa-epay/signature.ts': "import { x } from '../../http/fields.js';" },
  },
  {
    rule: 'A simulator (`sandbox/<name>/`) reaches none of its connector’s files (their transformers, their builders) in `providers/<name>/` or `payout-rails/<name>/`, directly or through another file of the folder.',
    why: 'a simulator is the provider’s other half, written from its protocol, never the connector’s mirror; what both need lives in `protocols/`',
    breaches: (graph) =>
      [...graph.keys()].flatMap((file) => {
        const name = /^sandbox\/([^/]+)\/[^/]*-simulator\.ts$/.exec(file)?.[1];
        if (!name) return [];
        const folders = [`providers/${name}/`, `payout-rails/${name}/`];
        const connectorSide = new Set(
          folders.flatMap((folder) => [...graph.keys()].filter((f) => f.startsWith(folder) && f.endsWith('-connector.ts')).flatMap((c) => [...reachedWithin(graph, c, [folder])])),
        );
        return [...reachedWithin(graph, file, [`sandbox/${name}/`, ...folders])].filter((f) => connectorSide.has(f)).map((f) => `${file} → ${f}`);
      }),
    example: {
      'providers/p/p-connector.ts': "import { token } from './p-token.js';",
      'providers/p/p-token.ts': '',
      'sandbox/p/p-simulator.ts': "import { helper } from './p-helper.js';",
      'sandbox/p/p-helper.ts': "import { token } from '../../providers/p/p-token.js';",
      'payout-rails/r/r-connector.ts': "import { wire } from './transformers.js';",
      'payout-rails/r/transformers.ts': '',
      'sandbox/r/r-simulator.ts': "import { wire } from '../../payout-rails/r/transformers.js';",
    },
  },
  {
    rule: '`merchants/`, `wallets/`, `webhooks/`, `db/` and `http/` import nothing of `payments/`.',
    why: 'payments build on them',
    breaches: (graph) => crossing(graph, under(['merchants/', 'wallets/', 'webhooks/', 'db/', 'http/']), under(['payments/'])),
    example: { 'merchants/m.ts': "import '../payments/payment.js';" },
  },
  {
    rule: '`context.ts` imports only the plumbing beside it (`clock.ts`, `config.ts`, `db/`, `http/`, `mail/`); a room that puts something of its own on the context declares it onto `AppContext` beside its definition.',
    why: 'every room imports the context: a domain type there would tie all of them to that domain',
    breaches: (graph) => crossing(graph, (f) => f === 'context.ts', (t) => !['clock.ts', 'config.ts'].includes(t) && !under(['db/', 'http/', 'mail/'])(t)),
    example: { 'context.ts': "import type { Payment } from './payments/payment.js';" },
  },
  {
    rule: '`payments/` imports neither `providers/` nor `provider-payments/`.',
    why: 'a payment knows no provider: it asks a port, which provider-payments/ fills',
    breaches: (graph) => crossing(graph, under(['payments/']), under(['providers/', 'provider-payments/'])),
    example: { 'payments/refund-payment.ts': 'const store = await import("../provider-payments/attempt-store.js");' },
  },
  {
    rule: `\`providers/\` imports none of the rooms that use it: ${aboveProviders.map((room) => `\`${room}\``).join(', ')}.`,
    why: 'the connectors sit low: the hosted page, the jobs, the sandbox and the operators’ pages call them, never the other way',
    breaches: (graph) => crossing(graph, under(['providers/']), under(aboveProviders)),
    example: { 'providers/simulator-page.ts': 'import { portalLayout } from "../portal/layout.js";' },
  },
  {
    rule: '`doors/` and `providers/`, `provider-payments/` never import each other.',
    why: 'a door speaks a protocol to merchants, a connector one to a provider; they share only `protocols/`',
    breaches: (graph) => [...crossing(graph, under(['doors/']), under(['providers/', 'provider-payments/'])), ...crossing(graph, under(['providers/', 'provider-payments/']), under(['doors/']))],
    example: { 'doors/esewa-epay/form.ts': "import { esewa } from '../../providers/esewa/esewa.js';" },
  },
  {
    rule: `A provider’s folder imports, outside itself, only ${providerCommons.map((f) => `\`${f}\``).join(', ')} (and \`protocols/\` and the plumbing below): never the registry, never another provider.`,
    why: 'a provider is its folder and its registry line; folders never see each other',
    breaches: (graph) =>
      [...graph].flatMap(([file, targets]) => {
        const folder = /^providers\/([^/]+)\//.exec(file)?.[1];
        if (!folder) return [];
        return targets.filter((t) => t.startsWith('providers/') && !t.startsWith(`providers/${folder}/`) && !providerCommons.includes(t)).map((t) => `${file} → ${t}`);
      }),
    example: { 'providers/khalti/khalti.ts': "import { providers } from '../registry.js';" },
  },
  {
    rule: `\`payout-rails/\` sits beside \`providers/\`, and imports of it only ${railCommons.map((f) => `\`${f}\``).join(', ')} (and \`protocols/\` and the plumbing below): never a room that uses the connectors, never another rail’s folder.`,
    why: 'a payout rail is a connector for money going out: it speaks one provider’s protocol and knows no payout, merchant or page',
    breaches: (graph) =>
      [...graph].flatMap(([file, targets]) => {
        if (!file.startsWith('payout-rails/')) return [];
        const folder = /^payout-rails\/[^/]+\//.exec(file)?.[0];
        const otherRail = (t: string) => /^payout-rails\/[^/]+\//.test(t) && !(folder && t.startsWith(folder));
        const providerFile = (t: string) => t.startsWith('providers/') && !railCommons.includes(t);
        return targets.filter((t) => providerFile(t) || under(aboveProviders)(t) || otherRail(t)).map((t) => `${file} → ${t}`);
      }),
    example: { 'payout-rails/npi/npi-connector.ts': "import type { PageProvider } from '../../providers/provider.js';" },
  },
  {
    rule: `Nothing below the connectors imports \`payout-rails/\`: not \`providers/\`, nor ${belowConnectors.map((room) => `\`${room}\``).join(', ')}.`,
    why: 'the rails sit with the connectors: the payouts, the jobs and the operators’ pages call them, never the other way',
    breaches: (graph) => crossing(graph, under(['providers/', ...belowConnectors]), under(['payout-rails/'])),
    example: { 'providers/khalti/khalti.ts': "import { npiConnector } from '../../payout-rails/npi/npi-connector.js';" },
  },
];

/** The rules as docs/layout.md shows them. */
export function rulesAsMarkdown(): string {
  return rules.map((r) => `- ${r.rule} Why: ${r.why}.`).join('\n');
}
