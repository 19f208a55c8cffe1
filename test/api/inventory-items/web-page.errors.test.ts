// An item's web page (`url`) is shown as a link, so only http(s) addresses are stored (docs/api.md): a `javascript:`,
// `data:` or other address is 422 with a field error on create, on edit and in a CSV import; nothing is stored.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv } from '../inventory-csv/_helpers.js';
import { addItem, expectValidation } from './_helpers.js';

const h = useHarness();

const BAD = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'ftp://x.test/a',
  'example.org',
  'https://',
];

describe('an item web page must be an http(s) address', () => {
  it('create: each non-http(s) address is 422 on url with a sentence, and no item is made', async () => {
    for (const url of BAD) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/inventory-items',
        payload: { lab_id: h.a.legacyLab.id, name: 'Evil', url },
      });
      const body = expectValidation(res, 'url');
      expect(body.errors.find((e: any) => e.field === 'url').message, url).toBe('must be a web address starting with http:// or https://');
    }
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.legacyLab.id}&q=Evil` });
    expect(list.json()).toEqual([]);
  });

  it('edit: refused and the stored address is kept; http, https, "" and null are taken', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Linked', url: 'https://example.org/a' });
    const patch = (url: unknown) => h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { url } });
    expectValidation(await patch('javascript:alert(1)'), 'url');
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${item.id}` })).json().url).toBe('https://example.org/a');
    for (const ok of ['http://example.org/b', 'HTTPS://example.org/c?x=1#y', '', null]) {
      const res = await patch(ok);
      expect(res.statusCode, `${ok} ${res.body}`).toBe(200);
    }
  });

  it('CSV import: the row is listed with its line and column, code invalid_url', async () => {
    const csv = ['name,url', 'Good,https://example.org/good', 'Bad,javascript:alert(1)'].join('\n');
    const res = await importCsv(h, h.a.admin.token, h.a.legacyLab.id, csv, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors.map((e: any) => [e.line, e.column, e.code])).toEqual([[3, 'url', 'invalid_url']]);
  });
});
