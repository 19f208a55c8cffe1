// Witnessing's refusals (docs/controlled-substances.md, POST /controlled-entries/{entryId}/witness): the person who
// made an entry cannot witness it; an entry is witnessed once; each refusal writes nothing. (Split from the list's tests.)
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { get, ledgerOf, ledgerRows, makeControlled, witness } from './_controlled.js';

const h = useHarness();

describe('witnessing (errors)', () => {
  it('the author of an entry cannot witness it: 403 self_witness, with words that say why', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const before = await ledgerRows(h);
    const body = expectError(await witness(h, h.a.admin.token, opening.id), 403, 'self_witness');
    expect(body.message).toMatch(/another person/);
    expect(await ledgerRows(h)).toBe(before);
    expect((await ledgerOf(h, h.a.admin.token, c.itemId))[0].witness).toBeNull();
  });

  it('an entry already witnessed: 409, the first witness stays', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect((await witness(h, h.a.member.token, opening.id)).statusCode).toBe(200);
    expectError(await witness(h, h.a.member.token, opening.id), 409, 'conflict');
    expect((await ledgerOf(h, h.a.admin.token, c.itemId))[0].witness.id).toBe(h.a.member.id);
  });

  it('an unknown entry is 404; a malformed id or lab filter 422', async () => {
    expectError(await witness(h, h.a.member.token, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectValidation(await witness(h, h.a.member.token, 'nope'), 'entryId');
    expectValidation(await get(h, h.a.member.token, '/controlled-entries?lab_id=nope'), 'lab_id');
  });
});
