// Shared by the Idempotency-Key tests of this folder (docs/product.md §14: every POST and PATCH that creates or
// changes something answers a retry with the first answer). No tests here.

import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Harness } from '../../helpers/harness.js';

export const keyed = (key: string, opts: InjectOptions): InjectOptions => ({
  ...opts,
  headers: { ...(opts.headers ?? {}), 'idempotency-key': key },
});

/** Adjustments recorded for an item (one per adjustment applied). */
export const adjustmentsOf = async (h: Harness, itemId: string): Promise<number> =>
  (await h.deps.db.selectFrom('inventory_item_changes').select('id').where('item_id', '=', itemId).execute()).length;

export const quantityOf = async (h: Harness, token: string, itemId: string): Promise<string> =>
  (await h.call(token, { method: 'GET', url: `/inventory-items/${itemId}` })).json().quantity;

export const countRows = async (h: Harness, table: 'order_requests' | 'locations' | 'webhooks' | 'inventory_items'): Promise<number> =>
  Number(
    (
      await h.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const isReplay = (res: LightMyRequestResponse): boolean => res.headers['idempotent-replayed'] === 'true';
