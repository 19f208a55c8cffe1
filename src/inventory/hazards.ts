import { renderItemHazards } from '../hazards/render.js';
import { effectiveHazards, hazardSetOf, setHazardsIn } from '../hazards/repository.js';
import { normalizeCodes } from '../hazards/rules.js';
import type { ItemHazardSummary, ItemHazards, SetItemHazardsBody } from '../hazards/schemas.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { fieldError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { finishItemChange, lockVisibleItem, preconditionFailed } from './changes.js';
import { visibleItemTypes } from './hazard-repository.js';
import { recordHistory } from './history-rows.js';
import * as repo from './repository.js';
import { etagOf, ifMatchSatisfied } from './rules.js';

// An item's hazard statements (docs/hazards.md): on their own endpoint, never a field of the contract's item. Setting
// them is an edit of the item like its minimum quantity (docs/api.md): If-Match, a new version, a line of history,
// one inventory-item.updated (carrying the item as the contract shows it). A type's statements are src/types/'s.

export interface HazardsWithEtag {
  hazards: ItemHazards;
  etag: string;
}

async function view(ex: Executor, row: repo.ItemRow): Promise<ItemHazards> {
  const [eff, own, ofType] = await Promise.all([
    effectiveHazards(ex, [{ itemId: row.id, typeId: row.type_id }]),
    hazardSetOf(ex, { kind: 'item', id: row.id }),
    row.type_id ? hazardSetOf(ex, { kind: 'type', id: row.type_id }) : undefined,
  ]);
  return renderItemHazards(ex, row.id, eff.get(row.id)!, own, ofType);
}

/** GET /inventory-items/{id}/hazards: for anyone who sees the item. */
export async function getItemHazards(deps: ServiceDeps, actor: Actor, itemId: string): Promise<HazardsWithEtag> {
  const row = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!row) throw notFound('inventory item');
  return { hazards: await view(deps.db, row), etag: etagOf(row.version) };
}

const asText = (codes: string[] | null): string | null => (codes === null ? null : codes.join(' '));

/** PUT /inventory-items/{id}/hazards: anyone who sees the item sets its own statements, or (null) removes them. */
export async function setItemHazards(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  body: SetItemHazardsBody,
  ifMatch?: string,
): Promise<HazardsWithEtag> {
  // Checked before anything is read or locked: a wrong code names itself and changes nothing.
  const codes = body.hazard_statements === null ? null : normalizeCodes(body.hazard_statements);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    const before = await hazardSetOf(trx, { kind: 'item', id: row.id });
    const old = before ? before.codes : null;
    if (asText(old) === asText(codes)) return { hazards: await view(trx, row), etag: etagOf(row.version) };
    const now = nowIso();
    await setHazardsIn(trx, { kind: 'item', id: row.id }, { labId: row.lab_id, codes, userId: actor.userId, now });
    await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
      { field: 'hazard_statements', old: asText(old), new: asText(codes) },
    ]);
    const { etag } = await finishItemChange(trx, deps, row.id);
    return { hazards: await view(trx, (await repo.findItem(trx, row.id))!), etag };
  });
}

export const MAX_SUMMARY_IDS = 100;

/** GET /hazards/inventory-items?ids=: pictograms and signal word of each visible item (others are left out, never shown). */
export async function itemHazardSummaries(deps: ServiceDeps, actor: Actor, idsText: string): Promise<ItemHazardSummary[]> {
  const ids = [
    ...new Set(
      idsText
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw fieldError('ids', 'name at least one item id');
  if (ids.length > MAX_SUMMARY_IDS) throw fieldError('ids', `at most ${MAX_SUMMARY_IDS} item ids`);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const bad = ids.find((id) => !uuid.test(id));
  if (bad !== undefined) throw fieldError('ids', `"${bad.slice(0, 40)}" is not an item id`);
  const rows = await visibleItemTypes(deps.db, actor, ids);
  const eff = await effectiveHazards(
    deps.db,
    rows.map((r) => ({ itemId: r.id, typeId: r.type_id })),
  );
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    .map((r) => {
      const e = eff.get(r.id)!;
      return { item_id: r.id, pictograms: e.pictograms, signal_word: e.signalWord, class_ids: e.classes.map((k) => k.id) };
    });
}
