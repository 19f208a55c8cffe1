// Who may witness (docs/controlled-substances.md): another person who sees the lab. A member of another lab, a
// person of no lab and another organization's admin get 404 and write nothing; the waiting list shows none of it.
import { describe, expect, it } from 'vitest';
import { addMember, newPerson } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { get, ledgerOf, ledgerRows, makeControlled, witness } from './_controlled.js';

const h = useHarness();

describe('witnessing (security)', () => {
  it('without a token: 401', async () => {
    expectError(await get(h, null, '/controlled-entries'), 401);
    expectError(await witness(h, null, '00000000-0000-4000-8000-000000000000'), 401);
  });

  it('a member of another lab, a person of no lab and another organization cannot witness (404); nothing written', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const elsewhere = await newPerson(h, h.a.orgId, 'Otto');
    expect((await addMember(h, h.a.admin.token, h.a.otherLab.id, elsewhere.id)).statusCode).toBeLessThan(300);
    const before = await ledgerRows(h);
    for (const token of [elsewhere.token, h.a.outsider.token, h.b.admin.token]) {
      expectError(await witness(h, token, opening.id), 404, 'not_found');
      const waiting = await get(h, token, '/controlled-entries?per_page=100');
      expect(waiting.statusCode).toBe(200);
      expect(waiting.json().map((e: any) => e.id)).not.toContain(opening.id);
    }
    expectError(await get(h, h.b.admin.token, `/controlled-entries?lab_id=${h.a.migratedLab.id}`), 404);
    expect(await ledgerRows(h)).toBe(before);
    expect((await ledgerOf(h, h.a.admin.token, c.itemId))[0].witness).toBeNull();
  });
});
