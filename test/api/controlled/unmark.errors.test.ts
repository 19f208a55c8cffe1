// Unmarking's refusals (docs/controlled-substances.md): a reason is required and has words; an item that is not
// controlled cannot be unmarked; each refusal writes nothing.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { get, ledgerRows, makeControlled, makeItem, unmark } from './_controlled.js';

const h = useHarness();

describe('unmarking (errors)', () => {
  it('without a reason, or with a blank or too long one: 422, still controlled, nothing written', async () => {
    const c = await makeControlled(h);
    const before = await ledgerRows(h);
    expectValidation(await unmark(h, h.a.admin.token, c.itemId, {}), 'reason');
    expectValidation(await unmark(h, h.a.admin.token, c.itemId, { reason: '   ' }), 'reason');
    expectValidation(await unmark(h, h.a.admin.token, c.itemId, { reason: 'x'.repeat(1001) }), 'reason');
    expectValidation(await unmark(h, h.a.admin.token, c.itemId, { reason: 'ok', extra: 1 }), 'extra');
    expect(await ledgerRows(h)).toBe(before);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).statusCode).toBe(200);
  });

  it('an item that is not controlled (or no longer): 404; an unknown item 404; a malformed id 422', async () => {
    const c = await makeItem(h);
    expectError(await unmark(h, h.a.admin.token, c.itemId), 404, 'not_found');
    const d = await makeControlled(h);
    expect((await unmark(h, h.a.admin.token, d.itemId)).statusCode).toBe(200);
    const before = await ledgerRows(h);
    expectError(await unmark(h, h.a.admin.token, d.itemId), 404, 'not_found');
    expect(await ledgerRows(h)).toBe(before);
    expectError(await unmark(h, h.a.admin.token, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectValidation(await unmark(h, h.a.admin.token, 'nope'), 'itemId');
  });
});
