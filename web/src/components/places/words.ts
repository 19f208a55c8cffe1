// Control areas and segregation in words (docs/safety.md, "In the app"): no category ids, no field names.

// Pure and typed by shape only: test/web/ reads this file under the server's tsconfig (no client types, no DOM).
type State = 'solid' | 'liquid' | 'gas';
interface Amounts {
  amount: string;
  limit: string;
  unit: string;
  over: boolean;
}
interface Place {
  id: string;
  parent_id: string | null;
}

export const STATE_WORDS = { solid: 'solids', liquid: 'liquids', gas: 'gases' } as const;

/** A limit's name as a person reads it: "Flammable liquids IB and IC", or "Corrosives, liquids" where the category has several states. */
export function limitName(limit: { label: string; state: State; category: string }, all: readonly { category: string }[]): string {
  const states = all.filter((l) => l.category === limit.category).length;
  return states > 1 ? `${limit.label}, ${STATE_WORDS[limit.state]}` : limit.label;
}

/** "18 L of 20 L". */
export const amountOfLimit = (line: Pick<Amounts, 'amount' | 'limit' | 'unit'>) =>
  `${line.amount} ${line.unit} of ${line.limit} ${line.unit}`;

/** The share of the limit used, 0..100 for the bar (a zero limit is full as soon as anything is stored). */
export function share(line: Pick<Amounts, 'amount' | 'limit'>): number {
  const amount = Number(line.amount);
  const limit = Number(line.limit);
  if (limit <= 0) return amount > 0 ? 100 : 0;
  return Math.min(100, (amount / limit) * 100);
}

/** Orange from 80 % of the limit, red above it. */
export function level(line: Pick<Amounts, 'amount' | 'limit' | 'over'>): 'over' | 'near' | 'fine' {
  if (line.over) return 'over';
  return share(line) >= 80 ? 'near' : 'fine';
}

/** How far over: "2 L over the limit" (decimals as strings: the difference of two short decimals, rounded to 3 places). */
export function overBy(line: Pick<Amounts, 'amount' | 'limit' | 'unit'>): string {
  const by = Math.round((Number(line.amount) - Number(line.limit)) * 1000) / 1000;
  return `${by} ${line.unit} over the limit`;
}

/**
 * What the meter could not count, in words after the items it names: "and 38 more items (214 containers in all)";
 * empty when every item is named.
 */
export function unknownRest(line: { unknown_containers: number; unknown_items: readonly unknown[]; unknown_items_count: number }): string {
  const more = line.unknown_items_count - line.unknown_items.length;
  if (more <= 0) return '';
  return `and ${more} more ${more === 1 ? 'item' : 'items'} (${containers(line.unknown_containers)} in all)`;
}

export const containers = (n: number) => `${n} ${n === 1 ? 'container' : 'containers'}`;

/** The locations above this one, nearest first (the lab's flat list; a cycle stops the walk). */
export function ancestorsOf<L extends Place>(locations: readonly L[], id: string): L[] {
  const byId = new Map(locations.map((l) => [l.id, l]));
  const out: L[] = [];
  const seen = new Set([id]);
  for (let parent = byId.get(id)?.parent_id ?? null; parent && !seen.has(parent); parent = byId.get(parent)?.parent_id ?? null) {
    seen.add(parent);
    const l = byId.get(parent);
    if (!l) break;
    out.push(l);
  }
  return out;
}
