// The HA suite (test/ha/): builds a Patroni cluster on this machine and kills its primary. Not part
// of `npm test` (minutes, root, packages); `npm run test:ha` runs it, HA_LONG=1 the long version.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/ha/**/*.test.ts'],
    globalSetup: ['test/compile-setup.ts'],
    // A test that asserts nothing proves nothing (vitest.config.ts).
    expect: { requireAssertions: true },
    testTimeout: 600_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
});
