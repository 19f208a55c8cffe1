import { enforcePlacement, findPlacement, type Incoming, type PlacementFindings } from '../inventory/placement.js';
import type { PlacementCheck } from '../inventory/placement-schemas.js';
import { approvalTarget } from '../inventory/placement-target.js';
import type { Actor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { notFound } from '../shared/errors.js';
import { pendingRequestsOf } from './placement-repository.js';
import { findVisibleOrder, type OrderRow } from './repository.js';

// Approving an order request checks the control-area limits of where its goods will go (docs/safety.md,
// src/inventory/placement-target.ts): warn (the approval goes ahead) or block (409 limit_exceeded, nothing changes).

const NOTHING: PlacementFindings = {
  segregation: [],
  limits: [],
  unknown_amounts: [],
  modes: { segregation: 'warn', limits: 'warn' },
  blocked: false,
};

const goodsOf = (row: OrderRow) => ({
  labId: row.lab_id,
  vendor: row.vendor_name,
  catalogNumber: row.catalog_number,
  name: row.item_name,
  typeId: row.type_id,
  unitSize: row.unit_size,
  quantity: row.quantity,
});

/** Approved requests not yet all received, as containers still to come (first seen by the area's lock holder). */
async function pendingOf(ex: Executor, row: OrderRow): Promise<Incoming[]> {
  const out: Incoming[] = [];
  for (const p of await pendingRequestsOf(ex, row.lab_id, row.id)) {
    const left = p.received.reduce((q, r) => q.minus(r), dec(p.quantity));
    if (!left.greaterThan(0)) continue;
    out.push({
      instanceId: null,
      itemId: p.item_id,
      typeId: p.type_id,
      itemName: p.item_name,
      unitSize: p.unit_size ?? p.item_unit_size,
      quantity: left.toFixed(),
    });
  }
  return out;
}

/** In the approval's transaction, before its status changes: locks the areas, checks, refuses in block mode. */
export async function enforceApprovalPlacement(trx: Executor, row: OrderRow): Promise<void> {
  const target = await approvalTarget(trx, goodsOf(row));
  if (!target) return;
  await enforcePlacement(trx, row.lab_id, { locationId: null, areaIds: target.areaIds }, [target.incoming], () => pendingOf(trx, row));
}

/** GET /order-requests/{id}/placement-check: what approving it would run into (the approve dialog shows it). */
export async function approvalPlacementCheck(db: Db, actor: Actor, id: string): Promise<PlacementCheck> {
  const row = await findVisibleOrder(db, actor, id);
  if (!row) throw notFound('order request');
  const target = await approvalTarget(db, goodsOf(row));
  if (!target) return { ...NOTHING, modes: (await findPlacement(db, row.lab_id, { locationId: null, areaIds: [] }, [])).modes };
  return findPlacement(db, row.lab_id, { locationId: null, areaIds: target.areaIds }, [target.incoming], {
    pending: () => pendingOf(db, row),
  });
}
