// The providers' real sandboxes: each connector against its provider's own test service, over the
// internet, when that provider's credentials are in the environment (each file says which; skipped
// otherwise). Kept out of `npm test`, which never leaves the machine: `npm run test:sandbox`.
import { defineConfig } from 'vitest/config';

export const SANDBOX_SUITE = ['src/providers/**/*.sandbox.test.ts'];

export default defineConfig({
  test: {
    include: SANDBOX_SUITE,
    // A sandbox answers in its own time; one provider at a time, so none is asked twice at once.
    // A test that asserts nothing proves nothing (vitest.config.ts).
    expect: { requireAssertions: true },
    testTimeout: 60_000,
    maxWorkers: 1,
  },
});
