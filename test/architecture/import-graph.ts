// The import graph of src/ as TypeScript itself reads imports (ts.preProcessFile): every form, static,
// type-only, side-effect, re-exported, dynamic `import()` and `require`, in either quote, of a
// relative specifier; `.js` read as the `.ts` it is compiled from. Test files are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The graph of `files` (paths relative to the tree's root, with their text). */
export function graphOf(files: Map<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, text] of files) {
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('.'));
    graph.set(file, imported.map((name) => normalize(join(dirname(file), name)).replace(/\.js$/, '.ts')));
  }
  return graph;
}

/** The graph of every source file under `root`. */
export function importGraph(root: string): ImportGraph {
  return graphOf(new Map(sourceFiles(root).map((path) => [relative(root, path), readFileSync(path, 'utf8')])));
}

/** The import circles of the graph (strongly connected parts of more than one file). */
export function circles(graph: ImportGraph): string[][] {
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

/** The files of `folders` that `file` reaches through imports that stay in them, `file` included. */
export function reachedWithin(graph: ImportGraph, file: string, folders: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (at: string) => {
    if (seen.has(at) || !folders.some((folder) => at.startsWith(folder))) return;
    seen.add(at);
    for (const next of graph.get(at) ?? []) visit(next);
  };
  visit(file);
  return seen;
}
