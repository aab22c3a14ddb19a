// The global set-up of the suites that start processes but need no prepared store (test/ha/):
// compiles the sources once for them (compiled.ts), as test/global-setup.ts does for `npm test`.
import type { TestProject } from 'vitest/node';
import { compileForProcesses } from './compiled.js';

export default async function setup(project: TestProject) {
  const compiled = await compileForProcesses();
  project.provide('compiledDir', compiled.dir);
  return () => compiled.remove();
}
