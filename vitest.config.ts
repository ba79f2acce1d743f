import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests start real servers and git; two cores, so keep it modest.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
