// Controlled items' tenancy and roles (docs/controlled-substances.md): another organization's item is 404 on every
// endpoint, never data; only org admins and the lab's managers mark and unmark; a person outside the lab sees nothing.
import { describe, expect, it } from 'vitest';
import { addMember, newPerson, setRole } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { correct, get, ledgerOf, ledgerRows, makeControlled, makeItem, mark, unmark } from './_controlled.js';

const h = useHarness();

describe('controlled items (security)', () => {
  it('without a token: 401 on every endpoint', async () => {
    const c = await makeControlled(h);
    for (const res of [
      await get(h, null, '/controlled-items'),
      await get(h, null, `/controlled-items/${c.itemId}`),
      await get(h, null, `/controlled-items/${c.itemId}/ledger`),
      await mark(h, null, c.itemId),
      await unmark(h, null, c.itemId),
      await correct(h, null, c.itemId, { corrects_entry_id: c.itemId, change: '1', note: 'x' }),
    ])
      expectError(res, 401);
  });

  it("another organization's item: 404 on every endpoint, nothing written, and not listed", async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const before = await ledgerRows(h);
    const b = h.b.admin.token;
    for (const res of [
      await get(h, b, `/controlled-items/${c.itemId}`),
      await get(h, b, `/controlled-items/${c.itemId}/ledger`),
      await mark(h, b, c.itemId, { schedule: 'stolen' }),
      await unmark(h, b, c.itemId),
      await correct(h, b, c.itemId, { corrects_entry_id: opening.id, change: '1', note: 'x' }),
    ])
      expectError(res, 404, 'not_found');
    const listed = await get(h, b, '/controlled-items?per_page=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((x: any) => x.item_id)).not.toContain(c.itemId);
    expectError(await get(h, b, `/controlled-items?lab_id=${h.a.migratedLab.id}`), 404);
    expect(await ledgerRows(h)).toBe(before);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).json().schedule).toBe('DEA Schedule II');
  });

  it('a member marks and unmarks nothing (403); a manager of the lab does', async () => {
    const c = await makeItem(h);
    const before = await ledgerRows(h);
    expectError(await mark(h, h.a.member.token, c.itemId), 403, 'forbidden');
    expect(await ledgerRows(h)).toBe(before);
    const manager = await newPerson(h, h.a.orgId, 'Mona');
    expect((await addMember(h, h.a.admin.token, h.a.migratedLab.id, manager.id)).statusCode).toBeLessThan(300);
    expect((await setRole(h, h.a.admin.token, h.a.migratedLab.id, manager.id, 'manager')).statusCode).toBe(200);
    expect((await mark(h, manager.token, c.itemId)).statusCode).toBe(201);
    expectError(await unmark(h, h.a.member.token, c.itemId), 403, 'forbidden');
    expect((await unmark(h, manager.token, c.itemId)).statusCode).toBe(200);
  });

  it('a person of the organization outside the lab sees nothing of it (404)', async () => {
    const c = await makeControlled(h);
    expectError(await get(h, h.a.outsider.token, `/controlled-items/${c.itemId}`), 404);
    expectError(await get(h, h.a.outsider.token, `/controlled-items/${c.itemId}/ledger`), 404);
    expect((await get(h, h.a.outsider.token, '/controlled-items')).json()).toEqual([]);
  });
});
