// GET /labs/{id}/type-usage (docs/api.md "Types in the application"): a lab's types by name with what uses them.

import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const usage = (token: string | null, labId: string, query = '') =>
  h.call(token, { method: 'GET', url: `/labs/${labId}/type-usage${query}` });

describe('GET /labs/{id}/type-usage (happy)', () => {
  it('each type by name with its items and order requests; pages with X-Total-Count', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Usage lab', usesInstances: true });
    const mk = async (name: string) =>
      (await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: { lab_id: lab.id, name } })).json().id as string;
    const solvent = await mk('solvent');
    const antibody = await mk('Antibody');
    await mk('Buffer');
    await h.call(h.a.admin.token, { method: 'POST', url: '/inventory-items', payload: { lab_id: lab.id, name: 'DMSO', type_id: solvent } });
    await h.call(h.a.admin.token, { method: 'POST', url: '/inventory-items', payload: { lab_id: lab.id, name: 'EtOH', type_id: solvent } });
    await createOrder(h, h.a.admin.token, orderBody({ id: lab.id, typeId: antibody }));
    const res = await usage(h.a.admin.token, lab.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { id: antibody, name: 'Antibody', items: 0, order_requests: 1 },
      { id: expect.any(String), name: 'Buffer', items: 0, order_requests: 0 },
      { id: solvent, name: 'solvent', items: 2, order_requests: 0 },
    ]);
    expect(res.headers['x-total-count']).toBe('3');
    const page2 = await usage(h.a.admin.token, lab.id, '?per_page=2&page=2');
    expect(page2.json().map((t: any) => t.name)).toEqual(['solvent']);
    // A member of the lab reads it too (any user who sees a lab manages its types, docs/api.md).
    expect((await usage(h.a.member.token, h.a.migratedLab.id)).statusCode).toBe(200);
  });
});

describe('GET /labs/{id}/type-usage (errors)', () => {
  it('422 for a malformed id or page; 404 for an unknown lab', async () => {
    expectValidation(await usage(h.a.admin.token, 'nope'), 'id');
    expectError(await usage(h.a.admin.token, h.a.migratedLab.id, '?page=0'), 422, 'validation_failed');
    expectError(await usage(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });
});

describe('GET /labs/{id}/type-usage (security)', () => {
  it("401 without a token; another organization's lab and a lab the member is not in are 404", async () => {
    expectError(await usage(null, h.a.migratedLab.id), 401, 'unauthorized');
    for (const token of [h.a.admin.token, h.a.member.token]) expectError(await usage(token, h.b.migratedLab.id), 404, 'not_found');
    expectError(await usage(h.a.member.token, h.a.otherLab.id), 404, 'not_found');
    expectError(await usage(h.a.outsider.token, h.a.migratedLab.id), 404, 'not_found');
  });
});
