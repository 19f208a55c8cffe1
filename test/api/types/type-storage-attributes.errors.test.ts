// PUT /types/{id}/storage-attributes refusals: malformed bodies 422, malformed JSON 400, a missing type 404, a
// malformed id 422; nothing changes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { typeStorage } from './_storage.js';

const h = useHarness({}, async (h) => {
  await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/types/${h.a.legacyLab.typeId}/storage-attributes`,
    payload: { corrosive: 'base', aqueous: false },
  });
});
const f = typeStorage(h);

describe('type storage attributes (errors)', () => {
  it('an unknown corrosive, a missing field, an unknown field and a non-boolean are 422; nothing changes', async () => {
    const typeId = h.a.legacyLab.typeId;
    for (const payload of [
      { corrosive: 'alkali', aqueous: false },
      { corrosive: 'acid' },
      { aqueous: true },
      { corrosive: null, aqueous: false, name: 'x' },
      { corrosive: null, aqueous: 'yes' },
      null,
    ]) {
      expectError(await f.unchanged(() => f.put(h.a.admin.token, typeId, payload)), 422, 'validation_failed');
    }
    expect((await f.get(h.a.admin.token, typeId)).json()).toEqual({ corrosive: 'base', aqueous: false });
  });

  it('malformed JSON 400; a missing type 404; a malformed id 422', async () => {
    const bad = await f.unchanged(() =>
      h.call(h.a.admin.token, {
        method: 'PUT',
        url: f.url(h.a.legacyLab.typeId),
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
    );
    expectError(bad, 400, 'invalid_json');
    const missing = randomUUID();
    expectError(await f.get(h.a.admin.token, missing), 404, 'not_found');
    expectError(await f.unchanged(() => f.put(h.a.admin.token, missing, { corrosive: null, aqueous: false })), 404, 'not_found');
    expectError(await f.get(h.a.admin.token, 'not-a-uuid'), 422, 'validation_failed');
  });
});
