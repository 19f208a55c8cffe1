// Who may unmark (docs/controlled-substances.md): org admins and the lab's managers. A member is refused (403);
// another organization and a person outside the lab get 404; without a token 401. Each refusal writes nothing.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { get, ledgerRows, makeControlled, unmark } from './_controlled.js';

const h = useHarness();

describe('unmarking (security)', () => {
  it('401 without a token, 403 for a member, 404 for another organization or someone outside the lab', async () => {
    const c = await makeControlled(h);
    const before = await ledgerRows(h);
    expectError(await unmark(h, null, c.itemId), 401);
    expectError(await unmark(h, h.a.member.token, c.itemId), 403, 'forbidden');
    expectError(await unmark(h, h.b.admin.token, c.itemId), 404, 'not_found');
    expectError(await unmark(h, h.a.outsider.token, c.itemId), 404, 'not_found');
    expect(await ledgerRows(h)).toBe(before);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).json().schedule).toBe('DEA Schedule II');
  });
});
