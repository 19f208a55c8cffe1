import { type Expression, type SqlBool, sql } from 'kysely';
import { CHUNK_SIZE } from '../shared/db/chunks.js';
import type { Executor } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import { trackHoldings } from './holdings-repository.js';
import { type Classification, classify, codesOfClass } from './rules.js';

// hazard_sets and hazard_set_codes are this folder's (migration 0036, docs/hazards.md). An item's own statements
// override its type's; an item without a set of its own inherits its type's; a set with no codes is "no hazards".
// Items belong to types through inventory_items.type_id, which is inventory/'s: callers hand over the item->type
// pairs (effectiveHazards) or the columns of their own query (hazardClassCondition), so this folder never reads it.

export type HazardOwner = { kind: 'item'; id: string } | { kind: 'type'; id: string };

export interface HazardSet {
  /** Normalized codes, in table order; [] is "no hazards" recorded on purpose. */
  codes: string[];
  updatedBy: string;
  updatedAt: string;
}

export interface EffectiveHazards extends Classification {
  /** Where the statements come from: the item's own, its type's, or none recorded on either. */
  source: 'item' | 'type' | 'none';
  /** Who set the statements shown, and when (null for 'none'). */
  updatedBy: string | null;
  updatedAt: string | null;
}

const column = (owner: HazardOwner) => (owner.kind === 'item' ? 'item_id' : 'type_id');

interface SetRow {
  item_id: string | null;
  type_id: string | null;
  updated_by: string;
  updated_at: string;
  code: string | null;
}

/** The sets (with their codes) of these items and types: one statement per CHUNK_SIZE ids of each. */
async function readSets(
  ex: Executor,
  itemIds: string[],
  typeIds: string[],
): Promise<{ items: Map<string, HazardSet>; types: Map<string, HazardSet> }> {
  const items = new Map<string, HazardSet>();
  const types = new Map<string, HazardSet>();
  // Items' and types' sets in one statement (a set names exactly one of the two).
  const query = (items: string[], types: string[]) =>
    ex
      .selectFrom('hazard_sets as s')
      .leftJoin('hazard_set_codes as c', 'c.set_id', 's.id')
      .select(['s.item_id', 's.type_id', 's.updated_by', 's.updated_at', 'c.code'])
      .where((eb) =>
        eb.or([...(items.length ? [eb('s.item_id', 'in', items)] : []), ...(types.length ? [eb('s.type_id', 'in', types)] : [])]),
      )
      .execute() as Promise<SetRow[]>;
  for (let i = 0; i < Math.max(itemIds.length, typeIds.length); i += CHUNK_SIZE)
    for (const r of await query(itemIds.slice(i, i + CHUNK_SIZE), typeIds.slice(i, i + CHUNK_SIZE))) {
      const [into, key] = r.item_id !== null ? [items, r.item_id] : [types, r.type_id!];
      const set = into.get(key) ?? { codes: [], updatedBy: r.updated_by, updatedAt: r.updated_at };
      if (r.code) set.codes.push(r.code);
      into.set(key, set);
    }
  // Codes come back in no particular order; classify() puts them in the table's.
  for (const set of [...items.values(), ...types.values()]) set.codes = classify(set.codes).codes;
  return { items, types };
}

/** The own statements of an item or a type, or undefined when it has none of its own (an item then inherits). */
export async function hazardSetOf(ex: Executor, owner: HazardOwner): Promise<HazardSet | undefined> {
  const { items, types } = await readSets(ex, owner.kind === 'item' ? [owner.id] : [], owner.kind === 'type' ? [owner.id] : []);
  return (owner.kind === 'item' ? items : types).get(owner.id);
}

/** The own statements of these items (those without any are missing from the map). */
export async function ownHazardSets(ex: Executor, itemIds: string[]): Promise<Map<string, HazardSet>> {
  return (await readSets(ex, itemIds, [])).items;
}

/**
 * What each item shows: its own statements if it has a set, else its type's, classified. Two statements per
 * CHUNK_SIZE items whatever their number (the items' sets, then their types'). Items missing from the result do
 * not happen: every item given gets an entry (source 'none' when nothing is recorded).
 */
export async function effectiveHazards(
  ex: Executor,
  items: readonly { itemId: string; typeId: string | null }[],
): Promise<Map<string, EffectiveHazards>> {
  const typeIds = [...new Set(items.map((i) => i.typeId).filter((t): t is string => t !== null))];
  const sets = await readSets(
    ex,
    items.map((i) => i.itemId),
    typeIds,
  );
  const cache = new Map<string, Classification>();
  const classified = (codes: string[]) => {
    const key = codes.join(' ');
    return cache.get(key) ?? cache.set(key, classify(codes)).get(key)!;
  };
  const out = new Map<string, EffectiveHazards>();
  for (const { itemId, typeId } of items) {
    const own = sets.items.get(itemId);
    const inherited = typeId ? sets.types.get(typeId) : undefined;
    const set = own ?? inherited;
    const source = own ? 'item' : inherited ? 'type' : 'none';
    out.set(itemId, { ...classified(set?.codes ?? []), source, updatedBy: set?.updatedBy ?? null, updatedAt: set?.updatedAt ?? null });
  }
  return out;
}

/**
 * Replaces the own statements of an item or a type (normalized codes; [] records "no hazards"), or with null
 * removes them (an item then inherits its type's again). Run inside the caller's transaction, after its checks.
 */
export async function setHazardsIn(
  trx: Executor,
  owner: HazardOwner,
  change: { labId: string; codes: string[] | null; userId: string; now: string },
): Promise<void> {
  // The containers of the item, or of the items that inherit the type's, move to the holding of their new
  // statements (./holdings-repository.ts).
  await trackHoldings(trx, owner.kind === 'item' ? { itemIds: [owner.id] } : { typeId: owner.id }, () => writeSet(trx, owner, change));
}

async function writeSet(trx: Executor, owner: HazardOwner, change: { labId: string; codes: string[] | null; userId: string; now: string }) {
  const col = column(owner);
  const existing = await trx.selectFrom('hazard_sets').select('id').where(col, '=', owner.id).executeTakeFirst();
  if (change.codes === null) {
    if (existing) await trx.deleteFrom('hazard_sets').where('id', '=', existing.id).execute();
    return;
  }
  const id = existing?.id ?? newId();
  if (existing) {
    await trx.updateTable('hazard_sets').set({ updated_by: change.userId, updated_at: change.now }).where('id', '=', id).execute();
    await trx.deleteFrom('hazard_set_codes').where('set_id', '=', id).execute();
  } else {
    await trx
      .insertInto('hazard_sets')
      .values({
        id,
        lab_id: change.labId,
        item_id: owner.kind === 'item' ? owner.id : null,
        type_id: owner.kind === 'type' ? owner.id : null,
        updated_by: change.userId,
        updated_at: change.now,
      })
      .execute();
  }
  if (change.codes.length > 0)
    await trx
      .insertInto('hazard_set_codes')
      .values(change.codes.map((code) => ({ set_id: id, code })))
      .execute();
}

/**
 * The own statements of items created in the caller's transaction (a CSV import): a few multi-row statements. The
 * items have no containers yet (those inserted after are added to the holdings with their statements).
 */
export async function insertItemHazardsIn(
  trx: Executor,
  labId: string,
  items: readonly { itemId: string; codes: string[] }[],
  by: { userId: string; now: string },
): Promise<void> {
  const sets = items.map((i) => ({ ...i, setId: newId() }));
  for (let i = 0; i < sets.length; i += CHUNK_SIZE)
    await trx
      .insertInto('hazard_sets')
      .values(
        sets
          .slice(i, i + CHUNK_SIZE)
          .map((s) => ({ id: s.setId, lab_id: labId, item_id: s.itemId, type_id: null, updated_by: by.userId, updated_at: by.now })),
      )
      .execute();
  const codes = sets.flatMap((s) => s.codes.map((code) => ({ set_id: s.setId, code })));
  for (let i = 0; i < codes.length; i += CHUNK_SIZE)
    await trx
      .insertInto('hazard_set_codes')
      .values(codes.slice(i, i + CHUNK_SIZE))
      .execute();
}

/**
 * A condition on the caller's item rows: the item's effective statements give `classId` (its own set has one of
 * the class's codes, or it has no set of its own and its type's set has). `item` names the caller's columns, e.g.
 * { id: 'inventory_items.id', typeId: 'inventory_items.type_id' }. The class's codes are literals from the rules
 * table; the hazard_set_codes (code, set_id) index finds the sets.
 */
export function hazardClassCondition(classId: string, item: { id: string; typeId: string }): Expression<SqlBool> {
  const codes = codesOfClass(classId);
  if (codes.length === 0) return sql<SqlBool>`1 = 0`;
  const list = sql.join(codes.map((c) => sql.lit(c)));
  const withClass = (col: 'item_id' | 'type_id') =>
    sql`select s.${sql.ref(col)} from hazard_set_codes c inner join hazard_sets s on s.id = c.set_id
      where c.code in (${list}) and s.${sql.ref(col)} is not null`;
  return sql<SqlBool>`(${sql.ref(item.id)} in (${withClass('item_id')}) or (${sql.ref(item.typeId)} in (${withClass('type_id')})
    and not exists (select 1 from hazard_sets own where own.item_id = ${sql.ref(item.id)})))`;
}
