import { subscribersFromJson } from '../delivery/webhook-repository.js';
import { emitEventWith } from '../events/outbox.js';
import { holdingsBeforeQuantitySetQuery } from '../hazards/holdings-repository.js';
import { isMigrating, labMigrating } from '../labs/migrating.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { executeCompiled, runWrites } from '../shared/db/precompiled.js';
import { dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import type { ItemWithEtag } from './changes.js';
import { preconditionFailed } from './changes.js';
import { historyRow, recordHistory } from './history-rows.js';
import { enforcePlacement } from './placement.js';
import { changeInsertQuery, findInstanceChange, instanceQuantityQuery, touchItemQuery } from './quantity-fast-repository.js';
import { etagOf, ifMatchSatisfied, itemQuantity } from './rules.js';
import type { InstanceQuantity, InventoryItem } from './schemas.js';
import { itemIndexOf } from './search/rules.js';
import { documentOf } from './stored/documents.js';
import { currentDocument, DOCUMENT_SHAPE } from './stored/shape.js';

// PUT /inventory-items/{itemId}/instances/{itemInstanceId}, the write integrations send most (a balance, a
// dispenser, an ELN), in the fewest statements (issue 15: at most 8, BEGIN and COMMIT included; counted by
// test/perf/write-budgets.test.ts): one read of everything it needs, the instance, the item (its version, what it
// is found by and its new document in one update), the history row, the event and its deliveries. The new document
// is the stored one with the instance's quantity, the item's quantity and updated_by changed: what rendering gives
// (test/helpers/stored-documents.ts checks it). An item without a stored document of this version's shape
// (./stored/shape.ts) takes the general path, which renders it.

export type FastResult = ItemWithEtag | 'no-document';

export async function setInstanceQuantityFast(
  trx: Executor,
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  body: InstanceQuantity,
  ifMatch: string | undefined,
): Promise<FastResult> {
  const found = await findInstanceChange(trx, actor, itemId, instanceId, deps.config.webhookRequireVerification);
  if (!found) throw notFound('inventory item');
  if (found.instance_id === null || found.instance_quantity === null) throw notFound('inventory item instance');
  const stored = currentDocument(found);
  if (stored === null) return 'no-document';
  if (!ifMatchSatisfied(ifMatch, found.version)) throw preconditionFailed();
  const item = JSON.parse(stored) as InventoryItem;
  if (found.instance_quantity === body.quantity) return { item, etag: etagOf(found.version), json: stored };
  if (isMigrating(found)) throw labMigrating();
  // More in a lab with control areas: the limits above the instance's location count it (src/inventory/placement.ts).
  if (found.has_control_areas && dec(body.quantity).greaterThan(found.instance_quantity)) {
    await enforcePlacement(trx, found.lab_id, { locationId: found.instance_location_id }, [
      { instanceId, itemId: found.id, typeId: found.type_id, itemName: found.name, unitSize: found.unit_size, quantity: body.quantity },
    ]);
  }
  const instance = item.instances.find((i) => i.id === instanceId);
  if (!instance) return 'no-document';

  instance.quantity = body.quantity;
  item.quantity = itemQuantity(
    true,
    item.quantity,
    item.instances.map((i) => i.quantity),
  );
  // The keys in the order a rendered UserSummary has them (src/accounts/repository.ts userSummaries).
  item.updated_by = { id: actor.userId, first_name: found.first_name, last_name: found.last_name, email: found.email };
  const json = documentOf(item);
  const index = itemIndexOf(item, found.minimum_quantity);
  const now = nowIso();
  // Its version first: a writer holding the same ETag that got there first makes this one 412 before anything else.
  const touched = await executeCompiled(
    trx,
    // A quantity is not searched by its words: only below_minimum can change among the indexes (search/rules.ts).
    touchItemQuery(
      trx,
      found.id,
      found.version,
      { below_minimum: index.below_minimum, rendered: json, rendered_shape: DOCUMENT_SHAPE },
      actor.userId,
      now,
    ),
  );
  if (Number(touched.numAffectedRows ?? 0) !== 1) throw preconditionFailed();
  // The control-area totals read the instance's old quantity: before its update (src/hazards/holdings-repository.ts).
  const writes = [
    holdingsBeforeQuantitySetQuery(trx, instanceId, body.quantity),
    instanceQuantityQuery(trx, instanceId, body.quantity, now),
  ];
  const at = { itemId: found.id, userId: actor.userId, now, controlled: found.controlled === 1 };
  const entry = { instanceId, field: 'instance.quantity', old: found.instance_quantity, new: body.quantity };
  if (at.controlled) {
    // A controlled substance's ledger goes with its history line (src/inventory/history-rows.ts).
    await runWrites(trx, writes.splice(0));
    await recordHistory(trx, at, [entry]);
  } else writes.push(changeInsertQuery(trx, historyRow(at, entry)));
  await emitEventWith(
    trx,
    deps.config,
    { type: 'inventory-item.updated', organizationId: found.organization_id, labId: found.lab_id, resource: item },
    subscribersFromJson(found.subscribers),
    writes,
  );
  return { item, etag: etagOf(found.version + 1), json };
}
