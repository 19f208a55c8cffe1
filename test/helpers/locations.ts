// The location tests' shared setup (test/api/locations/): requests as org A's admin, a chain of nested locations,
// and the locations table as a failed request must leave it. `const { … } = locationFixture(h)` beside
// `const h = useHarness()` (test/helpers/use-harness.ts).

import { expect } from 'vitest';
import type { Harness } from './harness.js';

export function locationFixture(h: Harness) {
  const admin = () => h.a.admin.token;
  /** POST /locations in org A's migrated lab (unless `lab_id` says otherwise), as its admin (unless `token`). */
  const create = (name: string, parent_id: string | null = null, lab_id = h.a.migratedLab.id, token = admin()) =>
    h.call(token, { method: 'POST', url: '/locations', payload: { lab_id, parent_id, name } });

  /** A chain of `n` nested locations under `parent`, returning their ids root first. */
  async function chain(prefix: string, n: number, parent: string | null = null): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await create(`${prefix}${i + 1}`, ids.at(-1) ?? parent);
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().id);
    }
    return ids;
  }

  return { admin, create, chain, locationRows: () => h.deps.db.selectFrom('locations').selectAll().orderBy('id').execute() };
}
