// The shape of the tree: src/ held to the rooms' rules (test/architecture/rules.ts, written once and
// shown in docs/layout.md), on the import graph as TypeScript reads it, every import form included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphOf, importGraph } from './architecture/import-graph.js';
import { rules, rulesAsMarkdown } from './architecture/rules.js';

const graph = importGraph(join(import.meta.dirname, '..', 'src'));

describe('the rooms of src/', () => {
  it.each(rules.map((r) => [r.rule, r] as const))('%s', (_rule, r) => {
    expect(r.breaches(graph)).toEqual([]);
  });

  it.each(rules.map((r) => [r.rule, r] as const))('finds a breach of: %s', (_rule, r) => {
    expect(r.breaches(graphOf(new Map(Object.entries(r.example)))).length).toBeGreaterThan(0);
  });

  it('reads every form of import: dynamic, for its side effects, double-quoted, type-only, re-exported, multi-line', () => {
    const forbidden = rules.find((r) => r.rule.startsWith('`merchants/`'))!;
    const forms = [
      "const store = await import('../payments/payment-store.js');",
      "import '../payments/payment-store.js';",
      'import { findPayment } from "../payments/payment-store.js";',
      "import type { PaymentRow } from '../payments/payment-store.js';",
      "export { findPayment } from '../payments/payment-store.js';",
      "import {\n  findPayment,\n  paymentColumns,\n} from '../payments/payment-store.js';",
    ];
    for (const form of forms) expect(forbidden.breaches(graphOf(new Map([['merchants/m.ts', form]]))), form).toEqual(['merchants/m.ts → payments/payment-store.ts']);
  });

  it('are the rules docs/layout.md shows (npx tsx test/architecture/write-rules.ts writes them there)', () => {
    const layout = readFileSync(join(import.meta.dirname, '..', 'docs', 'layout.md'), 'utf8');
    expect(layout).toContain(`<!-- rules -->\n${rulesAsMarkdown()}\n<!-- /rules -->`);
  });
});
