import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // dist/ up to date: the test servers run the compiled command line (test/compile-before.ts).
    globalSetup: ['test/compile-before.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests start real servers and git; two cores, so keep it modest.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
