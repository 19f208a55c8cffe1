// Order requests made through the API, for every test folder that needs one (no tests here).
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export interface CreateBody {
  lab_id: string;
  type_id: string;
  name: string;
  vendor_name: string;
  catalog_number: string;
  price: { amount: string; currency: string };
  quantity: number;
  vendor_product_id?: string;
  required_before?: string;
  notes?: string;
}

let seq = 0;
/** A valid create body for a lab; vendor/catalog are unique unless overridden, so receiving makes a new item. */
export function orderBody(lab: { id: string; typeId: string }, overrides: Partial<CreateBody> = {}): CreateBody {
  seq += 1;
  return {
    lab_id: lab.id,
    type_id: lab.typeId,
    name: `Thing ${seq}`,
    vendor_name: `Vendor ${seq}`,
    catalog_number: `CAT-${seq}`,
    price: { amount: '1250', currency: 'USD' },
    quantity: 2,
    ...overrides,
  };
}

export async function createOrder(h: Harness, token: string, body: CreateBody | Record<string, unknown>): Promise<any> {
  const res = await h.call(token, { method: 'POST', url: '/order-requests', payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
