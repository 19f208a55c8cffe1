// POST /inventory-items: docs/product.md §5 (legacy lab: quantity/lot/expiry/location on the item; migrated lab: instances,
// legacy-only fields 422) and §7 (inventory-item.created with instances and lab.uses_instances).

import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchangedBy } = itemFixture(h);

const post = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  h.call(token, { method: 'POST', url: '/inventory-items', payload: payload as any, ...extra });

const unchanged = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  unchangedBy(() => post(token, payload, extra));

describe('POST /inventory-items (errors)', () => {
  it.each([
    ['quantity', '1'],
    ['lot_number', 'L'],
    ['expiration_date', '2027-01-01'],
    ['location', { name: 'Cabinet' }],
    ['sublocation', { name: 'Shelf' }],
  ])('migrated lab: %s is 422 (set it on an instance); nothing is written', async (field, value) => {
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Legacy style', [field]: value }), field);
  });

  it('migrated lab: all legacy-only fields at once are each named', async () => {
    const body = expectValidation(
      await unchanged(h.a.admin.token, {
        lab_id: h.a.migratedLab.id,
        name: 'All legacy',
        quantity: '1',
        lot_number: 'L',
        expiration_date: '2027-01-01',
        location: { name: 'A' },
        sublocation: { name: 'B' },
      }),
      'quantity',
    );
    expect(body.errors.map((e: any) => e.field).sort()).toEqual(['expiration_date', 'location', 'lot_number', 'quantity', 'sublocation']);
  });

  it('legacy lab: a non-empty instances[] is 422 naming instances', async () => {
    expectValidation(
      await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Wrong', instances: [{ quantity: '1' }] }),
      'instances',
    );
  });

  it('404 for an unknown lab, a type of another lab, and an instance location of another lab (nothing is half-written)', async () => {
    expectError(await unchanged(h.a.admin.token, { lab_id: UNKNOWN_ID, name: 'X' }), 404, 'not_found');
    expectError(
      await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'X', type_id: h.a.migratedLab.typeId }),
      404,
      'not_found',
    );
    expectError(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'X', type_id: UNKNOWN_ID }), 404, 'not_found');
    expectError(
      await unchanged(h.a.admin.token, {
        lab_id: h.a.migratedLab.id,
        name: 'X',
        instances: [{ quantity: '1' }, { quantity: '2', location_id: h.b.migratedLab.locationIds[0] }],
      }),
      404,
      'not_found',
    );
    expectError(
      await unchanged(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'X', instances: [{ quantity: '1', location_id: UNKNOWN_ID }] }),
      404,
      'not_found',
    );
  });

  it('422 naming the field for missing or invalid values', async () => {
    const lab = h.a.legacyLab.id;
    expectValidation(await unchanged(h.a.admin.token, { lab_id: lab }), 'name');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: lab, name: '' }), 'name');
    expectValidation(await unchanged(h.a.admin.token, { name: 'No lab' }), 'lab_id');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: 'lab-1', name: 'X' }), 'lab_id');
    for (const quantity of ['-1', '1e3', 'abc', 5])
      expectValidation(await unchanged(h.a.admin.token, { lab_id: lab, name: 'X', quantity }), 'quantity');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: lab, name: 'X', price: '-2' }), 'price');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: lab, name: 'X', expiration_date: '2027-13-01' }), 'expiration_date');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: lab, name: 'X', location: 'Cabinet' }), 'location');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'X', instances: [{}] }), 'instances[0].quantity');
    expectValidation(
      await unchanged(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'X', instances: [{ quantity: '-1' }] }),
      'instances[0].quantity',
    );
  });

  it('422 naming unknown body fields, at the top level and inside an instance', async () => {
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'X', colour: 'blue' }), 'colour');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'X', id: UNKNOWN_ID }), 'id');
    expectValidation(
      await unchanged(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'X', instances: [{ quantity: '1', location: { name: 'A' } }] }),
      'instances[0].location',
    );
  });
});
