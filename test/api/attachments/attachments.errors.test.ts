// Attachments refused, and nothing stored (docs/attachments.md): beyond the size limit 413 (declared or streamed),
// a type read from the content outside the allow-list 415 (whatever the name or Content-Type say), names with path
// parts and control characters cleaned (or 422 when nothing is left), empty bodies, compressed bodies, bad ids.

import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_ATTACHMENT_TYPES, loadConfig } from '../../../src/shared/config.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { download, list, ownerPath, ownersOf, pdf, png, replace, sha256, stored, upload } from './_attachments.js';

const LIMIT = 64 * 1024;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ATTACHMENT_MAX_BYTES: String(LIMIT) });
});
afterAll(() => h?.close());

describe('attachments (errors)', () => {
  it('the default limit is 25 MiB and the default types PDF and images; bad settings stop the process', () => {
    const config = loadConfig({ DATABASE_URL: ':memory:' });
    expect(config.attachmentMaxBytes).toBe(25 * 1024 * 1024);
    expect(config.attachmentTypes).toEqual(DEFAULT_ATTACHMENT_TYPES);
    expect(DEFAULT_ATTACHMENT_TYPES).toEqual(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    expect(() => loadConfig({ DATABASE_URL: ':memory:', ATTACHMENT_MAX_BYTES: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: ':memory:', ATTACHMENT_TYPES: 'pdf' })).toThrow(/ATTACHMENT_TYPES: "pdf"/);
    expect(loadConfig({ DATABASE_URL: ':memory:', ATTACHMENT_TYPES: 'image/png, Application/PDF' }).attachmentTypes).toEqual([
      'image/png',
      'application/pdf',
    ]);
  });

  it('413 beyond the limit, whether Content-Length says so or the body runs over; nothing is stored', async () => {
    const before = await stored(h);
    const owner = ownersOf(h.a).item;
    const exact = await upload(h, h.a.member.token, owner, pdf('exactly the limit', LIMIT));
    expect(exact.statusCode, exact.body).toBe(201);
    const afterExact = await stored(h);

    const over = pdf('one byte over', LIMIT + 1);
    const declared = expectError(await upload(h, h.a.member.token, owner, over), 413, 'payload_too_large');
    expect(declared.message).toContain('64 KiB');
    // Streamed without a length (chunked): the server counts and stops at the limit, and drops what it staged.
    const streamed = await h.call(h.a.member.token, {
      method: 'POST',
      url: `${ownerPath(owner)}?name=big.pdf`,
      headers: { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' },
      payload: Readable.from([over.subarray(0, 40_000), over.subarray(40_000)]),
    });
    expectError(streamed, 413, 'payload_too_large');
    expect(streamed.headers.connection).toBe('close');
    expectError(await replace(h, h.a.member.token, exact.json().id, over), 413, 'payload_too_large');
    expect(await stored(h)).toEqual(afterExact);
    expect(afterExact.rows.length).toBe(before.rows.length + 1);
  });

  it('415 when the content is not an allowed type, whatever the name and Content-Type claim; nothing is stored', async () => {
    const before = await stored(h);
    const owner = ownersOf(h.a).instance;
    const cases: [string, Buffer, string][] = [
      ['page.pdf', Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'application/pdf'],
      ['logo.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/png'],
      ['notes.pdf', Buffer.from('just some text'), 'application/octet-stream'],
      ['setup.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0)]), 'application/pdf'],
      ['archive.pdf', Buffer.from('504b0304140000000800', 'hex'), 'application/pdf'],
    ];
    for (const [name, bytes, type] of cases) {
      const body = expectError(
        await upload(h, h.a.member.token, owner, bytes, name, { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
      expect(body.message).toContain('application/pdf');
    }
    // The zip's type is named: it was read from the content.
    const zip = expectError(
      await upload(h, h.a.member.token, owner, Buffer.from('504b03041400000008000000000000000000', 'hex'), 'a.pdf'),
      415,
    );
    expect(zip.message).toContain('application/zip');
    expect(await stored(h)).toEqual(before);
  });

  it('a replace with a refused type keeps the old content and version', async () => {
    const a = (await upload(h, h.a.member.token, ownersOf(h.a).item, pdf('keep me'))).json();
    expectError(await replace(h, h.a.member.token, a.id, Buffer.from('<html></html>')), 415, 'unsupported_media_type');
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/attachments/${a.id}` })).json()).toEqual(a);
    expect(sha256((await download(h, h.a.member.token, a.id)).rawPayload)).toBe(a.sha256);
  });

  it('names lose their path parts and control characters; a name with nothing left is 422', async () => {
    const owner = ownersOf(h.a).item;
    const cleaned: [string, string][] = [
      ['../../etc/passwd.pdf', 'passwd.pdf'],
      ['C:\\Users\\ada\\Desktop\\SDS ethanol.pdf', 'SDS ethanol.pdf'],
      ['/absolute/path/to/coa.pdf', 'coa.pdf'],
      ['evil\r\nX-Injected: yes.pdf', 'evilX-Injected: yes.pdf'],
      ['invoice\u202Efdp.exe.pdf', 'invoicefdp.exe.pdf'],
      ['  ..hidden.pdf. ', 'hidden.pdf'],
    ];
    for (const [raw, expected] of cleaned) {
      const res = await upload(h, h.a.member.token, owner, pdf(), raw);
      expect(res.statusCode, `${raw}: ${res.body}`).toBe(201);
      expect(res.json().file_name).toBe(expected);
      const dl = await download(h, h.a.member.token, res.json().id);
      expect(String(dl.headers['content-disposition']).startsWith('attachment; filename="')).toBe(true);
      expect(dl.headers['x-injected']).toBeUndefined();
    }
    const long = `${'a'.repeat(300)}.pdf`;
    expect((await upload(h, h.a.member.token, owner, pdf(), long)).json().file_name).toBe(`${'a'.repeat(196)}.pdf`);
    const before = await stored(h);
    for (const raw of ['..', '/', 'a/b/', '\u0000\u0001', ' . ']) {
      expectValidation(await upload(h, h.a.member.token, owner, pdf(), raw), 'name');
    }
    expectValidation(
      await h.call(h.a.member.token, {
        method: 'POST',
        url: ownerPath(owner),
        headers: { 'content-type': 'application/pdf' },
        payload: pdf(),
      }),
      'name',
    );
    expect(await stored(h)).toEqual(before);
  });

  it('an empty body is 422; a compressed one 415; nothing is stored', async () => {
    const before = await stored(h);
    const owner = ownersOf(h.a).item;
    expectValidation(await upload(h, h.a.member.token, owner, Buffer.alloc(0), 'empty.pdf'), 'body');
    expectError(await upload(h, h.a.member.token, owner, png(), 'x.png', { 'content-encoding': 'gzip' }), 415, 'unsupported_media_type');
    expect(await stored(h)).toEqual(before);
  });

  it('the same Idempotency-Key with another name is 422; malformed ids are 422; unknown ones 404', async () => {
    const owner = ownersOf(h.a).type;
    const headers = { 'idempotency-key': 'attach-errors-1' };
    expect((await upload(h, h.a.admin.token, owner, pdf(), 'one.pdf', headers)).statusCode).toBe(201);
    expectError(await upload(h, h.a.admin.token, owner, pdf(), 'two.pdf', headers), 422, 'idempotency_key_reused');
    expectValidation(await h.call(h.a.member.token, { method: 'GET', url: '/attachments/nope' }), 'id');
    expectValidation(await h.call(h.a.member.token, { method: 'GET', url: '/inventory-items/nope/attachments' }), 'id');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await h.call(h.a.member.token, { method: 'GET', url: `/attachments/${unknown}` }), 404, 'not_found');
    expectError(await download(h, h.a.member.token, unknown), 404, 'not_found');
    expectError(await list(h, h.a.member.token, { kind: 'item', itemId: unknown }), 404, 'not_found');
    expectError(await upload(h, h.a.member.token, { kind: 'type', typeId: unknown }, pdf()), 404, 'not_found');
  });
});
