import { afterAll, beforeAll } from 'vitest';
import { type Harness, startHarness } from './harness.js';

export type { Harness } from './harness.js';

/**
 * Something a test file starts before its tests (beforeAll) and closes after them (afterAll), in one line:
 * `const w = useStarted(start, close)`. The value is a stand-in that reads the started object on each access, so it
 * can be declared where the file's helpers are defined; touching it outside a test or hook (while the file is being
 * collected) is an error that says so.
 */
export function useStarted<T extends object>(start: () => Promise<T>, close: (started: T) => Promise<unknown>): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(async () => {
    if (current !== undefined) await close(current);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (current === undefined) throw new Error(`useStarted(): it starts in beforeAll; read .${String(key)} inside a test or hook`);
      return Reflect.get(current, key);
    },
  });
}

/**
 * A test file's harness in one line: `const h = useHarness();` starts the real app on a fresh database with the two
 * organizations (test/helpers/fixtures.ts) before the file's tests, and closes it after them. `setup` runs once the
 * harness has started, before any test (data every test of the file shares).
 * In a separate file from harness.ts, which scripts outside Vitest import (test/lint/served-document.ts).
 */
export function useHarness(env: Record<string, string> = {}, setup?: (h: Harness) => Promise<unknown>): Harness {
  return useStarted(
    async () => {
      const h = await startHarness(env);
      try {
        await setup?.(h);
      } catch (error) {
        await h.close();
        throw error;
      }
      return h;
    },
    (h) => h.close(),
  );
}
