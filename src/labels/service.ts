import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import type { LabelCodesTable, LabelKind } from '../shared/db/schema.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { type CodeView, describeCodes } from './describe.js';
import * as repo from './repository.js';
import { normalizeCode } from './rules.js';

/** One request prints at most this many labels (about 100 sheets of 30). */
export const MAX_LABELS = 3000;

/**
 * The thing behind a code the caller may see. A code of another organization, of a lab the caller is not in, of a
 * deleted thing, or no code at all: the same 404, so a scan tells nothing about what the caller may not see.
 */
export async function resolveCode(db: Db, actor: Actor, raw: string): Promise<CodeView> {
  const code = normalizeCode(raw);
  const row = code ? await repo.findVisibleCode(db, actor, code) : undefined;
  const [view] = row ? await describeCodes(db, [row]) : [];
  if (!view) throw notFound('code');
  return view;
}

export interface CodesQuery {
  instance_id?: string;
  location_id?: string;
  item_id?: string;
}

/**
 * The codes of one thing: an instance's or a location's own; for an item, its own (a legacy lab's item) and those of
 * its instances on the shelf. A thing the caller does not see: 404.
 */
export async function codesOf(db: Db, actor: Actor, q: CodesQuery): Promise<CodeView[]> {
  const given = (['instance_id', 'location_id', 'item_id'] as const).filter((k) => q[k] !== undefined);
  if (given.length !== 1) throw fieldError('instance_id', 'give exactly one of instance_id, location_id or item_id');
  let rows: LabelCodesTable[];
  if (q.item_id) {
    const [item] = await repo.visibleItems(db, actor, [q.item_id]);
    if (!item) throw notFound('item');
    rows = await itemRows(db, actor, [q.item_id]);
  } else {
    const kind: LabelKind = q.instance_id ? 'instance' : 'location';
    rows = await repo.visibleCodesOf(db, actor, kind, [(q.instance_id ?? q.location_id)!]);
    if (rows.length === 0) throw notFound(kind);
  }
  return describeCodes(db, rows);
}

/** Items' own codes (legacy labs) and their shelved instances' codes, item by item. */
async function itemRows(db: Db, actor: Actor, itemIds: string[]): Promise<LabelCodesTable[]> {
  const own = await repo.visibleCodesOf(db, actor, 'item', itemIds);
  const instances = await repo.visibleCodesOf(db, actor, 'instance', await repo.activeInstanceIdsOfItems(db, itemIds));
  return [...own, ...instances];
}

export interface LabelSelection {
  instance_ids?: string[];
  item_ids?: string[];
  location_ids?: string[];
  stored_in_location_id?: string;
  include_sublocations?: boolean;
  received_since?: string;
  lab_id?: string;
}

/** Every id asked for must be one the caller sees: the first that is not is named in a 404. */
function requireAll(asked: readonly string[], found: Iterable<string>, what: string) {
  const have = new Set(found);
  for (const id of asked) if (!have.has(id)) throw notFound(what);
}

/** Keeps the first row of each code, in order. */
const unique = (rows: LabelCodesTable[]) => [...new Map(rows.map((r) => [r.code, r])).values()];

/** The labels a print request selects, in the order asked: instances, items, locations, then what is stored, then what arrived. */
export async function selectLabels(db: Db, actor: Actor, s: LabelSelection): Promise<CodeView[]> {
  const rows: LabelCodesTable[] = [];
  const instanceIds = [...new Set(s.instance_ids ?? [])];
  if (instanceIds.length) {
    const found = await repo.visibleCodesOf(db, actor, 'instance', instanceIds);
    requireAll(
      instanceIds,
      found.map((r) => r.target_id),
      'instance',
    );
    const byId = new Map(found.map((r) => [r.target_id, r]));
    rows.push(...instanceIds.map((id) => byId.get(id)!));
  }
  const itemIds = [...new Set(s.item_ids ?? [])];
  if (itemIds.length) {
    requireAll(
      itemIds,
      (await repo.visibleItems(db, actor, itemIds)).map((i) => i.id),
      'item',
    );
    rows.push(...(await itemRows(db, actor, itemIds)));
  }
  const locationIds = [...new Set(s.location_ids ?? [])];
  if (locationIds.length) {
    const found = await repo.visibleCodesOf(db, actor, 'location', locationIds);
    requireAll(
      locationIds,
      found.map((r) => r.target_id),
      'location',
    );
    const byId = new Map(found.map((r) => [r.target_id, r]));
    rows.push(...locationIds.map((id) => byId.get(id)!));
  }
  if (s.stored_in_location_id) rows.push(...(await storedIn(db, actor, s.stored_in_location_id, s.include_sublocations ?? false)));
  if (s.received_since !== undefined) {
    const since = Date.parse(s.received_since);
    if (Number.isNaN(since)) throw fieldError('received_since', 'must be a date and time (ISO 8601)');
    const ids = await repo.activeInstanceIdsSince(db, actor, new Date(since).toISOString(), s.lab_id ?? null, MAX_LABELS + 1);
    rows.push(
      ...(await repo.visibleCodesOf(
        db,
        actor,
        'instance',
        ids.map((r) => r.id),
      )),
    );
  }
  const all = unique(rows);
  if (all.length > MAX_LABELS) throw new AppError('validation_failed', `at most ${MAX_LABELS} labels at once; choose fewer`);
  return describeCodes(db, all);
}

/** The shelved instances at a location the caller sees (and below it, if asked), by location path then name. */
async function storedIn(db: Db, actor: Actor, locationId: string, below: boolean): Promise<LabelCodesTable[]> {
  const [own] = await repo.visibleCodesOf(db, actor, 'location', [locationId]);
  if (!own) throw notFound('location');
  const ids = [locationId];
  if (below) {
    const children = new Map<string, string[]>();
    for (const l of await repo.locationsOfLabs(db, [own.lab_id]))
      if (l.parent_id) (children.get(l.parent_id) ?? children.set(l.parent_id, []).get(l.parent_id)!).push(l.id);
    const seen = new Set(ids);
    for (let i = 0; i < ids.length; i++)
      for (const c of children.get(ids[i]!) ?? [])
        if (!seen.has(c)) {
          seen.add(c);
          ids.push(c);
        }
  }
  return repo.visibleCodesOf(db, actor, 'instance', await repo.activeInstanceIdsAt(db, ids));
}
