import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The CLI tests spawn a dozen `labstock` processes each (~1-2 s apiece while other files run beside them).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // More test files at once than cores: most of a file's time is spent waiting (child processes, receivers,
    // timers, PostgreSQL), not computing. On the 2-core CI machine 4 took the SQLite run from ~275 s to ~165 s,
    // but CLI tests then came close to their timeout; 3 leaves them room.
    maxWorkers: 3,
  },
});
