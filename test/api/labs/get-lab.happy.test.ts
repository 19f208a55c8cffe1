import { describe, expect, it } from 'vitest';
import { expectLabShape, labJson } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /labs/{id} (happy)', () => {
  it('returns each lab of the org to its admin, exactly shaped', async () => {
    const expected = [
      labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false),
      labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true),
      labJson(h.a.otherLab.id, 'Other lab A', h.a, 'A', false),
    ];
    for (const lab of expected) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${lab.id}` });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expectLabShape(res.json());
      expect(res.json()).toEqual(lab);
    }
  });

  it('equals the lab as listed', async () => {
    const listed = (await h.call(h.a.admin.token, { method: 'GET', url: '/labs' })).json();
    for (const lab of listed) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${lab.id}` });
      expect(res.json()).toEqual(lab);
    }
  });

  it('a member gets the labs they belong to', async () => {
    const legacy = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.legacyLab.id}` });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json().uses_instances).toBe(false);
    const migrated = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}` });
    expect(migrated.statusCode).toBe(200);
    expect(migrated.json().uses_instances).toBe(true);
  });

  it('accepts the Bearer header, and a trailing slash', async () => {
    const res = await h.call(null, {
      method: 'GET',
      url: `/labs/${h.b.migratedLab.id}`,
      headers: { authorization: `Bearer ${h.b.admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(labJson(h.b.migratedLab.id, 'Migrated lab B', h.b, 'B', true));
    const slash = await h.call(h.b.admin.token, { method: 'GET', url: `/labs/${h.b.migratedLab.id}/` });
    expect(slash.statusCode).toBe(200);
    expect(slash.json().id).toBe(h.b.migratedLab.id);
  });
});
