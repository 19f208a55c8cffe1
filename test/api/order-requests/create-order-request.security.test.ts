import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, createOrder, expectNotFound, orderBody } from './_helpers.js';

const h = useHarness();

const post = (token: string | null, payload: Record<string, unknown>) => h.call(token, { method: 'POST', url: '/order-requests', payload });

/** Runs a refused create and checks that nothing was written anywhere. */
async function expectRefused(token: string | null, payload: Record<string, unknown>, status: number): Promise<void> {
  const before = await counts(h);
  const res = await post(token, payload);
  expect(res.statusCode, res.body).toBe(status);
  if (status === 404) expectNotFound(res);
  expect(await counts(h)).toEqual(before);
}

describe('POST /order-requests across tenants', () => {
  it('404 with an org A token and org B lab_id + type_id', async () => {
    await expectRefused(h.a.admin.token, { ...orderBody(h.b.legacyLab) }, 404);
    await expectRefused(h.a.admin.token, { ...orderBody(h.b.migratedLab) }, 404);
    await expectRefused(h.a.member.token, { ...orderBody(h.b.legacyLab) }, 404);
  });

  it('404 with an org A lab and an org B type_id', async () => {
    await expectRefused(h.a.admin.token, { ...orderBody(h.a.legacyLab, { type_id: h.b.legacyLab.typeId }) }, 404);
  });

  it('404 with an org B lab and an org A type_id', async () => {
    await expectRefused(h.a.admin.token, { ...orderBody(h.b.legacyLab, { type_id: h.a.legacyLab.typeId }) }, 404);
  });

  it("the 404 for another tenant's lab is the same as for a lab that does not exist", async () => {
    const foreign = await post(h.a.admin.token, { ...orderBody(h.b.legacyLab) });
    const missing = await post(h.a.admin.token, { ...orderBody(h.b.legacyLab, { lab_id: '0190a6f2-1111-7222-8333-444455556666' }) });
    expect(foreign.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(foreign.json().message).toBe(missing.json().message);
    expect(foreign.body).not.toContain(h.b.legacyLab.id);
  });

  it('org B can still create in its own lab (the refusals are about visibility, not the ids)', async () => {
    const o = await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab));
    expect(o.lab.organization.id).toBe(h.b.orgId);
  });
});

describe('POST /order-requests within an organization', () => {
  it('404 for a member creating in a lab they do not belong to', async () => {
    await expectRefused(h.a.member.token, { ...orderBody(h.a.otherLab) }, 404);
  });

  it('404 for an outsider (no labs) in any lab of the org', async () => {
    await expectRefused(h.a.outsider.token, { ...orderBody(h.a.legacyLab) }, 404);
    await expectRefused(h.a.outsider.token, { ...orderBody(h.a.migratedLab) }, 404);
    await expectRefused(h.a.outsider.token, { ...orderBody(h.a.otherLab) }, 404);
  });

  it('a member can create in the labs they belong to', async () => {
    const o = await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab));
    expect(o.lab.id).toBe(h.a.migratedLab.id);
  });
});

describe('POST /order-requests authentication', () => {
  it('401 without a token, nothing written', async () => {
    await expectRefused(null, { ...orderBody(h.a.legacyLab) }, 401);
    const res = await post(null, { ...orderBody(h.a.legacyLab) });
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(typeof res.json().message).toBe('string');
  });

  it('401 with an unknown token, nothing written', async () => {
    await expectRefused('lst_not-a-real-token-0000000000000000000000', { ...orderBody(h.a.legacyLab) }, 401);
  });

  it('401 comes before validation (an invalid body without a token is still 401)', async () => {
    await expectRefused(null, { nonsense: true }, 401);
  });
});
