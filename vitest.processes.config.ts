// The process suite: the operator's CLI, command by command (src/cli/), and the long reliability
// files (test/reliability/): real server processes killed under load, stopped with requests in
// flight, a PostgreSQL taken down and hung, a provider behind a faulty network, three instances on
// one store. About 80 CLI runs and 30 server starts, each a process opening its store, and outages
// that take the seconds they take: kept out of `npm test` (the suite run after every change), run by
// `npm run test:processes`, and by .ci/run after each `npm test`, on both stores. What stays in
// `npm test` of processes: a server killed and started again, a restart that keeps its data, the
// first start from the prepared store, the outage pages, the live-operations check.
import { defineConfig } from 'vitest/config';

export const PROCESS_SUITE = [
  'src/cli/**/*.test.ts',
  'src/dev.test.ts',
  'test/readme-first-payment.test.ts',
  'test/reliability/crash-safety.test.ts',
  'test/reliability/database-outage.test.ts',
  'test/reliability/graceful-shutdown.test.ts',
  'test/reliability/fonepay-faults.test.ts',
  'test/reliability/provider-faults.test.ts',
  'test/reliability/several-instances.test.ts',
];

export default defineConfig({
  test: {
    include: PROCESS_SUITE,
    globalSetup: ['test/global-setup.ts'],
    // A test that asserts nothing proves nothing (vitest.config.ts).
    expect: { requireAssertions: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    isolate: false,
    experimental: { fsModuleCache: true },
  },
});
