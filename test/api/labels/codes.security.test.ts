// Codes through the lab's visibility: no token is 401; another organization's code, or one of a lab the member is
// not in, is the same 404 as no code at all (a scan tells nothing it should not), by code and by id.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { codeOf, codesOf, resolve } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('label codes (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    const code = (await codeOf(h, 'instance', h.a.migratedLab.instanceIds[0]!))!;
    for (const token of [null, 'lst_unknown']) {
      expectError(await resolve(h, token, code), 401, 'unauthorized');
      expectError(await codesOf(h, token, `instance_id=${h.a.migratedLab.instanceIds[0]}`), 401, 'unauthorized');
    }
  });

  it("another organization's codes and ids are 404 to every token of A, and B still sees its own", async () => {
    const codes = [
      (await codeOf(h, 'instance', h.b.migratedLab.instanceIds[0]!))!,
      (await codeOf(h, 'location', h.b.migratedLab.locationIds[0]!))!,
      (await codeOf(h, 'item', h.b.legacyLab.itemId))!,
    ];
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const code of codes) expectError(await resolve(h, token, code), 404, 'not_found');
      expectError(await codesOf(h, token, `instance_id=${h.b.migratedLab.instanceIds[0]}`), 404, 'not_found');
      expectError(await codesOf(h, token, `location_id=${h.b.migratedLab.locationIds[0]}`), 404, 'not_found');
      expectError(await codesOf(h, token, `item_id=${h.b.legacyLab.itemId}`), 404, 'not_found');
    }
    for (const code of codes) expect((await resolve(h, h.b.member.token, code)).statusCode).toBe(200);
  });

  it('a lab the member is not in: its codes are 404 to the member and the outsider, found by the org admin', async () => {
    const hidden = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Hidden codes lab',
      usesInstances: true,
    });
    const room = await createLocation(h.deps.db, h.a.admin.actor, { labId: hidden.id, parentId: null, name: 'Secret room' });
    const code = (await codeOf(h, 'location', room.id))!;
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      expectError(await resolve(h, token, code), 404, 'not_found');
      expectError(await codesOf(h, token, `location_id=${room.id}`), 404, 'not_found');
    }
    expect((await resolve(h, h.a.admin.token, code)).json().title).toBe('Secret room');
  });
});
