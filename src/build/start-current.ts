// `npm start`'s first step (package.json's prestart): when src/ changed after the last build, build
// again, so `npm start` never serves an old bundle. `npm run dev` runs the sources themselves.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtFromSources } from './built-from-sources.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
if (!builtFromSources(root)) {
  console.error('bhuktani: src/ changed since the last build: building again (npm run build)…');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}
