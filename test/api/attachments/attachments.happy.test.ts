// Attachments on an item, an instance and a type (docs/attachments.md): upload, list, get, download, replace (same
// id, new version, who and when), delete, and what the download's headers say.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSqlite } from '../../../src/shared/db/backup.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { legacyLabManager } from '../types/_managers.js';
import { download, list, ownersOf, pdf, png, remove, replace, sha256, upload } from './_attachments.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('attachments (happy)', () => {
  it('uploads a document to an item, an instance and a type; each lists its own, with who and when', async () => {
    const owners = ownersOf(h.a);
    const files = { item: pdf('item manual'), instance: pdf('CoA lot A1'), type: pdf('SDS') };
    const made: Record<string, any> = {};
    for (const kind of ['item', 'instance', 'type'] as const) {
      const before = new Date().toISOString();
      const res = await upload(h, h.a.admin.token, owners[kind], files[kind], `${kind}.pdf`);
      expect(res.statusCode, res.body).toBe(201);
      const a = res.json();
      expect(res.headers.location).toBe(`/attachments/${a.id}`);
      expect(a).toMatchObject({
        owner_kind: kind,
        file_name: `${kind}.pdf`,
        media_type: 'application/pdf',
        size_bytes: files[kind].length,
        sha256: sha256(files[kind]),
        version: 1,
        lab_id: h.a.migratedLab.id,
        download_url: `/attachments/${a.id}/content`,
      });
      expect(a.created_by.id).toBe(h.a.admin.id);
      expect(a.updated_by.id).toBe(h.a.admin.id);
      expect(a.created_at >= before).toBe(true);
      made[kind] = a;
    }
    expect(made.item.owner_id).toBe(h.a.migratedLab.itemId);
    expect(made.instance).toMatchObject({ owner_id: h.a.migratedLab.instanceIds[0], item_id: h.a.migratedLab.itemId });
    expect(made.type).toMatchObject({ owner_id: h.a.migratedLab.typeId, item_id: null });
    for (const kind of ['item', 'instance', 'type'] as const) {
      const res = await list(h, h.a.member.token, owners[kind]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([made[kind]]);
      expect(res.headers['x-total-count']).toBe('1');
      const one = await h.call(h.a.member.token, { method: 'GET', url: `/attachments/${made[kind].id}` });
      expect(one.json()).toEqual(made[kind]);
    }
  });

  it('downloads the same bytes as an attachment, nosniff, with the name encoded per RFC 6266 and an ETag', async () => {
    const file = png();
    const name = 'Spectre ü "1".png';
    const a = (await upload(h, h.a.member.token, ownersOf(h.a).item, file, name)).json();
    expect(a.media_type).toBe('image/png');
    const res = await download(h, h.a.member.token, a.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(file)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(file.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="Spectre \? \\"1\\".png"; filename\*=UTF-8''Spectre%20%C3%BC%20%221%22.png$/);
    expect(res.headers.etag).toBe(`"${sha256(file)}"`);
    const again = await download(h, h.a.member.token, a.id, { 'if-none-match': `"${sha256(file)}"` });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('a file larger than one chunk comes back whole, in order', async () => {
    const big = pdf('several chunks', 700 * 1024 + 13);
    const a = (await upload(h, h.a.member.token, ownersOf(h.a).instance, big, 'big.pdf')).json();
    expect(a.size_bytes).toBe(big.length);
    const res = await download(h, h.a.member.token, a.id);
    expect(sha256(res.rawPayload)).toBe(sha256(big));
  });

  it('replace keeps the id, raises the version, records who replaced it and when; the old content is gone', async () => {
    const a = (await upload(h, h.a.admin.token, ownersOf(h.a).item, pdf('v1'), 'report.pdf')).json();
    const v2 = pdf('version two, by the member');
    const res = await replace(h, h.a.member.token, a.id, v2);
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({
      id: a.id,
      version: 2,
      file_name: 'report.pdf',
      size_bytes: v2.length,
      sha256: sha256(v2),
      created_at: a.created_at,
    });
    expect(b.created_by.id).toBe(h.a.admin.id);
    expect(b.updated_by.id).toBe(h.a.member.id);
    expect(b.updated_at > a.updated_at).toBe(true);
    expect((await download(h, h.a.member.token, a.id)).rawPayload.equals(v2)).toBe(true);
    // A new name with the content.
    const c = (await replace(h, h.a.member.token, a.id, png(), 'photo.png')).json();
    expect(c).toMatchObject({ id: a.id, version: 3, file_name: 'photo.png', media_type: 'image/png' });
    // Only the current content's chunks remain.
    const chunks = await h.deps.db.selectFrom('attachment_chunks').select('content_id').where('attachment_id', '=', a.id).execute();
    expect(new Set(chunks.map((r) => r.content_id)).size).toBe(1);
  });

  it('delete removes it and its content; a deleted item takes its documents with it', async () => {
    const a = (await upload(h, h.a.member.token, ownersOf(h.a).item, pdf('to delete'))).json();
    expect((await remove(h, h.a.member.token, a.id)).statusCode).toBe(204);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/attachments/${a.id}` })).statusCode).toBe(404);
    expect(await h.deps.db.selectFrom('attachment_chunks').select('seq').where('attachment_id', '=', a.id).execute()).toEqual([]);

    const item = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: { lab_id: h.a.legacyLab.id, name: 'Short-lived', type_id: h.a.legacyLab.typeId, quantity: '1' },
    });
    expect(item.statusCode, item.body).toBe(201);
    const doc = (await upload(h, h.a.member.token, { kind: 'item', itemId: item.json().id }, pdf('manual'))).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${item.json().id}` })).statusCode).toBe(204);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/attachments/${doc.id}` })).statusCode).toBe(404);
    expect(await h.deps.db.selectFrom('attachment_chunks').select('seq').where('attachment_id', '=', doc.id).execute()).toEqual([]);
  });

  it("a lab manager (not an org admin) adds, replaces and deletes a type's documents", async () => {
    const manager = await legacyLabManager(h);
    const owner = { kind: 'type' as const, typeId: h.a.legacyLab.typeId };
    const res = await upload(h, manager.token, owner, pdf('SDS'), 'SDS.pdf');
    expect(res.statusCode, res.body).toBe(201);
    expect((await replace(h, manager.token, res.json().id, pdf('SDS rev 2'))).json().version).toBe(2);
    expect((await remove(h, manager.token, res.json().id)).statusCode).toBe(204);
  });

  it('the same Idempotency-Key uploads once and answers the first response again', async () => {
    const owner = ownersOf(h.a).instance;
    const before = (await list(h, h.a.member.token, owner)).json().length;
    const headers = { 'idempotency-key': 'attach-once-1' };
    const first = await upload(h, h.a.member.token, owner, pdf('once'), 'once.pdf', headers);
    const second = await upload(h, h.a.member.token, owner, pdf('once'), 'once.pdf', headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    expect((await list(h, h.a.member.token, owner)).json().length).toBe(before + 1);
  });

  // PostgreSQL's backup is pg_dump of the whole database, which carries every table (src/cli/backup.ts).
  it.skipIf(process.env.DATABASE_URL?.startsWith('postgres'))('a SQLite backup carries the documents and their content', async () => {
    const file = pdf('in the backup', 300 * 1024);
    const a = (await upload(h, h.a.member.token, ownersOf(h.a).item, file, 'kept.pdf')).json();
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-attach-')), 'backup.sqlite');
    await backupSqlite(h.config.database.kind === 'sqlite' ? h.config.database.file : '', target);
    const copy = new SQLite(target, { readonly: true });
    try {
      const row = copy.prepare('select content_id, sha256 from attachments where id = ?').get(a.id) as {
        content_id: string;
        sha256: string;
      };
      expect(row.sha256).toBe(sha256(file));
      const chunks = copy.prepare('select data from attachment_chunks where content_id = ? order by seq').all(row.content_id) as {
        data: Buffer;
      }[];
      expect(sha256(Buffer.concat(chunks.map((c) => c.data)))).toBe(sha256(file));
    } finally {
      copy.close();
      fs.rmSync(path.dirname(target), { recursive: true, force: true });
    }
  });
});
