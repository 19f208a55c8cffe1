// GET /labs/{id}/inventory/export: malformed and unknown lab ids; an empty lab is a header alone.
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/inventory/csv/rules.js';
import { createLab } from '../../../src/labs/service.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { exportCsv } from './_helpers.js';

const h = useHarness();

describe('GET /labs/{id}/inventory/export (errors)', () => {
  it('422 for a malformed lab id, 404 as JSON for an unknown one', async () => {
    expectError(await exportCsv(h, h.a.admin.token, 'not-a-uuid'), 422, 'validation_failed');
    expectError(await exportCsv(h, h.a.admin.token, '0190b1d2-0000-7000-8000-000000000000'), 404, 'not_found');
  });

  it('a lab without items exports the header row alone', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Empty', usesInstances: true });
    const res = await exportCsv(h, h.a.admin.token, lab.id);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });

  it('takes no body and no other method', async () => {
    const res = await h.call(h.a.admin.token, { method: 'DELETE', url: `/labs/${h.a.migratedLab.id}/inventory/export` });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
