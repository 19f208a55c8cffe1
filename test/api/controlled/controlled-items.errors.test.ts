// Controlled items' refusals (docs/controlled-substances.md): each clear, each writing nothing.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { correct, get, ledgerOf, ledgerRows, makeControlled, makeItem, mark, unmark } from './_controlled.js';

const h = useHarness();

describe('controlled items (errors)', () => {
  it('a schedule is required and has words: 422, nothing marked', async () => {
    const c = await makeItem(h);
    const before = await ledgerRows(h);
    expectValidation(await mark(h, h.a.admin.token, c.itemId, {}), 'schedule');
    expectValidation(await mark(h, h.a.admin.token, c.itemId, { schedule: '   ' }), 'schedule');
    expectValidation(await mark(h, h.a.admin.token, c.itemId, { schedule: 'x'.repeat(101) }), 'schedule');
    expectValidation(await mark(h, h.a.admin.token, c.itemId, { schedule: 'C-II', colour: 'red' }), 'colour');
    expect(await ledgerRows(h)).toBe(before);
  });

  it('an unknown item is 404; an item that is not controlled has no record, correction or unmarking (404)', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(await mark(h, h.a.admin.token, missing), 404, 'not_found');
    const c = await makeItem(h);
    expectError(await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`), 404, 'not_found');
    expectError(await unmark(h, h.a.admin.token, c.itemId), 404, 'not_found');
    expectError(await correct(h, h.a.admin.token, c.itemId, { corrects_entry_id: missing, change: '1', note: 'x' }), 404, 'not_found');
    expectValidation(await get(h, h.a.admin.token, '/controlled-items/not-a-uuid'), 'itemId');
  });

  it('a correction names an entry of this item, keeps the balance at zero or more, and says why', async () => {
    const c = await makeControlled(h);
    const other = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const [otherOpening] = await ledgerOf(h, h.a.admin.token, other.itemId);
    const before = await ledgerRows(h);
    expectValidation(
      await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: otherOpening.id, change: '1', note: 'x' }),
      'corrects_entry_id',
    );
    const below = expectValidation(
      await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: opening.id, change: '-8', note: 'x' }),
      'change',
    );
    expect(below.message).toMatch(/balance is 7/);
    expectValidation(await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: opening.id, change: 'two', note: 'x' }), 'change');
    expectValidation(await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: opening.id, change: '1', note: ' ' }), 'note');
    expectValidation(await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: opening.id, change: '1' }), 'note');
    expect(await ledgerRows(h)).toBe(before);
  });
});
