import { afterAll, beforeAll } from 'vitest';
import { type Harness, startHarness } from './harness.js';

export type { Harness } from './harness.js';

/**
 * A test file's harness in one line: `const h = useHarness();` starts the real app on a fresh database with the two
 * organizations (test/helpers/fixtures.ts) before the file's tests, and closes it after them. `setup` runs once the
 * harness has started, before any test (data every test of the file shares).
 *
 * The value is a stand-in that reads the started harness on each access, so it can be declared where the file's
 * helpers are defined; touching it outside a test or hook (while the file is being collected) is an error that says so.
 * In a separate file from harness.ts, which scripts outside Vitest import (test/lint/served-document.ts).
 */
export function useHarness(env: Record<string, string> = {}, setup?: (h: Harness) => Promise<unknown>): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(env);
    await setup?.(current);
  });
  afterAll(() => current?.close());
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (current === undefined)
        throw new Error(`useHarness(): the harness starts in beforeAll; read h.${String(key)} inside a test or hook`);
      return Reflect.get(current, key);
    },
  });
}
