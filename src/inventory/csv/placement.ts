import { ifcOf } from '../../hazards/control-area-rules.js';
import type { Executor } from '../../shared/db/database.js';
import { AppError } from '../../shared/errors.js';
import { classesOf, findPlacement, type Incoming, lookups, type PlacementFindings } from '../placement.js';
import type { RowError } from './rules.js';

// An import's placement checks (docs/safety.md "Inventory import"): a real run checks each batch's new containers
// where they go, after their items and hazards are written and before the containers are, as adding them one by one
// would (src/inventory/placement.ts), so a later batch counts an earlier one's. Only containers whose item has a
// hazard class or a storage attribute (its own or its type's) can run into anything; the others cost nothing.
// Warn mode: the import goes ahead and its answer lists the findings by row. Block mode: nothing is written, 409
// limit_exceeded or segregation_conflict naming the rows, `findings` as POST /placement-checks answers.

export interface NewContainer {
  line: number;
  locationId: string | null;
  incoming: Incoming;
}

export interface ImportPlacement {
  warnings: RowError[];
  blocking: RowError[];
  findings: PlacementFindings | null;
}

export const noImportPlacement = (): ImportPlacement => ({ warnings: [], blocking: [], findings: null });

const MAX_REPORTED = 1000;

/** Checks one batch's containers (their items already written, they not yet), adding to `into`. */
export async function checkImportBatch(trx: Executor, labId: string, containers: readonly NewContainer[], into: ImportPlacement) {
  const placed = containers.filter((c) => c.locationId !== null);
  if (placed.length === 0) return;
  const l = await lookups(
    trx,
    placed.map((c) => ({ itemId: c.incoming.itemId, typeId: c.incoming.typeId })),
  );
  const relevant = placed.filter(
    (c) => (l.classes.get(c.incoming.itemId!) ?? []).length > 0 || l.attributes(c.incoming.itemId, c.incoming.typeId) !== null,
  );
  const byLocation = new Map<string, NewContainer[]>();
  for (const c of relevant) byLocation.set(c.locationId!, [...(byLocation.get(c.locationId!) ?? []), c]);
  for (const [locationId, here] of byLocation) {
    const found = await findPlacement(
      trx,
      labId,
      { locationId },
      here.map((c) => c.incoming),
      { lock: true },
    );
    const errors: { rows: NewContainer[]; code: 'segregation_conflict' | 'limit_exceeded'; message: string; block: boolean }[] = [
      ...found.segregation.map((f) => ({
        // The incoming row and, when the other container is another row of the file (not yet stored: no id), it too.
        rows: here.filter(
          (c) => c.incoming.itemName === f.incoming_item_name || (f.instance_id === null && c.incoming.itemId === f.item_id),
        ),
        code: 'segregation_conflict' as const,
        message: f.message,
        block: found.modes.segregation === 'block',
      })),
      ...found.limits.map((f) => ({
        // The rows whose classes count towards the limit's category.
        rows: here.filter((c) => classesOf(l, c.incoming.itemId, c.incoming.typeId).some((k) => ifcOf(k).ifc.includes(f.category))),
        code: 'limit_exceeded' as const,
        message: f.message,
        block: found.modes.limits === 'block',
      })),
    ];
    for (const e of errors) {
      const list = e.block ? into.blocking : into.warnings;
      for (const r of e.rows)
        if (list.length < MAX_REPORTED) list.push({ line: r.line, column: 'location', code: e.code, message: e.message });
    }
    if (errors.length > 0) {
      into.findings ??= { ...found, segregation: [], limits: [], unknown_amounts: [] };
      const f = into.findings;
      f.segregation.push(...found.segregation);
      f.limits.push(...found.limits);
      f.unknown_amounts.push(...found.unknown_amounts);
      f.blocked ||= found.blocked;
    }
  }
}

/** Block mode with findings: the refusal, the rows named (after everything was checked, so all of them are). */
export function importPlacementRefused(p: ImportPlacement): AppError | null {
  if (p.blocking.length === 0) return null;
  const sorted = [...p.blocking].sort((a, b) => a.line - b.line);
  const code = sorted.some((e) => e.code === 'limit_exceeded') ? 'limit_exceeded' : 'segregation_conflict';
  const first = sorted[0]!;
  return new AppError(
    code,
    `Refused by the lab's safety settings; nothing was imported (line ${first.line}: ${first.message}${sorted.length > 1 ? `; and ${sorted.length - 1} more` : ''})`,
    { extra: { import_errors: sorted, error_count: sorted.length, findings: p.findings } },
  );
}
