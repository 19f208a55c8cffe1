// Label tests' helpers (docs/labels.md): the codes the database holds, and the calls of the label routes.
import type { Harness } from '../../helpers/harness.js';

/** The code of a target, read from the table src/labels/ owns (undefined when it has none). */
export async function codeOf(h: Harness, kind: 'instance' | 'location' | 'item', targetId: string): Promise<string | undefined> {
  const row = await h.deps.db
    .selectFrom('label_codes')
    .select('code')
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return row?.code;
}

export const resolve = (h: Harness, token: string | null, code: string) =>
  h.call(token, { method: 'GET', url: `/codes/${encodeURIComponent(code)}` });

export const codesOf = (h: Harness, token: string | null, query: string) => h.call(token, { method: 'GET', url: `/codes?${query}` });

export const print = (h: Harness, token: string | null, payload: Record<string, unknown>) =>
  h.call(token, { method: 'POST', url: '/labels', payload });

export const CODE_SHAPE = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10}$/;
