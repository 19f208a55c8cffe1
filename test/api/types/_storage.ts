// GET/PUT /types/{id}/storage-attributes (docs/safety.md): the calls and the table's state, for refusals that change nothing.
import type { Harness } from '../../helpers/harness.js';
import { unchangedBy } from '../../helpers/unchanged.js';

export const typeStorage = (h: Harness) => {
  const url = (typeId: string) => `/types/${typeId}/storage-attributes`;
  const get = (token: string, typeId: string) => h.call(token, { method: 'GET', url: url(typeId) });
  const put = (token: string, typeId: string, payload: unknown) =>
    h.call(token, { method: 'PUT', url: url(typeId), payload: payload as any });
  const state = () =>
    h.deps.db
      .selectFrom('storage_attributes')
      .select(['subject_kind', 'subject_id', 'corrosive', 'aqueous', 'updated_at'])
      .orderBy('subject_kind')
      .orderBy('subject_id')
      .execute();
  const unchanged = <R>(send: () => Promise<R>) => unchangedBy(state, send);
  return { url, get, put, unchanged };
};
