import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // dist/ up to date: the test servers run the compiled command line (test/compile-before.ts).
    globalSetup: ['test/compile-before.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start real servers and git; two cores, so keep it modest.
    maxWorkers: 2,
    minWorkers: 1,
    poolOptions: {
      // Unit files load the same modules and start no server: their threads keep the modules from
      // one file to the next, instead of a new process and a new import of the code for each file.
      threads: { isolate: false },
      // So do the files that start servers: their servers, builds and browsers are child
      // processes of their own, and a fresh fork and import per file was most of a minute.
      forks: { isolate: false },
    },
    projects: [
      // The unit files first, on their own: then the files that start servers, in worker processes.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads', sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'processes', include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'], pool: 'forks', sequence: { groupOrder: 1 } } },
    ],
  },
});
