// Whether dist/ (the server's bundle and the prepared store) was built after every file of src/ and
// the build's settings changed: `npm start` builds again first when not (start-current.ts), and the HA
// suite, which runs dist/, does the same.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dumpOf, INITIAL_STORE } from '../db/initial-store.js';

const newest = (path: string): number => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
};

export function builtFromSources(root: string): boolean {
  const built = [join(root, 'dist/bundle/server.js'), dumpOf(INITIAL_STORE)];
  if (!built.every((file) => existsSync(file))) return false;
  // A checkout without its sources (a deployment of dist/) has nothing newer.
  if (!existsSync(join(root, 'src'))) return true;
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  return Math.max(newest(join(root, 'src')), newest(join(root, 'tsconfig.build.json')), newest(join(root, 'package-lock.json'))) < builtAt;
}
