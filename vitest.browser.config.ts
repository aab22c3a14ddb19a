// The browser suite (headless Chromium against the running service): `npm run test:browser`.
// Kept out of `npm test`; one file at a time, since every file drives its own server. The files run
// one after another in one worker process (`isolate: false`): the app's modules are loaded, the
// test store opened and Chromium launched once (browser/harness.ts), as in `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['browser/**/*.browser.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/cheap-passwords.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
