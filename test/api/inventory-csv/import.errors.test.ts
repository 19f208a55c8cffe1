// POST /labs/{id}/inventory/import: bad rows (dry run lists them by line, a real run changes nothing), bad headers,
// limits, media types, a lab that is migrating, and Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../../src/inventory/csv/rules.js';
import { updateLabMigration } from '../../../src/labs/repository.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv, inventorySnapshot } from './_helpers.js';

const h = useHarness();

const lab = () => h.a.migratedLab.id;
const token = () => h.a.admin.token;

const bad = [
  'name,quantity,expiration_date,location,price,type,item_id,vendor,catalog_number,vendor_product_id',
  'Good one,1,2027-01-01,Room 101,1.50,,,V,C1,',
  ',1,,,,,,,,', // line 3: no name
  'Bad qty,-1,2027-02-30,,,,,,,', // line 4: negative quantity, no such date
  'Unknown type,1,,,,Nope,,,,', // line 5
  'Has id,1,,,,,0190b1d2-0000-7000-8000-000000000000,,,', // line 6
  'Deep,1,,A / B / C / D / E / F / G / H,,,,,,', // line 7: 8 levels
  'No qty,,2027-01-01,,,,,,,', // line 8: an instance without quantity
  'Good one,2,,,9.99,,,V,C1,', // line 9: same item as line 2, other price
  'Short,1', // line 10: too few fields
  'Product,1,,,,,,,,not-a-uuid', // line 11
  'Empty level,1,,Room 101 /  / Shelf,,,,,,', // line 12
].join('\n');

describe('POST /labs/{id}/inventory/import (errors)', () => {
  it('a dry run lists every bad row with its line, column and code; nothing changes', async () => {
    const before = await inventorySnapshot(h);
    const res = await importCsv(h, token(), lab(), bad, true);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.dry_run).toBe(true);
    expect(body.rows).toBe(11);
    expect(body.errors.map((e: any) => [e.line, e.column, e.code])).toEqual([
      [3, 'name', 'required'],
      [4, 'quantity', 'invalid_decimal'],
      [4, 'expiration_date', 'invalid_date'],
      [5, 'type', 'unknown_type'],
      [6, 'item_id', 'has_id'],
      [7, 'location', 'location_too_deep'],
      [8, 'quantity', 'required'],
      [9, null, 'conflicting_item'],
      [10, null, 'column_count'],
      [11, 'vendor_product_id', 'invalid_uuid'],
      [12, 'location', 'invalid_location'],
    ]);
    expect(body.error_count).toBe(11);
    expect(body.errors[7].message).toContain('line 2');
    expect(body.errors[7].message).toContain('price');
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('a real run with one bad row among good ones is 422 with the same list and changes nothing', async () => {
    const before = await inventorySnapshot(h);
    const csv = `name,quantity,location\n${Array.from({ length: 600 }, (_, i) => `Item ${i},1,New room / Shelf ${i % 3}`).join('\n')}\nBroken,x,\n`;
    const res = await importCsv(h, token(), lab(), csv);
    const body = expectError(res, 422, 'validation_failed');
    expect(body.import_errors).toEqual([
      { line: 602, column: 'quantity', code: 'invalid_decimal', message: '"x" is not a non-negative decimal like 12.5' },
    ]);
    expect(body.error_count).toBe(1);
    expect(body.message).toContain('line 602');
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('a legacy lab keeps two location levels; unknown, repeated and missing columns are refused on line 1', async () => {
    const deep = await importCsv(h, token(), h.a.legacyLab.id, 'name,location\nX,A / B / C\n', true);
    expect(deep.json().errors.map((e: any) => [e.line, e.code])).toEqual([[2, 'location_too_deep']]);
    const header = await importCsv(h, token(), lab(), 'name,quantitty,Qty,quantity\nX,1,1,1\n', true);
    expect(header.json().errors.map((e: any) => [e.line, e.column, e.code])).toEqual([
      [1, 'quantitty', 'unknown_column'],
      [1, 'quantity', 'duplicate_column'],
    ]);
    const noName = await importCsv(h, token(), lab(), 'vendor\nSigma\n', true);
    expect(noName.json().errors.map((e: any) => e.code)).toEqual(['missing_column']);
    const empty = await importCsv(h, token(), lab(), '', true);
    expect(empty.json().errors.map((e: any) => e.code)).toEqual(['missing_header']);
    const malformed = await importCsv(h, token(), lab(), 'name,quantity\n"Open quote,1\n', true);
    expect(malformed.json().errors.map((e: any) => e.code)).toEqual(['malformed_csv']);
    expectError(await importCsv(h, token(), lab(), 'vendor\nSigma\n'), 422, 'validation_failed');
  });

  it('lists at most 1,000 problems and counts them all', async () => {
    const csv = `name,quantity\n${Array.from({ length: 1500 }, () => 'X,bad').join('\n')}\n`;
    const body = (await importCsv(h, token(), lab(), csv, true)).json();
    expect(body.error_count).toBe(1500);
    expect(body.errors).toHaveLength(1000);
  });

  it(`more than ${MAX_IMPORT_ROWS} rows is 422 import_too_many_rows; a body over the limit is 413 before it is read`, async () => {
    const before = await inventorySnapshot(h);
    const many = `name\n${'x\n'.repeat(MAX_IMPORT_ROWS + 1)}`;
    const res = await importCsv(h, token(), lab(), many);
    expect(expectError(res, 422, 'import_too_many_rows').message).toContain(String(MAX_IMPORT_ROWS));
    const large = await importCsv(h, token(), lab(), `name\n${'x'.repeat(MAX_IMPORT_BYTES)}\n`);
    expect(expectError(large, 413, 'payload_too_large').message).toContain('MiB');
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('refuses other media types, other charsets, compressed bodies and invalid UTF-8; JSON is not a CSV', async () => {
    const url = `/labs/${lab()}/inventory/import`;
    expectError(await h.call(token(), { method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'name\nx\n' }), 415);
    expectError(await h.call(token(), { method: 'POST', url, payload: { name: 'x' } }), 422);
    expectError(
      await importCsv(h, token(), lab(), 'name\nx\n', false, { 'content-type': 'text/csv; charset=latin1' }),
      415,
      'unsupported_media_type',
    );
    expectError(await importCsv(h, token(), lab(), 'name\nx\n', false, { 'content-encoding': 'gzip' }), 415, 'unsupported_media_type');
    const latin1 = await h.call(token(), {
      method: 'POST',
      url,
      headers: { 'content-type': 'text/csv' },
      payload: Buffer.from('name\nCaf\xe9\n', 'latin1'),
    });
    expectError(latin1, 422, 'validation_failed');
    expectError(await importCsv(h, token(), lab(), 'name\nA\u0000B\n'), 422, 'validation_failed');
    // Other operations still refuse CSV.
    expectError(
      await h.call(token(), { method: 'POST', url: '/inventory-items', headers: { 'content-type': 'text/csv' }, payload: 'name\nx\n' }),
      415,
    );
  });

  it('409 lab_migrating while the lab migrates to instances; a malformed lab id is 422', async () => {
    await updateLabMigration(h.deps.db, h.a.legacyLab.id, { migration_started_at: new Date().toISOString(), migration_finished_at: null });
    try {
      expectError(await importCsv(h, token(), h.a.legacyLab.id, 'name\nx\n'), 409, 'lab_migrating');
    } finally {
      await updateLabMigration(h.deps.db, h.a.legacyLab.id, { migration_started_at: null });
    }
    expectError(await importCsv(h, token(), 'not-a-uuid', 'name\nx\n'), 422, 'validation_failed');
  });

  it('Idempotency-Key: a retry answers the first response and imports nothing twice; another file with the key is 422', async () => {
    const headers = { 'idempotency-key': 'csv-import-1' };
    const first = await importCsv(h, token(), lab(), 'name\nOnce only\n', false, headers);
    expect(first.statusCode).toBe(200);
    const again = await importCsv(h, token(), lab(), 'name\nOnce only\n', false, headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await h.deps.db.selectFrom('inventory_items').select('id').where('name', '=', 'Once only').execute();
    expect(rows).toHaveLength(1);
    expectError(await importCsv(h, token(), lab(), 'name\nOther\n', false, headers), 422, 'idempotency_key_reused');
  });

  it('Idempotency-Key: a dry run and the real run under one key are two requests: the real run is 422, never the dry run replayed as if imported', async () => {
    const headers = { 'idempotency-key': 'csv-dry-then-real' };
    const dry = await importCsv(h, token(), lab(), 'name\nDry then real\n', true, headers);
    expect(dry.statusCode).toBe(200);
    expect(dry.json().dry_run).toBe(true);
    expectError(await importCsv(h, token(), lab(), 'name\nDry then real\n', false, headers), 422, 'idempotency_key_reused');
    const rows = await h.deps.db.selectFrom('inventory_items').select('id').where('name', '=', 'Dry then real').execute();
    expect(rows).toHaveLength(0);
  });
});
