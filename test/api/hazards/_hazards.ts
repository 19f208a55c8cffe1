// The requests and checks the hazards tests share (docs/hazards.md, docs/api.md "Hazards").
import { expect } from 'vitest';
import { dbState } from '../../helpers/data.js';
import type { Harness } from '../../helpers/use-harness.js';

export function hazardsFixture(h: Harness) {
  const itemUrl = (id: string) => `/inventory-items/${id}/hazards`;
  const typeUrl = (id: string) => `/types/${id}/hazards`;
  const getItem = (token: string, id: string) => h.call(token, { method: 'GET', url: itemUrl(id) });
  const putItem = (token: string, id: string, codes: unknown, headers: Record<string, string> = {}) =>
    h.call(token, { method: 'PUT', url: itemUrl(id), payload: { hazard_statements: codes }, headers });
  const getType = (token: string, id: string) => h.call(token, { method: 'GET', url: typeUrl(id) });
  const putType = (token: string, id: string, codes: unknown) =>
    h.call(token, { method: 'PUT', url: typeUrl(id), payload: { hazard_statements: codes } });
  const summaries = (token: string, ids: string[]) =>
    h.call(token, { method: 'GET', url: `/hazards/inventory-items?ids=${ids.map(encodeURIComponent).join(',')}` });
  const list = (token: string, query: string) => h.call(token, { method: 'GET', url: `/inventory-items?${query}` });

  /** Everything a hazards write could touch: the items (versions), history, events, and both hazard tables. */
  const state = async () => ({
    ...(await dbState(h)),
    sets: await h.deps.db.selectFrom('hazard_sets').selectAll().orderBy('id').execute(),
    codes: await h.deps.db.selectFrom('hazard_set_codes').selectAll().orderBy('set_id').orderBy('code').execute(),
  });

  /** Sends, then checks that nothing changed. */
  const unchanged = async <R>(send: () => Promise<R>): Promise<R> => {
    const before = await state();
    const res = await send();
    expect(await state()).toEqual(before);
    return res;
  };

  return { itemUrl, typeUrl, getItem, putItem, getType, putType, summaries, list, state, unchanged };
}
