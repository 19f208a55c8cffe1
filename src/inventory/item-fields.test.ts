import { describe, expect, it } from 'vitest';
import { camel } from '../shared/camel.js';
import { CSV_COLUMNS, checkRow, columnOf } from './csv/rules.js';
import { columnValue, newItemOf, newItemRow } from './item-row.js';
import { ITEM_FIELD_KEYS, ITEM_FIELDS, ItemCreateBody, ItemEditBody, LEGACY_ONLY_FIELDS, type NewItem } from './schemas.js';

// What follows from one line of the item-field table (src/inventory/schemas.ts ITEM_FIELDS; docs/adding-an-item-field.md):
// every field, whichever it is, reaches the bodies, NewItem, a new item's row and its CSV column.

const at = { id: 'i', userId: 'u', now: '2026-01-01T00:00:00.000Z' };

describe('the item-field table', () => {
  it('gives the create and edit bodies every field, optional, but the name on create', () => {
    expect(Object.keys(ItemEditBody.properties)).toEqual(ITEM_FIELD_KEYS);
    expect(ItemEditBody.required ?? []).toEqual([]);
    expect(Object.keys(ItemCreateBody.properties)).toEqual(['lab_id', ...ITEM_FIELD_KEYS, 'instances']);
    expect(ItemCreateBody.required).toEqual(['lab_id', 'name']);
  });

  it('keeps each field a body gives in its column, under its camelCase name in NewItem', () => {
    for (const field of ITEM_FIELD_KEYS) {
      const { column } = ITEM_FIELDS[field];
      const body = field === 'location' || field === 'sublocation' ? { name: `v-${field}` } : `v-${field}`;
      const item = newItemOf('lab', { lab_id: 'lab', name: 'n', [field]: body });
      expect(item[camel(column) as keyof NewItem]).toBe(columnValue(field, body));
      const row = newItemRow(item, false, at);
      expect(row[column], field).toBe(`v-${field}`);
    }
  });

  it('leaves the legacy-only fields empty in a lab that uses instances (a quantity of 0)', () => {
    const input = Object.fromEntries(ITEM_FIELD_KEYS.map((f) => [camel(ITEM_FIELDS[f].column), 'x'])) as NewItem;
    const row = newItemRow({ ...input, labId: 'lab', name: 'n' }, true, at);
    for (const field of LEGACY_ONLY_FIELDS) expect(row[ITEM_FIELDS[field].column], field).toBe(field === 'quantity' ? '0' : null);
    expect(LEGACY_ONLY_FIELDS).toEqual(['quantity', 'lot_number', 'expiration_date', 'location', 'sublocation']);
  });

  it('gives every field with a CSV column its header, kept in its column, read into the imported row', () => {
    for (const field of ITEM_FIELD_KEYS) {
      const spec = ITEM_FIELDS[field];
      if (!('csv' in spec)) continue;
      expect(CSV_COLUMNS).toContain(spec.csv.header);
      expect(columnOf(spec.csv.header)).toBe(spec.column);
      if (spec.csv.check !== 'text') continue;
      const checked = checkRow(2, { name: 'n', quantity: '1', [spec.csv.header]: 'some text' }, false);
      if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
      expect((checked.row as Record<string, unknown>)[camel(spec.column)], field).toBe('some text');
    }
  });
});
