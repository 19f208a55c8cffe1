// The item-type tests' shared setup (test/api/types/): the three requests, a new type, the rows a refused request
// must leave as they were, and a type's events. `const { … } = typeFixture(h)` beside `const h = useHarness()`.

import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { eventsOfType } from './events.js';
import type { Harness } from './harness.js';
import { unchangedBy } from './unchanged.js';

export function typeFixture(h: Harness) {
  const post = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
    h.call(token, { method: 'POST', url: '/types', payload: payload as any, ...extra });
  const put = (token: string | null, id: string, payload: unknown, extra: Partial<InjectOptions> = {}) =>
    h.call(token, { method: 'PUT', url: `/types/${id}`, payload: payload as any, ...extra });
  const del = (token: string | null, id: string) => h.call(token, { method: 'DELETE', url: `/types/${id}` });

  /** Types and events: what creating or renaming writes. */
  async function state() {
    const [types, events] = await Promise.all([
      h.deps.db.selectFrom('types').selectAll().orderBy('id').execute(),
      h.deps.db.selectFrom('events').select(['id']).orderBy('id').execute(),
    ]);
    return { types, events: events.map((e) => e.id) };
  }

  /** Types, the items and order requests that use them, and events: what deleting a type could touch. */
  async function deleteState() {
    const [types, items, orders, events] = await Promise.all([
      h.deps.db.selectFrom('types').selectAll().orderBy('id').execute(),
      h.deps.db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
      h.deps.db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
      h.deps.db.selectFrom('events').select(['id']).orderBy('id').execute(),
    ]);
    return { types, items, orders, events: events.map((e) => e.id) };
  }

  const eventsFor = (kind: 'created' | 'updated' | 'deleted') => async (typeId: string) =>
    (await eventsOfType(h, `com.labstock.type.${kind}`)).filter((e) => e.event.data?.type?.id === typeId);

  return {
    post,
    put,
    del,
    state,
    /** POST /types that must write no type and no event. */
    unchangedPost: (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
      unchangedBy(state, () => post(token, payload, extra)),
    /** PUT /types/{id} that must write no type and no event. */
    unchangedPut: (token: string | null, id: string, payload: unknown, extra: Partial<InjectOptions> = {}) =>
      unchangedBy(state, () => put(token, id, payload, extra)),
    /** DELETE /types/{id} that must change no type, item, order request or event. */
    unchangedDel: (token: string | null, id: string) => unchangedBy(deleteState, () => del(token, id)),
    /** A type of the lab made over HTTP (by org A's admin unless `token`); 201 or the test fails. */
    async newType(labId: string, name: string, token = h.a.admin.token): Promise<any> {
      const res = await h.call(token, { method: 'POST', url: '/types', payload: { lab_id: labId, name } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    },
    createdEventsFor: eventsFor('created'),
    updatedEventsFor: eventsFor('updated'),
    deletedEventsFor: eventsFor('deleted'),
    typeRow: (id: string) => h.deps.db.selectFrom('types').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
