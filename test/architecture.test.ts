// The shape of the tree: imports point one way. A module never reaches itself through its imports
// (type imports included: a circle of types is still two files that cannot be read apart), and the
// domains that payments build on (merchants, wallets, webhooks, and the plumbing) never import
// payments/. The ledger's payment and refund journals, and the transaction records, are of payments.
// The providers are two rooms: providers/ (the connectors: the interface, the registry, the HTTP
// client, a folder per provider) sits low and is used by others; provider-payments/ (attempts,
// settling, refunds, health, reports) uses it, and payments/, which it builds on, knows neither.
// A provider's simulator is the provider's other half: it reaches none of its connector's files.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every file of src/ with the files of src/ it imports (relative specifiers, `.js` → `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'(\.[^']+)'/gms)].map((m) =>
      normalize(join(dirname(file), m[1])).replace(/\.js$/, '.ts'),
    );
    graph.set(relative(SRC, file), targets.map((t) => relative(SRC, t)));
  }
  return graph;
}

/** The import circles of the graph (strongly connected parts of more than one file). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== file);
    if (part.length > 1) found.push(part.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The files of `folder` that `file` reaches through imports that stay in that folder, `file` included. */
function reachedWithin(graph: Map<string, string[]>, file: string, folder: string): Set<string> {
  const seen = new Set<string>();
  const visit = (at: string) => {
    if (seen.has(at) || !at.startsWith(folder)) return;
    seen.add(at);
    for (const next of graph.get(at) ?? []) visit(next);
  };
  visit(file);
  return seen;
}

/**
 * Each simulator's files that are its connector's: a provider's simulator is the provider's other half,
 * written from the provider's protocol, so within its provider's folder it reaches nothing its
 * connector reaches (the connector, its transformers, its message builders). A rule all sides share
 * lives outside both, in src/protocols/.
 */
function simulatorsOnConnectors(graph: Map<string, string[]>): string[] {
  const breaches: string[] = [];
  for (const file of graph.keys()) {
    const match = /^providers\/([^/]+)\/[^/]*-simulator\.ts$/.exec(file);
    if (!match) continue;
    const folder = `providers/${match[1]}/`;
    const connectors = [...graph.keys()].filter((f) => f.startsWith(folder) && f.endsWith('-connector.ts'));
    const connectorSide = new Set(connectors.flatMap((c) => [...reachedWithin(graph, c, folder)]));
    for (const reached of reachedWithin(graph, file, folder)) if (connectorSide.has(reached)) breaches.push(`${file} → ${reached}`);
  }
  return breaches.sort();
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('has no circles', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const withCircle = new Map(graph);
    withCircle.set('a.ts', ['b.ts']);
    withCircle.set('b.ts', ['a.ts']);
    expect(circles(withCircle)).toContainEqual(['a.ts', 'b.ts']);
  });

  it('has protocols/ import nothing outside it: the doors and the providers both build on it', () => {
    const reaching = [...graph].filter(([file, targets]) => file.startsWith('protocols/') && targets.some((t) => !t.startsWith('protocols/')));
    expect(reaching.map(([file]) => file)).toEqual([]);
  });

  it('has no simulator that imports its connector, its transformers or its message builders', () => {
    expect(simulatorsOnConnectors(graph)).toEqual([]);
  });

  it('finds a simulator that reaches its connector’s builders, directly or through another file', () => {
    const breached = new Map<string, string[]>();
    breached.set('providers/p/p-connector.ts', ['providers/p/transformers.ts', 'providers/p/p-token.ts']);
    breached.set('providers/p/p-token.ts', []);
    breached.set('providers/p/transformers.ts', []);
    breached.set('providers/p/p-simulator.ts', ['providers/p/p-helper.ts', 'protocols/p/signature.ts']);
    breached.set('providers/p/p-helper.ts', ['providers/p/p-token.ts']);
    expect(simulatorsOnConnectors(breached)).toEqual(['providers/p/p-simulator.ts → providers/p/p-token.ts']);
  });

  it.each(['merchants', 'wallets', 'webhooks', 'db', 'http'])('%s/ does not import payments/', (domain) => {
    const reaching = [...graph].filter(([file, targets]) => file.startsWith(`${domain}/`) && targets.some((t) => t.startsWith('payments/')));
    expect(reaching.map(([file]) => file)).toEqual([]);
  });

  /** The files of `from` that import a file under one of `to` (folders of src/, with their slash). */
  const reaching = (g: Map<string, string[]>, from: (file: string) => boolean, to: string[]) =>
    [...g].filter(([file, targets]) => from(file) && targets.some((t) => to.some((room) => t.startsWith(room)))).map(([file]) => file);

  it('payments/ imports neither providers/ nor provider-payments/ (it asks a port in the context)', () => {
    expect(reaching(graph, (f) => f.startsWith('payments/'), ['providers/', 'provider-payments/'])).toEqual([]);
  });

  it('providers/ imports none of the rooms that use it', () => {
    const above = ['provider-payments/', 'payments/', 'payment-links/', 'doors/', 'console/', 'dashboard/', 'cli/', 'ledger/', 'transactions/', 'settlements/', 'jobs/', 'merchants/', 'wallets/'];
    expect(reaching(graph, (f) => f.startsWith('providers/'), above)).toEqual([]);
  });

  it('the doors and the providers never import each other', () => {
    expect(reaching(graph, (f) => f.startsWith('doors/'), ['providers/', 'provider-payments/'])).toEqual([]);
    expect(reaching(graph, (f) => f.startsWith('providers/') || f.startsWith('provider-payments/'), ['doors/'])).toEqual([]);
  });

  it('a provider’s folder imports only itself, the interface, the HTTP client and the simulators’ common parts: never the registry, never another provider', () => {
    const shared = ['providers/provider.ts', 'providers/provider-http.ts', 'providers/simulator-page.ts', 'providers/simulator-store.ts'];
    const breaches = [...graph].flatMap(([file, targets]) => {
      const folder = /^providers\/([^/]+)\//.exec(file)?.[1];
      if (!folder) return [];
      return targets.filter((t) => t.startsWith('providers/') && !t.startsWith(`providers/${folder}/`) && !shared.includes(t)).map((t) => `${file} → ${t}`);
    });
    expect(breaches).toEqual([]);
  });

  it('finds a breach when there is one', () => {
    const breached = new Map(graph);
    breached.set('payments/refund-payment.ts', ['provider-payments/attempt-store.ts']);
    expect(reaching(breached, (f) => f.startsWith('payments/'), ['providers/', 'provider-payments/'])).toEqual(['payments/refund-payment.ts']);
  });
});
