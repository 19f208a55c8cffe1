import { userSummaries } from '../accounts/repository.js';
import type { Executor } from '../shared/db/database.js';
import { CLASS_BY_ID, HAZARD_CLASSES } from './ghs-classes.js';
import { STATEMENTS } from './ghs-data.js';
import type { EffectiveHazards, HazardSet } from './repository.js';
import type { Classification } from './rules.js';
import type { ItemHazards, TypeHazards } from './schemas.js';

// The application API's shapes of hazards (src/hazards/schemas.ts), from the rules' results.

const TEXT = new Map(STATEMENTS.map((r) => [r.code, r.text]));

export const renderClassified = (c: Classification) => ({
  statements: c.codes.map((code) => ({ code, text: TEXT.get(code)! })),
  classes: c.classes.map((k) => ({ id: k.id, name: CLASS_BY_ID.get(k.id)!.name, category: k.category, categories: k.categories })),
  pictograms: c.pictograms,
  signal_word: c.signalWord,
});

/** GET /inventory-items/{id}/hazards: what the item shows, its own statements and its type's. */
export async function renderItemHazards(
  ex: Executor,
  itemId: string,
  eff: EffectiveHazards,
  own: HazardSet | undefined,
  ofType: HazardSet | undefined,
): Promise<ItemHazards> {
  const users = eff.updatedBy ? await userSummaries(ex, [eff.updatedBy]) : new Map();
  return {
    item_id: itemId,
    source: eff.source,
    own_statements: own ? own.codes : null,
    type_statements: ofType?.codes ?? [],
    ...renderClassified(eff),
    updated_by: eff.updatedBy ? (users.get(eff.updatedBy) ?? null) : null,
    updated_at: eff.updatedAt,
  };
}

/** GET /types/{id}/hazards. */
export async function renderTypeHazards(ex: Executor, typeId: string, c: Classification, set: HazardSet | undefined): Promise<TypeHazards> {
  const users = set ? await userSummaries(ex, [set.updatedBy]) : new Map();
  return {
    type_id: typeId,
    ...renderClassified(c),
    updated_by: set ? (users.get(set.updatedBy) ?? null) : null,
    updated_at: set?.updatedAt ?? null,
  };
}

export const statementRules = () =>
  STATEMENTS.map((r) => ({
    code: r.code,
    text: r.text,
    classes: r.classes.map((k) => ({ id: k.id, categories: k.categories })),
    pictograms: r.pictograms,
    signal_word: r.signalWord,
    origin: r.origin,
  }));

export const hazardClasses = () => HAZARD_CLASSES.map((k) => ({ id: k.id, name: k.name, kind: k.kind, categories: [...k.categories] }));
