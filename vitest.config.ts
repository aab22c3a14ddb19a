import { defineConfig } from 'vitest/config';
import { PROCESS_SUITE } from './vitest.processes.config.js';
import { SANDBOX_SUITE } from './vitest.sandbox.config.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The HA suite builds a cluster of its own: `npm run test:ha` (vitest.ha.config.ts); the CLI's
    // and the long reliability files run as `npm run test:processes` (vitest.processes.config.ts); the
    // providers' real sandboxes as `npm run test:sandbox` (vitest.sandbox.config.ts).
    exclude: ['test/ha/**', ...PROCESS_SUITE, ...SANDBOX_SUITE, 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/cheap-passwords.ts'],
    // A test that asserts nothing proves nothing: each must make at least one assertion.
    expect: { requireAssertions: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // A worker runs its test files one after another in one process: the app's modules are loaded,
    // and the PGlite test store opened, once per worker instead of once per file (test-app.ts).
    isolate: false,
    // Modules compiled by one run are kept for the next (node_modules/.experimental-vitest-cache,
    // by each file's content): a second run transforms almost nothing (`npx vitest --clearCache`).
    experimental: { fsModuleCache: true },
  },
});
