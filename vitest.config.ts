import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The HA suite builds a cluster of its own: `npm run test:ha` (vitest.ha.config.ts).
    exclude: ['test/ha/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // A worker runs its test files one after another in one process: the app's modules are loaded,
    // and the PGlite test store opened, once per worker instead of once per file (test-app.ts).
    isolate: false,
  },
});
