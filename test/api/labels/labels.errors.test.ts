// POST /labels with bad input: an unknown format or layout, ids that are not ids, a time that is not one, unknown
// ids, too many labels. Each a clear error; printing changes nothing either way.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LABELS } from '../../../src/labels/service.js';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { print } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const ids = () => h.a.migratedLab.instanceIds;

describe('POST /labels (errors)', () => {
  it('an unknown format or layout, a missing one, an extra field, a bad id or time: 400/422, nothing printed or changed', async () => {
    const before = await dbState(h);
    for (const payload of [
      { format: 'png', layout: 'sheet-30', instance_ids: ids() },
      { format: 'pdf', layout: 'sheet-99', instance_ids: ids() },
      { layout: 'sheet-30', instance_ids: ids() },
      { format: 'pdf', layout: 'sheet-30', instance_ids: ids(), colour: 'red' },
      { format: 'pdf', layout: 'sheet-30', instance_ids: ['not-an-id'] },
      { format: 'pdf', layout: 'sheet-30', received_since: 'yesterday' },
      { format: 'pdf', layout: 'sheet-30', instance_ids: ids(), skip: -1 },
    ]) {
      const res = await print(h, h.a.admin.token, payload);
      expect([400, 422], JSON.stringify(payload)).toContain(res.statusCode);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expect(await dbState(h)).toEqual(before);
  });

  it('an id nobody has is 404 not_found, whatever else is asked', async () => {
    const unknown = '0190a0e0-0000-7000-8000-0000000000ff';
    expectError(await print(h, h.a.admin.token, { format: 'pdf', layout: 'cryo', instance_ids: [...ids(), unknown] }), 404, 'not_found');
    expectError(await print(h, h.a.admin.token, { format: 'zpl', layout: 'cryo', item_ids: [unknown] }), 404, 'not_found');
    expectError(await print(h, h.a.admin.token, { format: 'pdf', layout: 'cryo', location_ids: [unknown] }), 404, 'not_found');
    expectError(await print(h, h.a.admin.token, { format: 'pdf', layout: 'cryo', stored_in_location_id: unknown }), 404, 'not_found');
  });

  it(`more than ${MAX_LABELS} ids in one list is refused by the schema`, async () => {
    const many = Array.from({ length: MAX_LABELS + 1 }, () => ids()[0]);
    const res = await print(h, h.a.admin.token, { format: 'pdf', layout: 'sheet-30', instance_ids: many });
    expect([400, 422]).toContain(res.statusCode);
  });

  it('nothing selected prints an empty page (PDF) or nothing (ZPL), not an error', async () => {
    const pdf = await print(h, h.a.admin.token, { format: 'pdf', layout: 'sheet-30', instance_ids: [] });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const zpl = await print(h, h.a.admin.token, { format: 'zpl', layout: 'sheet-30' });
    expect(zpl.statusCode).toBe(200);
    expect(zpl.body).toBe('');
  });
});
