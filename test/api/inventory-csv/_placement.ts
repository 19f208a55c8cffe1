// The CSV import's placement checks (docs/safety.md "Inventory import"): the scenario's cabinet as an import names
// it (its path, root first), and a CSV of rows going there.
import type { Harness } from '../../helpers/harness.js';
import type { Scenario } from '../placement/_placement.js';

export const cabinetPath = (h: Harness, s: Scenario): Promise<string> => pathOf(h, s.cabinetId);

/** A location one below a root (the scenario's places), as an import names it. */
export async function pathOf(h: Harness, locationId: string): Promise<string> {
  const names = async (id: string) =>
    await h.deps.db.selectFrom('locations').select(['name', 'parent_id']).where('id', '=', id).executeTakeFirstOrThrow();
  const place = await names(locationId);
  const root = await names(place.parent_id!);
  return `${root.name} / ${place.name}`;
}

export const csvOf = (rows: string[][]) =>
  `${['name,unit_size,quantity,location,hazard_statements', ...rows.map((r) => r.map((c) => `"${c}"`).join(','))].join('\r\n')}\r\n`;
