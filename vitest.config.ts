import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // More test files at once than cores: most of a file's time is spent waiting (child processes, receivers,
    // timers, PostgreSQL), not computing. On the 2-core CI machine 4 took the SQLite run from ~275 s to ~165 s.
    maxWorkers: 4,
  },
});
