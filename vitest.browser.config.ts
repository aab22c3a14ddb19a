// The browser suite (headless Chromium against the running service): `npm run test:browser`.
// Kept out of `npm test`. Two workers, each running its files one after another in one process
// (`isolate: false`): a worker loads the app's modules, opens its test store and launches its
// Chromium once (browser/harness.ts), as in `npm test`; every file drives a server of its own.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['browser/**/*.browser.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/cheap-passwords.ts'],
    maxWorkers: 2,
    isolate: false,
    experimental: { fsModuleCache: true },
    // A test that asserts nothing proves nothing (vitest.config.ts).
    expect: { requireAssertions: true },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
