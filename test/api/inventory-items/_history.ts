// Shared by the item-history tests (no tests in here): the keys of every history entry, the lot and places it
// concerns included (docs/ordering.md), the stocktake it came from (docs/stocktake.md), and the requests the tests read and write history with.

import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { UUID_RE } from '../../helpers/shapes.js';

export const HISTORY_KEYS = [
  'changed_at',
  'changed_by',
  'field',
  'id',
  'instance_id',
  'location',
  'lot_number',
  'new_location',
  'new_value',
  'note',
  'old_location',
  'old_value',
  'order_request_id',
  'stocktake_id',
];

const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function historyFixture(h: Harness) {
  const history = (token: string | null, id: string) => h.call(token, { method: 'GET', url: `/inventory-items/${id}/history` });

  /** GET /inventory-items/{id}/history that must succeed: 200 JSON, a list of entries of the history shape. */
  async function historyOk(id: string, token = h.a.admin.token): Promise<any[]> {
    const res = await history(token, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    for (const e of body) {
      expect(Object.keys(e).sort()).toEqual(HISTORY_KEYS);
      expect(e.id).toMatch(UUID_RE);
      expect(e.changed_at).toMatch(DATETIME_RE);
    }
    return body;
  }

  /** A change that must succeed (any 2xx); its JSON body. */
  async function call(token: string, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown): Promise<any> {
    const res = await h.call(token, { method, url, payload: payload as any });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  }

  return { history, historyOk, call };
}
