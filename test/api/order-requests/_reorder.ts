// Reorder tests' helpers (no tests in here): an item made through the API and the reorder call.
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';

let seq = 0;
/** A product item in the lab, made with POST /inventory-items; vendor and catalog number are unique per call. */
export async function productItem(h: Harness, token: string, lab: { id: string; typeId: string }, overrides: Record<string, unknown> = {}) {
  seq += 1;
  const payload = {
    lab_id: lab.id,
    name: `Reorderable ${seq}`,
    type_id: lab.typeId,
    vendor: `Acme ${seq}`,
    catalog_number: `R-${seq}`,
    price: '12.50',
    ...overrides,
  };
  const res = await h.call(token, { method: 'POST', url: '/inventory-items', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const reorder = (h: Harness, token: string | null, itemId: string, payload?: Record<string, unknown>) =>
  h.call(token, { method: 'POST', url: `/inventory-items/${itemId}/reorder`, ...(payload === undefined ? {} : { payload }) });
