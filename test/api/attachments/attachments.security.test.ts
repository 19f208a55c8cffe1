// Attachments are visible exactly to those who see their owner (docs/attachments.md, "Who may do what"): another
// organization's item, instance, type or attachment is 404 to every token, as is a lab the caller is not in; a
// type's documents are changed by the lab's managers and org admins only (403 to members, who still read them);
// downloads are never rendered inline.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { download, list, ownersOf, pdf, remove, replace, stored, upload } from './_attachments.js';

let h: Harness;
let docsOfB: { item: any; instance: any; type: any };
beforeAll(async () => {
  h = await startHarness();
  const owners = ownersOf(h.b);
  docsOfB = {
    item: (await upload(h, h.b.admin.token, owners.item, pdf('B item'))).json(),
    instance: (await upload(h, h.b.admin.token, owners.instance, pdf('B CoA'))).json(),
    type: (await upload(h, h.b.admin.token, owners.type, pdf('B SDS'))).json(),
  };
});
afterAll(() => h?.close());

describe('attachments (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'lst_unknown']) {
      expectError(await list(h, token, ownersOf(h.a).item), 401, 'unauthorized');
      expectError(await upload(h, token, ownersOf(h.a).item, pdf()), 401, 'unauthorized');
      expectError(await download(h, token, docsOfB.item.id), 401, 'unauthorized');
      expectError(await remove(h, token, docsOfB.item.id), 401, 'unauthorized');
    }
  });

  it("another organization's owners and attachments are 404 to every token of A, and nothing changes", async () => {
    const before = { db: await dbState(h), attachments: await stored(h) };
    const owners = ownersOf(h.b);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const kind of ['item', 'instance', 'type'] as const) {
        expectError(await list(h, token, owners[kind]), 404, 'not_found');
        expectError(await upload(h, token, owners[kind], pdf('intruder')), 404, 'not_found');
        const doc = docsOfB[kind];
        expectError(await h.call(token, { method: 'GET', url: `/attachments/${doc.id}` }), 404, 'not_found');
        expectError(await download(h, token, doc.id), 404, 'not_found');
        expectError(await replace(h, token, doc.id, pdf('overwrite')), 404, 'not_found');
        expectError(await remove(h, token, doc.id), 404, 'not_found');
      }
      // B's instance under A's item is not found either.
      const mixed = { kind: 'instance' as const, itemId: h.a.migratedLab.itemId, instanceId: h.b.migratedLab.instanceIds[0]! };
      expectError(await list(h, token, mixed), 404, 'not_found');
      expectError(await upload(h, token, mixed, pdf()), 404, 'not_found');
    }
    expect({ db: await dbState(h), attachments: await stored(h) }).toEqual(before);
    expect((await download(h, h.b.member.token, docsOfB.instance.id)).statusCode).toBe(200);
  });

  it('a lab the member is not in: its documents are 404 to them and to the outsider; the org admin sees them', async () => {
    const hidden = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Hidden documents lab' });
    const type = (await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: { lab_id: hidden.id, name: 'Secret' } })).json();
    const owner = { kind: 'type' as const, typeId: type.id };
    const doc = (await upload(h, h.a.admin.token, owner, pdf('hidden SDS'))).json();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      expectError(await list(h, token, owner), 404, 'not_found');
      expectError(await download(h, token, doc.id), 404, 'not_found');
      expectError(await remove(h, token, doc.id), 404, 'not_found');
    }
    expect((await list(h, h.a.admin.token, owner)).json().map((d: any) => d.id)).toEqual([doc.id]);
  });

  it("members read a type's documents but only managers and org admins add, replace or delete them (403)", async () => {
    const owner = ownersOf(h.a).type;
    const doc = (await upload(h, h.a.admin.token, owner, pdf('SDS'))).json();
    const before = { db: await dbState(h), attachments: await stored(h) };
    const refused = expectError(await upload(h, h.a.member.token, owner, pdf('member SDS')), 403, 'forbidden');
    expect(refused.message).toBe("Only organization admins and the lab's managers add, replace and delete a type's documents");
    expectError(await replace(h, h.a.member.token, doc.id, pdf('member edit')), 403, 'forbidden');
    expectError(await remove(h, h.a.member.token, doc.id), 403, 'forbidden');
    expect({ db: await dbState(h), attachments: await stored(h) }).toEqual(before);
    expect((await list(h, h.a.member.token, owner)).json().map((d: any) => d.id)).toContain(doc.id);
    expect((await download(h, h.a.member.token, doc.id)).statusCode).toBe(200);
  });

  it('downloads are attachments the browser must not sniff or run, with a sandboxing policy', async () => {
    const doc = (await upload(h, h.a.member.token, ownersOf(h.a).item, pdf(), 'x.html')).json();
    const res = await download(h, h.a.member.token, doc.id);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain('sandbox');
  });
});
