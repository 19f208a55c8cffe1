// The CSV import's placement checks (docs/safety.md "Inventory import"): the scenario's cabinet as an import names
// it (its path, root first), and a CSV of rows going there.
import type { Harness } from '../../helpers/harness.js';
import type { Scenario } from '../placement/_placement.js';

export async function cabinetPath(h: Harness, s: Scenario): Promise<string> {
  const names = async (id: string) =>
    await h.deps.db.selectFrom('locations').select(['name', 'parent_id']).where('id', '=', id).executeTakeFirstOrThrow();
  const cabinet = await names(s.cabinetId);
  const root = await names(cabinet.parent_id!);
  return `${root.name} / ${cabinet.name}`;
}

export const csvOf = (rows: string[][]) =>
  `${['name,unit_size,quantity,location,hazard_statements', ...rows.map((r) => r.map((c) => `"${c}"`).join(','))].join('\r\n')}\r\n`;
